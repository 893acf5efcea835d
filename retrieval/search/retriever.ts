import type { Embedder } from '../embedding/embedder.ts';
import type { ChunkFilters, ChunkRow, ChunkStore } from '../store/chunkStore.ts';
import { reciprocalRankFusion } from './fusion.ts';

export const SearchMode = { hybrid: 'hybrid', lexical: 'lexical', vector: 'vector' } as const;
export type SearchMode = (typeof SearchMode)[keyof typeof SearchMode];

export interface SearchRequest {
  query: string;
  topK: number;
  filters?: ChunkFilters;
  mode?: SearchMode;
}

export interface SearchHit {
  score: number;
  row: Omit<ChunkRow, 'vector'>;
}

/** Candidates taken from each list before fusion: deep enough that fusion can reorder them. */
const FUSION_DEPTH = 50;

/** What a hit cites: the document's path with the chunk's line range, e.g. `docs/x402.md#L30-L52`. */
export function sourceAnchor(row: Pick<ChunkRow, 'path' | 'start_line' | 'end_line'>): string {
  return `${row.path}#L${row.start_line}-L${row.end_line}`;
}

/** The text a chunk is embedded as: its heading path gives a short chunk its context. */
export function embeddingText(headings: readonly string[], text: string): string {
  return headings.length > 0 ? `${headings.join(' > ')}\n\n${text}` : text;
}

/** Lexical (BM25), vector (cosine) or both fused with reciprocal rank fusion. */
export class Retriever {
  readonly #store: ChunkStore;
  readonly #embedder: Embedder;

  constructor(store: ChunkStore, embedder: Embedder) {
    this.#store = store;
    this.#embedder = embedder;
  }

  async search({ query, topK, filters = {}, mode = SearchMode.hybrid }: SearchRequest): Promise<SearchHit[]> {
    if (mode === SearchMode.lexical) return this.#store.lexical(query, topK, filters);
    const [vector] = await this.#embedder.embed([query]);
    if (!vector) return [];
    if (mode === SearchMode.vector) return this.#store.vector(vector, topK, filters);
    const depth = Math.max(FUSION_DEPTH, topK);
    const [lexical, semantic] = await Promise.all([
      this.#store.lexical(query, depth, filters),
      this.#store.vector(vector, depth, filters),
    ]);
    return reciprocalRankFusion([lexical, semantic], (hit) => hit.row.id)
      .slice(0, topK)
      .map(({ item, score }) => ({ row: item.row, score }));
  }
}
