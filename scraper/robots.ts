import type { Redis } from 'ioredis';
import robotsParserModule from 'robots-parser';
import type { Dispatcher } from 'undici';
import { fetchPage } from './http/fetchPage.ts';
import { PLAIN_USER_AGENT, plainHeaders } from './http/headers.ts';
import type { EgressGuard } from './ssrf/guard.ts';

const ROBOTS_PRODUCT_TOKEN = 'VigilScraper';
const CACHE_SECONDS = 24 * 3_600;
/** A Crawl-delay beyond this is read as this: a request then waits or is answered 429 with the wait. */
const MAX_CRAWL_DELAY_SECONDS = 60;
// A CommonJS module whose typings declare an ES default export: the default import is the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export type RobotsVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * robots.txt, when the deployment respects it (SCRAPER_RESPECT_ROBOTS): fetched through the
 * same egress guard, cached a day per origin in Redis, read with RFC 9309 semantics — a missing
 * file (4xx) allows everything, an unreachable one (5xx, network error) disallows everything.
 */
export class RobotsPolicy {
  readonly #redis: Redis;
  readonly #guard: EgressGuard;
  readonly #dispatcher: Dispatcher;

  constructor(options: { redis: Redis; guard: EgressGuard; dispatcher: Dispatcher }) {
    this.#redis = options.redis;
    this.#guard = options.guard;
    this.#dispatcher = options.dispatcher;
  }

  async check(url: URL, signal: AbortSignal): Promise<RobotsVerdict> {
    const entry = await this.#entry(url, signal);
    if (entry.status >= 500 || entry.status === 0)
      return { allowed: false, reason: 'robots.txt is unreachable (RFC 9309: assume disallowed)' };
    if (entry.status >= 400) return { allowed: true };
    const robots = robotsParser(entry.robotsUrl, entry.body);
    const allowed =
      robots.isAllowed(url.href, ROBOTS_PRODUCT_TOKEN) ?? robots.isAllowed(url.href, PLAIN_USER_AGENT);
    return allowed === false
      ? { allowed: false, reason: `robots.txt disallows ${url.pathname}` }
      : { allowed: true };
  }

  /**
   * The site's Crawl-delay for this scraper (its own group, else `*`), in seconds, at most
   * MAX_CRAWL_DELAY_SECONDS; 0 when it sets none. Read from the same cached copy as `check`.
   */
  async crawlDelaySeconds(url: URL, signal: AbortSignal): Promise<number> {
    const entry = await this.#entry(url, signal);
    if (entry.status !== 200 && !(entry.status > 200 && entry.status < 300)) return 0;
    const robots = robotsParser(entry.robotsUrl, entry.body);
    const delay = robots.getCrawlDelay(ROBOTS_PRODUCT_TOKEN) ?? robots.getCrawlDelay(PLAIN_USER_AGENT);
    return typeof delay === 'number' && Number.isFinite(delay) && delay > 0
      ? Math.min(delay, MAX_CRAWL_DELAY_SECONDS)
      : 0;
  }

  async #entry(url: URL, signal: AbortSignal): Promise<{ status: number; body: string; robotsUrl: string }> {
    const robotsUrl = `${url.origin}/robots.txt`;
    const key = `scraper:robots:${url.origin}`;
    let cached = await this.#redis.get(key);
    if (cached === null) {
      cached = JSON.stringify(await this.#fetch(robotsUrl, signal));
      await this.#redis.set(key, cached, 'EX', CACHE_SECONDS);
    }
    return { ...(JSON.parse(cached) as { status: number; body: string }), robotsUrl };
  }

  async #fetch(robotsUrl: string, signal: AbortSignal): Promise<{ status: number; body: string }> {
    try {
      const page = await fetchPage({
        url: robotsUrl,
        headers: plainHeaders(),
        dispatcher: this.#dispatcher,
        guard: this.#guard,
        signal: AbortSignal.any([signal, AbortSignal.timeout(5_000)]),
        maxBytes: 512 * 1024,
        maxRedirects: 5,
      });
      return { status: page.status, body: page.body };
    } catch {
      return { status: 0, body: '' };
    }
  }
}
