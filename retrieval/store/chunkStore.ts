/** One chunk of one version of a document, as indexed. */
export interface ChunkRow {
  /** `<doc_id>:<version>:<chunk index>`: a new version never overwrites the old one's rows. */
  id: string;
  doc_id: string;
  /** The content hash of the document version. */
  version: string;
  /** When the API received this version (ms): an older version never replaces a newer one. */
  received_at: number;
  chunk_index: number;
  text: string;
  /** The heading path, outermost first, joined by " > ". */
  headings: string;
  /** The document's path, e.g. `docs/x402.md`. */
  path: string;
  start_line: number;
  end_line: number;
  ecosystem: string;
  category: string;
  vector: Float32Array;
}

export type ChunkFilters = { ecosystem?: string | undefined; category?: string | undefined };

export interface ScoredChunk {
  row: Omit<ChunkRow, 'vector'>;
  /** BM25 for lexical search, cosine similarity for vector search. */
  score: number;
}

export interface DocumentVersion {
  version: string;
  received_at: number;
  chunks: number;
}

export type CommitOutcome = 'committed' | 'superseded';

/**
 * The index behind retrieval: chunks with their vectors and a full-text index, and a staging
 * area where an ingest puts its embedded chunks batch by batch. `commit` swaps a document's
 * chunks for its staged ones in one atomic step, so a search sees the old version or the new
 * one, never part of either. LanceDB is the embedded implementation; a vector database behind
 * the same methods is the distributed one.
 */
export interface ChunkStore {
  currentVersion(docId: string): Promise<DocumentVersion | undefined>;
  /** Idempotent per row id: a retried batch replaces what it staged before. */
  stage(jobId: string, rows: readonly ChunkRow[]): Promise<void>;
  stagedCount(jobId: string): Promise<number>;
  /** Replaces the document's chunks by the job's staged ones, unless a newer version is already in. */
  commit(jobId: string, docId: string, receivedAt: number): Promise<CommitOutcome>;
  discardStaged(jobId: string): Promise<void>;
  lexical(query: string, limit: number, filters: ChunkFilters): Promise<ScoredChunk[]>;
  /** `exact` scans every vector instead of the ANN index (to measure the index's recall). */
  vector(
    query: Float32Array,
    limit: number,
    filters: ChunkFilters,
    options?: { exact?: boolean },
  ): Promise<ScoredChunk[]>;
  /** Chunks indexed and the vector size; throws when the store cannot be read. */
  stats(): Promise<{ chunks: number; dimensions: number | null }>;
  close(): Promise<void>;
}
