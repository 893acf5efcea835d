import type { Redis } from 'ioredis';
import { luaCommand } from './luaCommand.ts';

export type CallerVerdict =
  { allowed: true; remaining: number; resetS: number } | { allowed: false; retryAfterS: number };

/** Requests per minute per caller (fixed windows in Redis, shared by every API replica). */
export class CallerLimiter {
  readonly #count: ReturnType<typeof luaCommand>;
  readonly #perMinute: number;

  constructor(redis: Redis, perMinute: number) {
    this.#count = luaCommand(redis, 'countCaller', 1);
    this.#perMinute = perMinute;
  }

  get perMinute(): number {
    return this.#perMinute;
  }

  async check(callerId: string, now = Date.now()): Promise<CallerVerdict> {
    const window = Math.floor(now / 60_000);
    const [count = 0, ttlMs = 60_000] = await this.#count([`scraper:caller:${callerId}:${window}`], [60_000]);
    const resetS = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : 60_000) / 1000));
    if (count > this.#perMinute) return { allowed: false, retryAfterS: resetS };
    return { allowed: true, remaining: this.#perMinute - count, resetS };
  }
}
