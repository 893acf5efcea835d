import type { Redis } from 'ioredis';
import { Binary, type Db } from 'mongodb';
import { z } from 'zod';
import { BytecodeFingerprint } from './bytecodeFingerprint.ts';

/** What a scan concluded about a token, kept beside its fingerprint as the "known verdict". */
export const FingerprintVerdict = z.object({
  risk_score: z.number().nullable(),
  tier: z.string(),
  flags: z.array(z.string()),
  gates: z.array(z.string()),
  scanned_at: z.string(),
  job_id: z.string(),
});
export type FingerprintVerdict = z.infer<typeof FingerprintVerdict>;

export const TokenFingerprintRecord = z.object({
  chain: z.string(),
  address: z.string(),
  block_number: z.string(),
  fingerprint: BytecodeFingerprint,
  verdict: FingerprintVerdict,
  /** Monotonic per write; readers sync by it. */
  stored_at: z.number(),
});
export type TokenFingerprintRecord = z.infer<typeof TokenFingerprintRecord>;

const COLLECTION = 'token_fingerprints';

/**
 * A record as MongoDB keeps it: the fingerprint's 128 minima and 256 weights packed into two
 * little-endian binaries (uint32, float64: nothing rounded) instead of 384 array elements. On the
 * embedded stack's FerretDB the write cost 21 ms of CPU per scan as arrays and 6 ms packed
 * (docs/benchmarks.md). Records written as arrays before this are read as they are.
 */
type StoredRecord = Omit<TokenFingerprintRecord, 'fingerprint'> & {
  _id: string;
  fingerprint: Omit<BytecodeFingerprint, 'minhash' | 'vector'> & {
    minhash: Binary | number[];
    vector: Binary | number[];
  };
};

function pack(record: TokenFingerprintRecord): Omit<StoredRecord, '_id'> {
  const { minhash, vector } = record.fingerprint;
  const minima = Buffer.alloc(minhash.length * 4);
  minhash.forEach((value, i) => minima.writeUInt32LE(value, i * 4));
  const weights = Buffer.alloc(vector.length * 8);
  vector.forEach((value, i) => weights.writeDoubleLE(value, i * 8));
  return {
    ...record,
    fingerprint: { ...record.fingerprint, minhash: new Binary(minima), vector: new Binary(weights) },
  };
}

function unpack({ _id, ...doc }: StoredRecord): TokenFingerprintRecord {
  const { minhash, vector } = doc.fingerprint;
  const numbers = (value: Binary | number[], width: 4 | 8) => {
    if (Array.isArray(value)) return value;
    const bytes = Buffer.from(value.value());
    return Array.from({ length: bytes.length / width }, (_, i) =>
      width === 4 ? bytes.readUInt32LE(i * 4) : bytes.readDoubleLE(i * 8),
    );
  };
  return TokenFingerprintRecord.parse({
    ...doc,
    fingerprint: { ...doc.fingerprint, minhash: numbers(minhash, 4), vector: numbers(vector, 8) },
  });
}

/** A token found harmful, as listed under its code hash. */
export const HarmfulTwinRecord = z.object({
  chain: z.string(),
  address: z.string(),
  gates: z.array(z.string()),
  flags: z.array(z.string()),
  scanned_at: z.string(),
  job_id: z.string(),
});
export type HarmfulTwinRecord = z.infer<typeof HarmfulTwinRecord>;

const tokenId = (chain: string, address: string) => `${chain}:${address.toLowerCase()}`;
const harmfulKey = (codeHash: string) => `fingerprint:harmful:${codeHash}`;

/**
 * The latest bytecode fingerprint of every scanned EVM token with its verdict, one document per
 * token (`<chain>:<address>`). The scanner writes it with each scan; retrieval reads new ones
 * into its vector index for find_similar_tokens.
 */
export class TokenFingerprintStore {
  readonly #db: Db;
  readonly #redis: Redis;

  constructor(db: Db, redis: Redis) {
    this.#db = db;
    this.#redis = redis;
  }

  /**
   * Keeps a scan's fingerprint and verdict; `harmful` (the scan demonstrated a power over holders)
   * also lists the token under its code hash for clone evidence, and a harmless rescan unlists it.
   */
  async record(entry: Omit<TokenFingerprintRecord, 'stored_at'>, harmful = false): Promise<void> {
    const id = tokenId(entry.chain, entry.address);
    await this.#db
      .collection<StoredRecord>(COLLECTION)
      .replaceOne({ _id: id }, pack({ ...entry, stored_at: Date.now() }), { upsert: true });
    const key = harmfulKey(entry.fingerprint.code_hash);
    if (!harmful) {
      await this.#redis.hdel(key, id);
      return;
    }
    const twin: HarmfulTwinRecord = {
      chain: entry.chain,
      address: entry.address,
      gates: entry.verdict.gates,
      flags: entry.verdict.flags,
      scanned_at: entry.verdict.scanned_at,
      job_id: entry.verdict.job_id,
    };
    await this.#redis.hset(key, id, JSON.stringify(twin));
  }

  /**
   * The latest scans of other tokens with the same normalised code (a clone up to constants,
   * names and selectors) whose verdict was harmful: the known-harmful twins of a token. Read
   * from a Redis hash per code hash, kept by record(), so a scan pays one round trip for it.
   */
  async harmfulTwins(
    codeHash: string,
    exclude: { chain: string; address: string },
    limit = 5,
  ): Promise<HarmfulTwinRecord[]> {
    const entries = await this.#redis.hgetall(harmfulKey(codeHash));
    const self = tokenId(exclude.chain, exclude.address);
    return Object.entries(entries)
      .filter(([token]) => token !== self)
      .flatMap(([, value]) => {
        const parsed = HarmfulTwinRecord.safeParse(JSON.parse(value));
        return parsed.success ? [parsed.data] : [];
      })
      .sort((a, b) => b.scanned_at.localeCompare(a.scanned_at))
      .slice(0, limit);
  }

  /** Records written after `since` (ms), oldest first. */
  async since(since: number, limit: number): Promise<TokenFingerprintRecord[]> {
    const docs = await this.#db
      .collection<StoredRecord>(COLLECTION)
      .find({ stored_at: { $gt: since } })
      .sort({ stored_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(unpack);
  }
}
