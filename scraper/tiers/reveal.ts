import type { Page } from 'playwright-core';

/**
 * Content a browser only shows after a person acts: a cookie or consent wall that hides the page
 * until "Accept" is clicked, and text that a page appends as it is scrolled (lazy sections,
 * "infinite" article bodies). The scripts run in the page, so they are kept as strings (this
 * project compiles without the DOM library); they never navigate anywhere themselves.
 */

/** Clicks the accept button of a visible consent dialog; true when it clicked one. */
const ACCEPT_CONSENT = `(() => {
  const words = /^(?:accept(?: all| all cookies| cookies| and continue| & continue)?|i accept|agree(?: and continue)?|i agree|yes,? i agree|allow(?: all)?(?: cookies)?|got it|i understand|ok(?:ay)?|continue|alle akzeptieren|akzeptieren|zustimmen|tout accepter|accepter|aceptar(?: todo)?|accetta(?: tutto)?|aceitar)$/i;
  const container = /consent|cookie|gdpr|cmp|privacy|onetrust|didomi|cookiebot|truste|qc-cmp|sp_message|notice|banner|wall/i;
  const controls = document.querySelectorAll('button, a, [role="button"], input[type="button"], input[type="submit"]');
  for (const control of controls) {
    const label = (control.innerText || control.value || control.getAttribute('aria-label') || '').trim();
    if (!words.test(label)) continue;
    let inDialog = false;
    for (let node = control.parentElement; node && node !== document.documentElement; node = node.parentElement) {
      const evidence = (node.id || '') + ' ' + (typeof node.className === 'string' ? node.className : '');
      if (container.test(evidence) || node.getAttribute('role') === 'dialog' || node.getAttribute('aria-modal') === 'true') {
        inDialog = true;
        break;
      }
    }
    const box = control.getBoundingClientRect();
    if (!inDialog || box.width === 0 || box.height === 0) continue;
    control.click();
    return true;
  }
  return false;
})()`;

/**
 * Scrolls to the bottom until the page stops growing (at most maxSteps times), waiting after
 * each step for the DOM to be quiet (longer once the page has grown, so a slow next part is not
 * taken for the end); returns how many steps grew the page.
 */
const SCROLL_TO_RENDER = `(async ({ maxSteps, quietMs, patientMs, stepMs }) => {
  const quiet = (quietMs) => new Promise((resolve) => {
    let timer;
    let cap;
    const done = () => { observer.disconnect(); clearTimeout(timer); clearTimeout(cap); resolve(); };
    const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quietMs); });
    observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    timer = setTimeout(done, quietMs);
    cap = setTimeout(done, stepMs);
  });
  let grew = 0;
  for (let step = 0; step < maxSteps; step++) {
    const before = document.documentElement.scrollHeight;
    const textBefore = document.body ? document.body.innerText.length : 0;
    window.scrollTo(0, before);
    await quiet(quietMs);
    const grown = () =>
      document.documentElement.scrollHeight > before ||
      (document.body ? document.body.innerText.length : 0) > textBefore;
    if (!grown()) {
      // An IntersectionObserver reports changes seen at a rendering update: when the bottom left
      // the view and came back within one frame (the page grew just as it was scrolled), it
      // reports nothing. Step back up two screens, let a frame pass, and come down again. A page
      // that has already rendered on scroll may also be slow to render its next part (a busy
      // machine, a slow API behind it): it gets a patient wait before the scroll stops.
      window.scrollTo(0, Math.max(0, before - window.innerHeight * 2));
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 100);
        requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(timer); resolve(); }));
      });
      window.scrollTo(0, document.documentElement.scrollHeight);
      await quiet(grew > 0 ? patientMs : quietMs);
    }
    if (!grown()) break;
    grew++;
  }
  window.scrollTo(0, 0);
  return grew;
})`;

export interface RevealOptions {
  /** The time left for the whole tier. */
  remainingMs: () => number;
}

/** What revealing did: a consent click, and scroll steps that added content. */
export interface Revealed {
  consentClicked: boolean;
  scrollSteps: number;
}

/**
 * Accepts a consent wall (then waits for the page it leads to), and scrolls until nothing more
 * renders. Bounded in time: a few hundred milliseconds on a page that needs neither.
 */
export async function revealContent(page: Page, options: RevealOptions): Promise<Revealed> {
  const consentClicked = (await page.evaluate(ACCEPT_CONSENT).catch(() => false)) === true;
  if (consentClicked) {
    // Accepting often reloads the page or swaps the wall for the content; wait for either.
    const navigated = await page
      .waitForEvent('framenavigated', {
        predicate: (frame) => frame === page.mainFrame(),
        timeout: Math.min(1_500, options.remainingMs()),
      })
      .then(() => true)
      .catch(() => false);
    if (navigated)
      await page
        .waitForLoadState('domcontentloaded', {
          timeout: Math.max(1, Math.min(5_000, options.remainingMs())),
        })
        .catch(() => undefined);
  }
  const budget = Math.min(3_000, options.remainingMs() - 500);
  if (budget < 300) return { consentClicked, scrollSteps: 0 };
  const scrollSteps = await page
    .evaluate(
      `${SCROLL_TO_RENDER}(${JSON.stringify({ maxSteps: 6, quietMs: 120, patientMs: 500, stepMs: Math.floor(budget / 6) })})`,
    )
    .then((steps) => (typeof steps === 'number' ? steps : 0))
    .catch(() => 0);
  return { consentClicked, scrollSteps };
}
