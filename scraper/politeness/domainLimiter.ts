import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { luaCommand } from './luaCommand.ts';

export interface DomainLimits {
  /** Requests in flight to one domain at once, across every worker. */
  maxInFlight: number;
  /** Request starts per second to one domain (average). */
  perSecond: number;
  /** Starts allowed back to back before the rate applies. */
  burst: number;
  /** How long a request waits for a slot before it is answered 429. */
  maxWaitMs: number;
}

export type Slot = { granted: true; release: () => Promise<void> } | { granted: false; retryAfterS: number };

/**
 * Politeness towards targets, shared by every worker through Redis: per-domain concurrency and
 * rate, plus a cool-down set when a target answers 429, honoured by every later request until
 * its Retry-After has passed.
 */
export class DomainLimiter {
  readonly #redis: Redis;
  readonly #limits: DomainLimits;
  readonly #acquire: ReturnType<typeof luaCommand>;

  constructor(redis: Redis, limits: DomainLimits) {
    this.#redis = redis;
    this.#limits = limits;
    this.#acquire = luaCommand(redis, 'acquireDomainSlot', 2);
  }

  /**
   * A slot for one request to `domain`. `minIntervalMs` (robots.txt Crawl-delay) slows the domain
   * further: starts at least that far apart, no burst.
   */
  async acquire(domain: string, leaseMs: number, signal?: AbortSignal, minIntervalMs = 0): Promise<Slot> {
    const id = randomUUID();
    const leases = `scraper:domain:${domain}:leases`;
    const waitUntil = Date.now() + this.#limits.maxWaitMs;
    const interval = Math.max(1, Math.round(1000 / this.#limits.perSecond), Math.round(minIntervalMs));
    const burst = minIntervalMs > 0 ? 1 : this.#limits.burst;
    for (;;) {
      const now = Date.now();
      const [granted = 0, waitMs = 50] = await this.#acquire(
        [leases, `scraper:domain:${domain}:tat`],
        [now, id, leaseMs + 5_000, this.#limits.maxInFlight, interval, burst],
      );
      if (granted === 1) {
        return { granted: true, release: () => this.#redis.zrem(leases, id).then(() => undefined) };
      }
      if (now + waitMs > waitUntil || signal?.aborted) {
        return { granted: false, retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) };
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, 250)));
    }
  }

  /** Remember that the target asked us to back off. */
  async coolDown(domain: string, seconds: number): Promise<void> {
    await this.#redis.set(`scraper:domain:${domain}:cooldown`, String(seconds), 'EX', Math.max(1, seconds));
  }

  /** Seconds left of a target's back-off, or 0. */
  async coolingDown(domain: string): Promise<number> {
    const ms = await this.#redis.pttl(`scraper:domain:${domain}:cooldown`);
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }
}
