import type { Redis } from 'ioredis';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { asNumbers, luaScript } from '../../../core/stores/lua/luaScript.ts';

const HOUR_MS = 3_600_000;

/**
 * How many invoices a caller may create per hour, counted in Redis against both who the rate
 * limiter says the caller is and the client address, so a caller rotating its self-declared
 * identity still runs into the address's bound. Invoices are records kept for the refund window:
 * unbounded creation would be unbounded storage.
 */
export class InvoiceQuota {
  readonly #count: ReturnType<typeof luaScript>;
  readonly #perHour: number;

  constructor(redis: Redis, perHour: number) {
    // The same script, declared the same way, as the rate limiter on this connection.
    this.#count = luaScript(redis, 'rateLimit', 'variadic');
    this.#perHour = perHour;
  }

  /** Counts one invoice for each identity; a 429 when any is over the hour's bound. */
  async take(identities: readonly string[]): Promise<void> {
    const hour = Math.floor(Date.now() / HOUR_MS);
    const counts = await Promise.all(
      [...new Set(identities)].map(async (who) => {
        const [used = 0] = asNumbers(await this.#count([`x402:invoices:${who}:${hour}`], [HOUR_MS]));
        return used;
      }),
    );
    if (counts.some((used) => used > this.#perHour)) {
      const retryAfter = Math.ceil(((hour + 1) * HOUR_MS - Date.now()) / 1000);
      throw new VigilError('rate_limited', `At most ${this.#perHour} invoices an hour per caller.`, {
        headers: { 'retry-after': String(retryAfter) },
        extensions: { scope: 'invoices', retry_after_s: retryAfter },
      });
    }
  }
}
