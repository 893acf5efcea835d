import type { Embedder } from '../embedding/embedder.ts';
import { embeddingText } from '../search/retriever.ts';
import type { ChunkStore, CommitOutcome } from '../store/chunkStore.ts';
import { contentHash, prepareChunks } from './document.ts';

export interface DirectDocument {
  docId: string;
  path: string;
  ecosystem: string;
  category: string;
  markdown: string;
  receivedAt?: number;
}

/**
 * Indexes a document in this process, through the same chunking, embedding and atomic commit as
 * the ingest workflow, for content the process itself owns (the tool catalog) and for
 * benchmarks. Unchanged content is left as it is.
 */
export async function indexNow(
  store: ChunkStore,
  embedder: Embedder,
  document: DirectDocument,
  chunkChars: number,
): Promise<CommitOutcome | 'unchanged'> {
  const version = contentHash(document.markdown);
  if ((await store.currentVersion(document.docId))?.version === version) return 'unchanged';
  const chunks = prepareChunks(document.markdown, chunkChars);
  if (chunks.length === 0) return 'unchanged';
  const vectors = await embedder.embed(chunks.map((chunk) => embeddingText(chunk.headings, chunk.text)));
  const jobKey = `direct:${document.docId}:${version}`;
  const receivedAt = document.receivedAt ?? Date.now();
  await store.stage(
    jobKey,
    chunks.map((chunk, i) => ({
      id: `${document.docId}:${version}:${chunk.index}`,
      doc_id: document.docId,
      version,
      received_at: receivedAt,
      chunk_index: chunk.index,
      text: chunk.text,
      headings: chunk.headings.join(' > '),
      path: document.path,
      start_line: chunk.startLine,
      end_line: chunk.endLine,
      ecosystem: document.ecosystem,
      category: document.category,
      vector: vectors[i] ?? new Float32Array(embedder.dimensions),
    })),
  );
  return store.commit(jobKey, document.docId, receivedAt);
}
