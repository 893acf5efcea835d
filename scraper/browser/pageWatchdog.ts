import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/** What one browser page may take. */
export interface PageLimits {
  /** Bytes the targets may send for the page in all; also the size of the DOM read back. */
  maxBytes: number;
  maxDomNodes: number;
  /** Bytes of JavaScript heap in use (the renderer's hard V8 limit is set at launch). */
  maxHeapBytes: number;
}

/** Why a page was stopped; stable snake_case, shown as the attempt's reason. */
export const PageLimitReason = {
  bytes: 'page_too_large',
  dom: 'dom_too_large',
  memory: 'page_memory_exceeded',
} as const;
export type PageLimitReason = (typeof PageLimitReason)[keyof typeof PageLimitReason];

const POLL_MS = 250;

/**
 * Watches one page against its limits: the job proxy's byte budget, the DOM node count and the
 * JavaScript heap (read over the DevTools protocol every 250 ms and once more before the page is
 * read), and the renderer crashing (which is how V8's hard heap limit ends a page). A page over a
 * limit is closed at once, so whatever waits on it stops, and the tier answers `failed` with the
 * reason instead of content.
 */
export class PageWatchdog {
  readonly #limits: PageLimits;
  readonly #budget: { readonly exceeded: boolean } | undefined;
  #reason: PageLimitReason | undefined;
  #page: Page | undefined;
  #cdp: CDPSession | undefined;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;

  constructor(limits: PageLimits, budget?: { readonly exceeded: boolean }) {
    this.#limits = limits;
    this.#budget = budget;
  }

  /** The limit the page went over, if any. */
  get tripped(): PageLimitReason | undefined {
    if (!this.#reason && this.#budget?.exceeded) this.#trip(PageLimitReason.bytes);
    return this.#reason;
  }

  async watch(context: BrowserContext, page: Page): Promise<void> {
    this.#page = page;
    page.on('crash', () => this.#trip(PageLimitReason.memory));
    this.#cdp = await context.newCDPSession(page);
    this.#timer = setInterval(() => void this.#poll(), POLL_MS);
    this.#timer.unref();
  }

  /** Reads the page's counters now; the limit it is over, if any. */
  async check(): Promise<PageLimitReason | undefined> {
    await this.#poll(true);
    return this.tripped;
  }

  stop(): void {
    clearInterval(this.#timer);
    void this.#cdp?.detach().catch(() => undefined);
  }

  async #poll(force = false): Promise<void> {
    const cdp = this.#cdp;
    if (!cdp || this.tripped || (this.#polling && !force)) return;
    this.#polling = true;
    try {
      const [dom, heap] = await Promise.all([
        cdp.send('Memory.getDOMCounters'),
        cdp.send('Runtime.getHeapUsage'),
      ]);
      if (dom.nodes > this.#limits.maxDomNodes) this.#trip(PageLimitReason.dom);
      else if (heap.usedSize > this.#limits.maxHeapBytes) this.#trip(PageLimitReason.memory);
    } catch {
      // The page closed or crashed meanwhile: the crash handler or the tier says what happened.
    } finally {
      this.#polling = false;
    }
  }

  #trip(reason: PageLimitReason): void {
    if (this.#reason) return;
    this.#reason = reason;
    clearInterval(this.#timer);
    void this.#page?.close().catch(() => undefined);
  }
}
