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
    const mark = jobId ? `scraper:strategy:run:${jobId}` : undefined;
    const [marked, stored] = await Promise.all([mark ? this.#redis.exists(mark) : 0, this.get(domain)]);
    const current = stored ?? emptyRecord(domain, now);
    if (marked) return current;
    const next = applyRun(current, run, now, this.#halfLifeMs);
    // The mark only with the record: a failure before both costs nothing, and a retry records then.
    const write = this.#redis.multi().set(this.#key(domain), JSON.stringify(next), 'EX', this.#ttlSeconds);
    if (mark) write.set(mark, '1', 'EX', RUN_MARK_TTL_SECONDS);
    const replies = await write.exec();
    const failed = replies?.find(([error]) => error)?.[0];
    if (failed) throw failed;
    return next;
  }
}
