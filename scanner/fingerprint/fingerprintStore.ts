import type { Db } from 'mongodb';
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
 * The latest bytecode fingerprint of every scanned EVM token with its verdict, one document per
 * token (`<chain>:<address>`). The scanner writes it with each scan; retrieval reads new ones
 * into its vector index for find_similar_tokens.
 */
export class TokenFingerprintStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async record(entry: Omit<TokenFingerprintRecord, 'stored_at'>): Promise<void> {
    const id = `${entry.chain}:${entry.address.toLowerCase()}`;
    await this.#db
      .collection<TokenFingerprintRecord & { _id: string }>(COLLECTION)
      .replaceOne({ _id: id }, { ...entry, stored_at: Date.now() }, { upsert: true });
  }

  /**
   * The latest scans of other tokens with the same normalised code (a clone up to constants,
   * names and selectors) whose verdict failed one of `gates`: the known-harmful twins of a token.
   */
  #indexed: Promise<unknown> | undefined;

  async harmfulTwins(
    codeHash: string,
    gates: readonly string[],
    exclude: { chain: string; address: string },
    limit = 5,
  ): Promise<TokenFingerprintRecord[]> {
    this.#indexed ??= this.#db
      .collection(COLLECTION)
      .createIndex({ 'fingerprint.code_hash': 1, stored_at: -1 })
      .catch(() => undefined);
    await this.#indexed;
    const docs = await this.#db
      .collection<TokenFingerprintRecord & { _id: string }>(COLLECTION)
      .find({
        'fingerprint.code_hash': codeHash,
        'verdict.gates': { $in: [...gates] },
        _id: { $ne: `${exclude.chain}:${exclude.address.toLowerCase()}` },
      })
      .sort({ stored_at: -1 })
      .limit(limit)
      .toArray();
    return docs.map(({ _id, ...doc }) => TokenFingerprintRecord.parse(doc));
  }

  /** Records written after `since` (ms), oldest first. */
  async since(since: number, limit: number): Promise<TokenFingerprintRecord[]> {
    const docs = await this.#db
      .collection<TokenFingerprintRecord & { _id: string }>(COLLECTION)
      .find({ stored_at: { $gt: since } })
      .sort({ stored_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map(({ _id, ...doc }) => TokenFingerprintRecord.parse(doc));
  }
}
