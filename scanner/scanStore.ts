import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { Binary, type Db, MongoServerError } from 'mongodb';
import type { Redis } from 'ioredis';
import { publishWord, type WordLost } from '../clients/jobWords.ts';
import { ScanResult } from './core/result.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A finished scan as stored: the result and the job that produced it. */
export interface StoredScan {
  job_id: string;
  result: ScanResult;
  stored_at: string;
}

/**
 * The permanent record of a scan: what an operator queries by (the token, the verdict, when)
 * as fields, and the whole result as gzipped JSON beside them. A result is ~30 KB of nested
 * checks and evidence; kept as one compressed value it costs the store about a sixth of the
 * bytes and, on the embedded stack's FerretDB, 2 ms of CPU instead of 13 per scan
 * (docs/benchmarks.md).
 * Records written before this (the result as a document, `result`) are still read.
 */
interface ScanDocument {
  _id: string;
  job_id: string;
  chain: string;
  address: string;
  stored_at: string;
  model_version?: string;
  risk_score?: number | null;
  tier?: string;
  gates?: string[];
  flags?: string[];
  token?: { name: string | null; symbol: string | null };
  /** gzip of the result's JSON. */
  result_gz?: Binary;
  /** Records from before result_gz: the result as a document. */
  result?: unknown;
}

const COLLECTION = 'scans';
const DUPLICATE_KEY = 11_000;

export interface ScanStoreOptions {
  db: Db;
  redis: Redis;
  /** How long the latest scan of a token answers repeated requests. */
  ttlSeconds: number;
  /** How long a job's result stays in Redis for status reads. */
  jobTtlSeconds?: number;
  /** Told when a job's word could not be published (the Redis user may not, say). */
  onWordLost?: WordLost;
}

/**
 * Scan results. MongoDB keeps every one, written once per job and read only as the record of
 * last resort; Redis holds the hot copies: the latest scan per token (so a repeated request runs
 * no workflow) and each job's result (so status reads touch neither MongoDB nor Temporal).
 * Keeping MongoDB off the read path also matters on the embedded stack: FerretDB v1 answers an
 * `_id` lookup by scanning the collection.
 */
export class ScanStore {
  readonly #db: Db;
  readonly #redis: Redis;
  readonly #ttlSeconds: number;
  readonly #jobTtlSeconds: number;
  readonly #onWordLost: WordLost | undefined;

  constructor(options: ScanStoreOptions) {
    this.#onWordLost = options.onWordLost;
    this.#db = options.db;
    this.#redis = options.redis;
    this.#ttlSeconds = options.ttlSeconds;
    this.#jobTtlSeconds = options.jobTtlSeconds ?? 3_600;
  }

  static cacheKey(chain: string, address: string): string {
    return `scan:v1:${chain}:${address}`;
  }

  static jobKey(jobId: string): string {
    return `scan:v1:job:${jobId}`;
  }

  /**
   * The Redis channel each stored job's id is published on, the moment its result is in the
   * job's Redis copy (before the permanent record and the workflow's completion): requests
   * waiting on the job read it at once (api/backend/scanCompletions.ts). ioredis does not prefix
   * channels, so the deployment's key prefix is added here.
   */
  static doneChannel(redis: Redis): string {
    return `${redis.options.keyPrefix ?? ''}scan:v1:done`;
  }

  async ensureIndexes(): Promise<void> {
    await this.#db.collection<ScanDocument>(COLLECTION).createIndex({ chain: 1, address: 1, stored_at: -1 });
  }

  /**
   * Stores a job's result once; a retried activity finds it stored and changes nothing. The Redis
   * copies, then the word that they are there (`doneChannel`, right behind them on the same
   * connection), go out beside the permanent record's write.
   */
  async save(jobId: string, result: ScanResult): Promise<StoredScan> {
    const stored: StoredScan = { job_id: jobId, result, stored_at: new Date().toISOString() };
    // The result serialised once (~30 KB): the Redis copies wrap it, the record compresses it.
    const resultJson = JSON.stringify(result);
    const json = `{"job_id":${JSON.stringify(jobId)},"result":${resultJson},"stored_at":${JSON.stringify(stored.stored_at)}}`;
    const copies = this.#redis.multi().set(ScanStore.jobKey(jobId), json, 'EX', this.#jobTtlSeconds);
    if (this.#ttlSeconds > 0)
      copies.set(ScanStore.cacheKey(result.chain, result.address), json, 'EX', this.#ttlSeconds);
    // The Redis copies and their word go out first; the record is compressed meanwhile.
    const copied = copies.exec().then((replies) => {
      const failed = replies?.find(([error]) => error)?.[0];
      if (failed) throw failed;
    });
    // The word goes on the same connection right behind the copies (so it never arrives before
    // them), outside their transaction: a deployment whose Redis user may not publish loses only
    // the early word, never the copies.
    publishWord(this.#redis, ScanStore.doneChannel(this.#redis), jobId, this.#onWordLost);
    const record: Omit<ScanDocument, 'result_gz'> = {
      _id: jobId,
      job_id: jobId,
      chain: result.chain,
      address: result.address,
      stored_at: stored.stored_at,
      model_version: result.model_version,
      risk_score: result.risk_score,
      tier: result.tier,
      gates: result.gates,
      flags: result.flags.map((flag) => flag.id),
      token: { name: result.token.name, symbol: result.token.symbol },
    };
    await Promise.all([
      gzipAsync(resultJson).then((packed) =>
        this.#db
          .collection<ScanDocument>(COLLECTION)
          .insertOne({ ...record, result_gz: new Binary(packed) })
          .catch((error: unknown) => {
            if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
          }),
      ),
      copied,
    ]);
    return stored;
  }

  /** The cached latest scan of a token, or undefined (also when Redis is unreachable). */
  cached(chain: string, address: string): Promise<StoredScan | undefined> {
    return this.#fromRedis(ScanStore.cacheKey(chain, address));
  }

  /** A job's result from the Redis copy, or undefined. */
  cachedJob(jobId: string): Promise<StoredScan | undefined> {
    return this.#fromRedis(ScanStore.jobKey(jobId));
  }

  /** A job's result from the permanent record. */
  async byJobId(jobId: string): Promise<StoredScan | undefined> {
    const doc = await this.#db.collection<ScanDocument>(COLLECTION).findOne({ _id: jobId });
    if (!doc) return undefined;
    const result = doc.result_gz
      ? (JSON.parse((await gunzipAsync(doc.result_gz.value())).toString('utf8')) as unknown)
      : doc.result;
    return { job_id: doc.job_id, result: ScanResult.parse(result), stored_at: doc.stored_at };
  }

  /**
   * The tokens scanned lately, with the name and symbol their latest scan read: what news items
   * are linked to. Newest first, one entry per token.
   */
  async knownTokens(
    limit = 5_000,
  ): Promise<{ chain: string; address: string; name: string | null; symbol: string | null }[]> {
    const docs = await this.#db
      .collection<ScanDocument>(COLLECTION)
      .find(
        {},
        {
          projection: {
            chain: 1,
            address: 1,
            'token.name': 1,
            'token.symbol': 1,
            'result.token.name': 1,
            'result.token.symbol': 1,
          },
        },
      )
      .sort({ stored_at: -1 })
      .limit(limit * 4)
      .toArray();
    const tokens = new Map<
      string,
      { chain: string; address: string; name: string | null; symbol: string | null }
    >();
    for (const doc of docs) {
      const key = `${doc.chain}|${doc.address}`;
      if (tokens.has(key)) continue;
      const token =
        doc.token ?? (doc.result as { token?: { name?: unknown; symbol?: unknown } } | undefined)?.token;
      tokens.set(key, {
        chain: doc.chain,
        address: doc.address,
        name: typeof token?.name === 'string' ? token.name : null,
        symbol: typeof token?.symbol === 'string' ? token.symbol : null,
      });
      if (tokens.size >= limit) break;
    }
    return [...tokens.values()];
  }

  async #fromRedis(key: string): Promise<StoredScan | undefined> {
    let raw: string | null;
    try {
      raw = await this.#redis.get(key);
    } catch {
      return undefined;
    }
    return raw === null ? undefined : parseStored(raw);
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
