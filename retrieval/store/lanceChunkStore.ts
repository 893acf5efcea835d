import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import type {
  ChunkFilters,
  ChunkRow,
  ChunkStore,
  CommitOutcome,
  DocumentVersion,
  ScoredChunk,
} from './chunkStore.ts';
import { sqlString, whereAll } from './sql.ts';

const CHUNKS = 'chunks';
const STAGED = 'staged_chunks';
const TEXT_INDEX = 'text_idx';
const VECTOR_INDEX = 'vector_idx';
/**
 * Below this many chunks an exact (flat) vector scan is fast enough and exact; from it on, an
 * HNSW graph (with scalar-quantised vectors) answers. Flat, vector queries took 25.8 ms p50 at
 * 20,000 chunks on the benchmark machine, growing with the table; with the graph, 14.5 ms at
 * 100,000 (docs/benchmarks.md).
 */
export const VECTOR_INDEX_MIN_ROWS = 20_000;
/** Past this many chunks written since the last index update, the next commit folds them in. */
const UNINDEXED_LIMIT = 2_000;

const COLUMNS = [
  'id',
  'doc_id',
  'version',
  'received_at',
  'chunk_index',
  'text',
  'headings',
  'path',
  'start_line',
  'end_line',
  'ecosystem',
  'category',
] as const;

function chunkSchema(dimensions: number, staged: boolean): Schema {
  return new Schema([
    ...(staged ? [new Field('job_id', new Utf8(), false)] : []),
    new Field('id', new Utf8(), false),
    new Field('doc_id', new Utf8(), false),
    new Field('version', new Utf8(), false),
    new Field('received_at', new Float64(), false),
    new Field('chunk_index', new Int32(), false),
    new Field('text', new Utf8(), false),
    new Field('headings', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('start_line', new Int32(), false),
    new Field('end_line', new Int32(), false),
    new Field('ecosystem', new Utf8(), false),
    new Field('category', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

type Record = { [key: string]: unknown };

function toRecord(row: ChunkRow, jobId?: string): Record {
  return { ...(jobId ? { job_id: jobId } : {}), ...row, vector: Array.from(row.vector) };
}

function filterSql(filters: ChunkFilters): string | undefined {
  return whereAll([
    filters.ecosystem === undefined ? undefined : `ecosystem = ${sqlString(filters.ecosystem)}`,
    filters.category === undefined ? undefined : `category = ${sqlString(filters.category)}`,
  ]);
}

function rowOf(record: Record): Omit<ChunkRow, 'vector'> {
  return {
    id: String(record.id),
    doc_id: String(record.doc_id),
    version: String(record.version),
    received_at: Number(record.received_at),
    chunk_index: Number(record.chunk_index),
    text: String(record.text),
    headings: String(record.headings),
    path: String(record.path),
    start_line: Number(record.start_line),
    end_line: Number(record.end_line),
    ecosystem: String(record.ecosystem),
    category: String(record.category),
  };
}

/**
 * The embedded index: LanceDB tables in a folder (or on object storage). Every write is one
 * Lance commit, which is atomic: a commit swaps a document's rows with one merge-insert that also
 * deletes the rows of its old version.
 */
export class LanceChunkStore implements ChunkStore {
  readonly #db: lancedb.Connection;
  readonly #tables = new Map<string, lancedb.Table>();

  private constructor(db: lancedb.Connection) {
    this.#db = db;
  }

  /**
   * `readConsistencySeconds`: how stale a read may be of what other processes wrote (the ingest
   * workers write, the service reads); 0 checks for a newer version on every read.
   */
  static async open(uri: string, readConsistencySeconds = 0): Promise<LanceChunkStore> {
    return new LanceChunkStore(
      await lancedb.connect(uri, { readConsistencyInterval: readConsistencySeconds }),
    );
  }

  async #table(name: string): Promise<lancedb.Table | undefined> {
    const cached = this.#tables.get(name);
    if (cached) return cached;
    if (!(await this.#db.tableNames()).includes(name)) return undefined;
    const table = await this.#db.openTable(name);
    this.#tables.set(name, table);
    return table;
  }

  async #tableFor(name: string, dimensions: number, staged: boolean): Promise<lancedb.Table> {
    const existing = await this.#table(name);
    if (existing) return existing;
    const table = await this.#db.createEmptyTable(name, chunkSchema(dimensions, staged), { existOk: true });
    this.#tables.set(name, table);
    return table;
  }

  async currentVersion(docId: string): Promise<DocumentVersion | undefined> {
    const chunks = await this.#table(CHUNKS);
    if (!chunks) return undefined;
    const where = `doc_id = ${sqlString(docId)}`;
    const records = (await chunks
      .query()
      .where(where)
      .select(['version', 'received_at'])
      .limit(1)
      .toArray()) as Record[];
    const [first] = records;
    if (!first) return undefined;
    return {
      version: String(first.version),
      received_at: Number(first.received_at),
      chunks: await chunks.countRows(where),
    };
  }

  async stage(jobId: string, rows: readonly ChunkRow[]): Promise<void> {
    const first = rows[0];
    if (!first) return;
    const staged = await this.#tableFor(STAGED, first.vector.length, true);
    await staged
      .mergeInsert(['job_id', 'id'])
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute(rows.map((row) => toRecord(row, jobId)));
  }

  async stagedCount(jobId: string): Promise<number> {
    const staged = await this.#table(STAGED);
    return staged ? staged.countRows(`job_id = ${sqlString(jobId)}`) : 0;
  }

  async commit(jobId: string, docId: string, receivedAt: number): Promise<CommitOutcome> {
    const current = await this.currentVersion(docId);
    if (current && current.received_at > receivedAt) {
      await this.discardStaged(jobId);
      return 'superseded';
    }
    const staged = await this.#table(STAGED);
    const records = staged
      ? await staged
          .query()
          .where(`job_id = ${sqlString(jobId)}`)
          .select([...COLUMNS, 'vector'])
          .toArray()
      : [];
    const rows = records.map((record: Record) => ({
      ...rowOf(record),
      vector: Array.from(record.vector as Iterable<number>),
    }));
    const first = rows[0];
    if (!first) throw new Error(`nothing is staged for ${jobId}`);
    const chunks = await this.#tableFor(CHUNKS, first.vector.length, false);
    await chunks
      .mergeInsert('id')
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .whenNotMatchedBySourceDelete({ where: `doc_id = ${sqlString(docId)}` })
      .execute(rows);
    await this.#refreshIndexes(chunks);
    await this.discardStaged(jobId);
    return 'committed';
  }

  /**
   * Builds the full-text index once (and the vector index once the table is large enough), then
   * folds new chunks into them when enough have piled up. Chunks not yet indexed are still
   * searched, by a scan, only more slowly.
   */
  async #refreshIndexes(chunks: lancedb.Table): Promise<void> {
    const [text, vector] = await Promise.all([
      chunks.indexStats(TEXT_INDEX),
      chunks.indexStats(VECTOR_INDEX),
    ]);
    if (!text) {
      await chunks.createIndex('text', {
        name: TEXT_INDEX,
        // English analysis, as the usual BM25 baselines do: lowercase, stems, no stop words.
        config: lancedb.Index.fts({
          stem: true,
          removeStopWords: true,
          asciiFolding: true,
          language: 'English',
        }),
      });
    }
    if (!vector && (await chunks.countRows()) >= VECTOR_INDEX_MIN_ROWS) {
      await chunks.createIndex('vector', {
        name: VECTOR_INDEX,
        config: lancedb.Index.hnswSq({ distanceType: 'cosine', numPartitions: 1 }),
      });
    }
    const unindexed = Math.max(text?.numUnindexedRows ?? 0, vector?.numUnindexedRows ?? 0);
    if (unindexed > UNINDEXED_LIMIT) await chunks.optimize();
  }

  async discardStaged(jobId: string): Promise<void> {
    const staged = await this.#table(STAGED);
    await staged?.delete(`job_id = ${sqlString(jobId)}`);
  }

  async lexical(query: string, limit: number, filters: ChunkFilters): Promise<ScoredChunk[]> {
    const chunks = await this.#table(CHUNKS);
    if (!chunks || !query.trim()) return [];
    let search = chunks
      .query()
      .fullTextSearch(new lancedb.MatchQuery(query, 'text'))
      .select([...COLUMNS, '_score'])
      .limit(limit);
    const where = filterSql(filters);
    if (where) search = search.where(where);
    const records = await search.toArray();
    return records.map((record: Record) => ({ row: rowOf(record), score: Number(record._score) }));
  }

  async vector(
    query: Float32Array,
    limit: number,
    filters: ChunkFilters,
    options: { exact?: boolean } = {},
  ): Promise<ScoredChunk[]> {
    const chunks = await this.#table(CHUNKS);
    if (!chunks) return [];
    let search = chunks
      .vectorSearch(Array.from(query))
      .distanceType('cosine')
      .select([...COLUMNS, '_distance'])
      .limit(limit);
    const where = filterSql(filters);
    if (where) search = search.where(where);
    if (options.exact) search = search.bypassVectorIndex();
    const records = await search.toArray();
    return records.map((record: Record) => ({ row: rowOf(record), score: 1 - Number(record._distance) }));
  }

  async stats(): Promise<{ chunks: number; dimensions: number | null }> {
    const chunks = await this.#table(CHUNKS);
    if (!chunks) {
      await this.#db.tableNames();
      return { chunks: 0, dimensions: null };
    }
    const schema = await chunks.schema();
    const vector = schema.fields.find((field) => field.name === 'vector')?.type as FixedSizeList | undefined;
    const count = await chunks.countRows();
    return { chunks: count, dimensions: vector?.listSize ?? null };
  }

  close(): Promise<void> {
    for (const table of this.#tables.values()) table.close();
    this.#tables.clear();
    this.#db.close();
    return Promise.resolve();
  }
}
