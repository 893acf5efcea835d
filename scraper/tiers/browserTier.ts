import type { BrowserContext, BrowserContextOptions, Page, Response } from 'playwright-core';
import { AttemptOutcome } from '../../core/scrape/outcome.ts';
import { detectBlock, emptyPageReason } from '../block/detectBlock.ts';
import type { BrowserPool } from '../browser/browserPool.ts';
import { type PageLimits, PageLimitReason, PageWatchdog } from '../browser/pageWatchdog.ts';
import { STEALTH_CONTEXT, STEALTH_INIT_SCRIPT } from '../browser/stealth.ts';
import type { StoredCookie } from '../sessions/cookies.ts';
import { type EgressGuard, UrlRefusedError } from '../ssrf/guard.ts';
import { EGRESS_HEADER } from '../ssrf/guardProxy.ts';
import { revealContent } from './reveal.ts';
import type { Fetched } from './types.ts';

export interface BrowserTierInput {
  url: string;
  pool: BrowserPool;
  guard: EgressGuard;
  /** Hide headless signals and wait longer for challenge pages. */
  stealth: boolean;
  /** The job's own guard proxy (its byte budget), chained to an upstream in the proxy tier. */
  proxyServer?: string;
  /** What the job's proxy has counted: past its budget it cut every connection. */
  budget?: { readonly exceeded: boolean };
  limits: PageLimits;
  cookies: readonly StoredCookie[];
  waitFor?: string;
  screenshot: boolean;
  /** How long a challenge page may take to clear itself. */
  challengeWaitMs: number;
  signal: AbortSignal;
  deadline: number;
}

/** Resource types a scrape does not need unless it takes a screenshot. */
const HEAVY = new Set(['image', 'media', 'font']);

/**
 * The browser tiers: a fresh context (the session's cookies restored, HttpOnly ones included),
 * navigation to the URL, a wait for challenge pages to clear themselves, then for `wait_for`
 * (state attached) or for the page to settle, and the rendered DOM. Every request the page makes
 * is checked twice: by URL in route interception here, and by resolved address in the egress
 * proxy every context's traffic goes through (which also sees redirects and websockets).
 */
export async function browserTier(input: BrowserTierInput): Promise<Fetched> {
  const remaining = () => Math.max(0, input.deadline - Date.now());
  const options: BrowserContextOptions = {
    viewport: { width: 1280, height: 800 },
    storageState: { cookies: [...input.cookies], origins: [] },
    serviceWorkers: 'block',
    ...(input.stealth ? STEALTH_CONTEXT : {}),
    ...(input.proxyServer ? { proxy: { server: input.proxyServer } } : {}),
  };
  return input.pool.withContext(options, input.signal, async (context) => {
    const watchdog = new PageWatchdog(input.limits, input.budget);
    try {
      return await renderIn(context, input, remaining, watchdog);
    } catch (error) {
      // Whatever broke because the page was closed over a limit, the limit is the answer.
      if (watchdog.tripped) return verdictOnly(input.url, AttemptOutcome.failed, watchdog.tripped);
      throw error;
    } finally {
      watchdog.stop();
    }
  });
}

async function renderIn(
  context: BrowserContext,
  input: BrowserTierInput,
  remaining: () => number,
  watchdog: PageWatchdog,
): Promise<Fetched> {
  {
    if (input.stealth) await context.addInitScript(STEALTH_INIT_SCRIPT);
    const refused: string[] = [];
    // One resolution per host per job; the proxy still checks the address each connection dials.
    const resolved = new Map<string, Promise<unknown>>();
    await context.route('**/*', async (route) => {
      const request = route.request();
      if (!input.screenshot && HEAVY.has(request.resourceType())) return route.abort('blockedbyclient');
      try {
        const url = input.guard.checkUrl(request.url());
        let check = resolved.get(url.hostname);
        if (!check) resolved.set(url.hostname, (check = input.guard.resolve(url.hostname)));
        await check;
      } catch (error) {
        if (error instanceof UrlRefusedError && request.isNavigationRequest()) {
          refused.push(error.message);
          // A script sent the page somewhere refused: stop waiting for selectors on it.
          if (request.frame().parentFrame() === null)
            void request
              .frame()
              .page()
              .close()
              .catch(() => undefined);
        }
        return route.abort('blockedbyclient');
      }
      return route.continue();
    });
    const page = await context.newPage();
    await watchdog.watch(context, page);
    let main: Response | null = null;
    let lastDocumentUrl = input.url;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame())
        lastDocumentUrl = request.url();
    });
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) main = response;
    });

    try {
      main = await page.goto(input.url, { waitUntil: 'domcontentloaded', timeout: remaining() });
    } catch (error) {
      if (watchdog.tripped) return verdictOnly(input.url, AttemptOutcome.failed, watchdog.tripped);
      const refusal = refused[0] ?? (await refusalOf(input.guard, lastDocumentUrl));
      if (refusal) return verdictOnly(input.url, AttemptOutcome.refused, `refused: ${refusal}`);
      throw error;
    }
    if (main && (await main.headerValue(EGRESS_HEADER)) === 'refused') {
      const refusal =
        (await refusalOf(input.guard, lastDocumentUrl)) ?? 'a redirect leads to a refused address';
      return verdictOnly(input.url, AttemptOutcome.refused, `refused: ${refusal}`);
    }

    const refusedNow = () =>
      watchdog.tripped
        ? verdictOnly(input.url, AttemptOutcome.failed, watchdog.tripped)
        : refused[0]
          ? verdictOnly(input.url, AttemptOutcome.refused, `refused: ${refused[0]}`)
          : undefined;
    const settle = () =>
      page.waitForLoadState('load', { timeout: Math.min(5_000, remaining()) }).catch(() => undefined);
    if (!input.waitFor) await settle();
    // The DOM is read as few times as possible: each read is a round trip through the renderer.
    const challenge = await waitOutChallenge(page, () => main, Math.min(input.challengeWaitMs, remaining()));
    let html = challenge.navigated ? undefined : challenge.html;
    // A consent wall to accept, text that renders on scroll: do what a reader would, then read.
    const revealed = await revealContent(page, { remainingMs: remaining });
    if (revealed.consentClicked || revealed.scrollSteps > 0) html = undefined;

    if (input.waitFor) {
      try {
        await page.waitForSelector(input.waitFor, { state: 'attached', timeout: remaining() });
        html = undefined;
      } catch {
        const refusal = refusedNow();
        if (refusal) return refusal;
        const snapshot = await read(page, main);
        return {
          ...snapshot,
          verdict: {
            outcome: AttemptOutcome.selectorMissing,
            reason: `wait_for ${input.waitFor} did not appear`,
          },
        };
      }
    } else {
      if (challenge.navigated) await settle();
      html ??= await page.content();
      if (emptyPageReason(html)) {
        // A client-rendered page still fetching its data.
        await page
          .waitForLoadState('networkidle', { timeout: Math.min(3_000, remaining()) })
          .catch(() => undefined);
        html = undefined;
      }
    }
    const overLimit = await watchdog.check();
    const refusal = overLimit ? verdictOnly(input.url, AttemptOutcome.failed, overLimit) : refusedNow();
    if (refusal) return refusal;
    const snapshot = await read(page, main, html);
    if (Buffer.byteLength(snapshot.body) > input.limits.maxBytes)
      return verdictOnly(input.url, AttemptOutcome.failed, PageLimitReason.bytes);
    const cookies = (await context.cookies()) as StoredCookie[];
    const screenshot = input.screenshot
      ? await page.screenshot({ type: 'png', timeout: Math.max(1_000, remaining()) })
      : undefined;
    return {
      ...snapshot,
      cookies,
      selectorFound: input.waitFor !== undefined,
      ...(screenshot ? { screenshot } : {}),
    };
  }
}

/** The page as it is now (`html`: a snapshot already read since the DOM last changed). */
async function read(page: Page, main: Response | null, html?: string): Promise<Fetched> {
  const headers = main ? await main.allHeaders() : {};
  const contentType = headers['content-type'] ?? 'text/html';
  // A browser wraps JSON and text in an HTML viewer; the document itself is what was asked for.
  const body = /html|xml/i.test(contentType) || !main ? (html ?? (await page.content())) : await main.text();
  return { status: main?.status() ?? 200, headers, contentType, body, finalUrl: page.url(), cookies: [] };
}

/**
 * Challenge pages (Cloudflare's "Just a moment", JS cookie walls) clear themselves by running a
 * script and navigating; wait for that, re-checking after each navigation, within `waitMs`.
 * Returns the last DOM snapshot it read, and whether the page navigated meanwhile.
 */
async function waitOutChallenge(
  page: Page,
  main: () => Response | null,
  waitMs: number,
): Promise<{ html: string; navigated: boolean }> {
  const until = Date.now() + waitMs;
  let navigated = false;
  for (;;) {
    const response = main();
    const html = await page.content().catch(() => '');
    const verdict = detectBlock({
      status: response?.status() ?? 200,
      headers: response ? await response.allHeaders().catch(() => ({})) : {},
      contentType: 'text/html',
      body: html,
      rendered: false,
    });
    // Only challenges clear themselves; a captcha or a plain denial will not change by waiting.
    if (verdict.outcome !== AttemptOutcome.blocked || !/challenge/.test(verdict.reason))
      return { html, navigated };
    const left = until - Date.now();
    if (left <= 0) return { html, navigated };
    const moved = await page
      .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: left })
      .then(() => true)
      .catch(() => false);
    if (!moved) return { html, navigated };
    navigated = true;
    await page
      .waitForLoadState('domcontentloaded', { timeout: Math.max(1, until - Date.now()) })
      .catch(() => undefined);
  }
}

async function refusalOf(guard: EgressGuard, url: string): Promise<string | undefined> {
  try {
    await guard.checkTarget(url);
    return undefined;
  } catch (error) {
    return error instanceof UrlRefusedError ? error.message : undefined;
  }
}

function verdictOnly(url: string, outcome: AttemptOutcome, reason: string): Fetched {
  return {
    status: 0,
    headers: {},
    contentType: '',
    body: '',
    finalUrl: url,
    cookies: [],
    verdict: { outcome, reason },
  };
}
