import * as lancedb from '@lancedb/lancedb';
import { Bool, Field, FixedSizeList, Float32, Float64, Schema, Utf8 } from 'apache-arrow';
import type {
  FingerprintVerdict,
  TokenFingerprintRecord,
} from '../../scanner/fingerprint/fingerprintStore.ts';
import {
  type BytecodeFingerprint,
  fingerprintSimilarity,
  VECTOR_SIZE,
} from '../../scanner/fingerprint/bytecodeFingerprint.ts';
import { sqlString, whereAll } from '../store/sql.ts';

const TABLE = 'token_fingerprints';
/** From this MinHash similarity on, a token counts as a near-clone. */
const NEAR_CLONE_SIMILARITY = 0.8;
/** Candidates the vector index hands to MinHash for the exact ranking. */
const CANDIDATES = 200;

export interface SimilarToken {
  chain: string;
  address: string;
  similarity: number;
  selector_overlap: number | null;
  identical_code: boolean;
  near_clone: boolean;
  /** The verdict of that token's latest scan; `harmful` when it was high or critical, or gated. */
  known_verdict: FingerprintVerdict & { harmful: boolean };
}

export interface SimilarQuery {
  fingerprint: BytecodeFingerprint;
  /** The token asked about: left out of its own answer. */
  chain: string;
  address: string;
  topK: number;
  /** Search every chain (default) or only the token's own. */
  crossChain: boolean;
}

function isHarmful(verdict: FingerprintVerdict): boolean {
  return verdict.tier === 'high' || verdict.tier === 'critical' || verdict.gates.length > 0;
}

const schema = new Schema([
  new Field('id', new Utf8(), false),
  new Field('chain', new Utf8(), false),
  new Field('address', new Utf8(), false),
  new Field('code_hash', new Utf8(), false),
  new Field('fingerprint', new Utf8(), false),
  new Field('verdict', new Utf8(), false),
  new Field('harmful', new Bool(), false),
  new Field('stored_at', new Float64(), false),
  new Field('vector', new FixedSizeList(VECTOR_SIZE, new Field('item', new Float32(), true)), false),
]);

/**
 * Tokens by code similarity: every scanned token's fingerprint in a vector index (cosine over the
 * hashed shingle vector finds candidates), ranked by the MinHash estimate, near-clones of known
 * harmful tokens first. Filled from the scans' fingerprint records by `upsert`.
 */
export class SimilarTokenIndex {
  readonly #db: lancedb.Connection;
  #table: lancedb.Table | undefined;

  private constructor(db: lancedb.Connection) {
    this.#db = db;
  }

  /**
   * `readConsistencySeconds`: how stale a read may be of what other processes wrote (the ingest
   * workers write, the service reads); 0 checks for a newer version on every read.
   */
  static async open(uri: string, readConsistencySeconds = 0): Promise<SimilarTokenIndex> {
    return new SimilarTokenIndex(
      await lancedb.connect(uri, { readConsistencyInterval: readConsistencySeconds }),
    );
  }

  async #open(create: boolean): Promise<lancedb.Table | undefined> {
    if (this.#table) return this.#table;
    if ((await this.#db.tableNames()).includes(TABLE)) this.#table = await this.#db.openTable(TABLE);
    else if (create) this.#table = await this.#db.createEmptyTable(TABLE, schema, { existOk: true });
    return this.#table;
  }

  async upsert(records: readonly TokenFingerprintRecord[]): Promise<void> {
    if (records.length === 0) return;
    const table = await this.#open(true);
    await table
      ?.mergeInsert('id')
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute(
        records.map((record) => ({
          id: `${record.chain}:${record.address.toLowerCase()}`,
          chain: record.chain,
          address: record.address,
          code_hash: record.fingerprint.code_hash,
          fingerprint: JSON.stringify(record.fingerprint),
          verdict: JSON.stringify(record.verdict),
          harmful: isHarmful(record.verdict),
          stored_at: record.stored_at,
          vector: record.fingerprint.vector,
        })),
      );
  }

  async count(): Promise<number> {
    const table = await this.#open(false);
    return table ? table.countRows() : 0;
  }

  async similar(query: SimilarQuery): Promise<SimilarToken[]> {
    const table = await this.#open(false);
    if (!table) return [];
    const self = `${query.chain}:${query.address.toLowerCase()}`;
    const where = whereAll([
      `id != ${sqlString(self)}`,
      query.crossChain ? undefined : `chain = ${sqlString(query.chain)}`,
    ]);
    let search = table
      .vectorSearch(query.fingerprint.vector)
      .distanceType('cosine')
      .select(['chain', 'address', 'fingerprint', 'verdict', 'harmful', '_distance'])
      .limit(Math.max(CANDIDATES, query.topK));
    if (where) search = search.where(where);
    const candidates = await search.toArray();
    const ranked = candidates.map((record: { [key: string]: unknown }) => {
      const fingerprint = JSON.parse(String(record.fingerprint)) as BytecodeFingerprint;
      const verdict = JSON.parse(String(record.verdict)) as FingerprintVerdict;
      const similarity = fingerprintSimilarity(query.fingerprint, fingerprint);
      return {
        chain: String(record.chain),
        address: String(record.address),
        ...similarity,
        near_clone: similarity.identical_code || similarity.similarity >= NEAR_CLONE_SIMILARITY,
        known_verdict: { ...verdict, harmful: Boolean(record.harmful) },
      } satisfies SimilarToken;
    });
    // Near-clones of harmful tokens are the evidence a caller is after: they come first.
    const rank = (token: SimilarToken) => (token.near_clone && token.known_verdict.harmful ? 1 : 0);
    return ranked.sort((a, b) => rank(b) - rank(a) || b.similarity - a.similarity).slice(0, query.topK);
  }

  close(): void {
    this.#table?.close();
    this.#db.close();
  }
}
