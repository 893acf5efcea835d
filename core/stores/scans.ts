import type { Db } from 'mongodb';
import type { Redis } from 'ioredis';
import { ScanResult } from '../scan/result.ts';

/** A finished scan as stored: the result and the job that produced it. */
export interface StoredScan {
  job_id: string;
  result: ScanResult;
  stored_at: string;
}

interface ScanDocument extends StoredScan {
  _id: string;
  chain: string;
  address: string;
}

const COLLECTION = 'scans';

/**
 * Scan results: MongoDB keeps every one (by job id); Redis caches the latest per token for a TTL,
 * so a repeated request answers without running a workflow.
 */
export class ScanStore {
  readonly #db: Db;
  readonly #redis: Redis;
  readonly #ttlSeconds: number;

  constructor(deps: { db: Db; redis: Redis; ttlSeconds: number }) {
    this.#db = deps.db;
    this.#redis = deps.redis;
    this.#ttlSeconds = deps.ttlSeconds;
  }

  static cacheKey(chain: string, address: string): string {
    return `scan:v1:${chain}:${address}`;
  }

  async ensureIndexes(): Promise<void> {
    await this.#db.collection<ScanDocument>(COLLECTION).createIndex({ chain: 1, address: 1, stored_at: -1 });
  }

  /** Stores a result (idempotent per job: activity retries rewrite the same document). */
  async save(jobId: string, result: ScanResult): Promise<StoredScan> {
    const stored: StoredScan = { job_id: jobId, result, stored_at: new Date().toISOString() };
    await this.#db
      .collection<ScanDocument>(COLLECTION)
      .replaceOne(
        { _id: jobId },
        { chain: result.chain, address: result.address, ...stored },
        { upsert: true },
      );
    if (this.#ttlSeconds > 0) {
      await this.#redis.set(
        ScanStore.cacheKey(result.chain, result.address),
        JSON.stringify(stored),
        'EX',
        this.#ttlSeconds,
      );
    }
    return stored;
  }

  /** The cached latest scan of a token, or undefined (also when Redis is unreachable). */
  async cached(chain: string, address: string): Promise<StoredScan | undefined> {
    let raw: string | null;
    try {
      raw = await this.#redis.get(ScanStore.cacheKey(chain, address));
    } catch {
      return undefined;
    }
    if (raw === null) return undefined;
    return parseStored(raw);
  }

  async byJobId(jobId: string): Promise<StoredScan | undefined> {
    const doc = await this.#db.collection<ScanDocument>(COLLECTION).findOne({ _id: jobId });
    if (!doc) return undefined;
    return { job_id: doc.job_id, result: ScanResult.parse(doc.result), stored_at: doc.stored_at };
  }
}

function parseStored(raw: string): StoredScan | undefined {
  try {
    const value = JSON.parse(raw) as { job_id?: unknown; result?: unknown; stored_at?: unknown };
    if (typeof value.job_id !== 'string' || typeof value.stored_at !== 'string') return undefined;
    return { job_id: value.job_id, stored_at: value.stored_at, result: ScanResult.parse(value.result) };
  } catch {
    // A malformed cache entry is a miss, never an error for the caller.
    return undefined;
  }
}
