import type { Redis } from 'ioredis';
import robotsParserModule from 'robots-parser';
import type { Dispatcher } from 'undici';
import { fetchPage } from './http/fetchPage.ts';
import { PLAIN_USER_AGENT, plainHeaders } from './http/headers.ts';
import type { EgressGuard } from './ssrf/guard.ts';

export const ROBOTS_PRODUCT_TOKEN = 'VigilScraper';
const CACHE_SECONDS = 24 * 3_600;
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
    const robotsUrl = `${url.origin}/robots.txt`;
    const key = `scraper:robots:${url.origin}`;
    let cached = await this.#redis.get(key);
    if (cached === null) {
      cached = JSON.stringify(await this.#fetch(robotsUrl, signal));
      await this.#redis.set(key, cached, 'EX', CACHE_SECONDS);
    }
    const entry = JSON.parse(cached) as { status: number; body: string };
    if (entry.status >= 500 || entry.status === 0)
      return { allowed: false, reason: 'robots.txt is unreachable (RFC 9309: assume disallowed)' };
    if (entry.status >= 400) return { allowed: true };
    const robots = robotsParser(robotsUrl, entry.body);
    const allowed =
      robots.isAllowed(url.href, ROBOTS_PRODUCT_TOKEN) ?? robots.isAllowed(url.href, PLAIN_USER_AGENT);
    return allowed === false
      ? { allowed: false, reason: `robots.txt disallows ${url.pathname}` }
      : { allowed: true };
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
