import type { Redis } from 'ioredis';
import { applyRun, emptyRecord, type RecordedRun, StrategyRecord } from './record.ts';

/** How long a job's "recorded" mark is kept: well past any scrape's deadline and its retries. */
const RUN_MARK_TTL_SECONDS = 3_600;

/**
 * Per-domain strategy records in Redis, one small JSON value per domain, expiring after
 * `ttlSeconds` without a request. Two workers updating one domain at once: the later write wins,
 * which costs at most one observation of a heuristic.
 */
export class StrategyStore {
  readonly #redis: Redis;
  readonly #ttlSeconds: number;
  readonly #halfLifeMs: number;

  constructor(redis: Redis, options: { ttlSeconds: number; halfLifeMs: number }) {
    this.#redis = redis;
    this.#ttlSeconds = options.ttlSeconds;
    this.#halfLifeMs = options.halfLifeMs;
  }

  #key(domain: string): string {
    return `scraper:strategy:${domain}`;
  }

  async get(domain: string): Promise<StrategyRecord | null> {
    const raw = await this.#redis.get(this.#key(domain));
    if (!raw) return null;
    const parsed = StrategyRecord.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  }

  /**
   * Adds a run's attempts to the domain's record. With `jobId`, once per job: the tier that got
   * a page records before it tells the waiting request, and the workflow's own record after it
   * then finds the job's mark and changes nothing.
   */
  async record(domain: string, run: RecordedRun, now = Date.now(), jobId?: string): Promise<StrategyRecord> {
    if (jobId) {
      const first = await this.#redis.set(
        `scraper:strategy:run:${jobId}`,
        '1',
        'EX',
        RUN_MARK_TTL_SECONDS,
        'NX',
      );
      if (first === null) return (await this.get(domain)) ?? emptyRecord(domain, now);
    }
    const current = (await this.get(domain)) ?? emptyRecord(domain, now);
    const next = applyRun(current, run, now, this.#halfLifeMs);
    await this.#redis.set(this.#key(domain), JSON.stringify(next), 'EX', this.#ttlSeconds);
    return next;
  }
}
