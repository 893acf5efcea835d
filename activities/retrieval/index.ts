import { ApplicationFailure, Context } from '@temporalio/activity';
import { DocumentType, IngestFailure, type IngestInput, IngestOutcome } from '../../retrieval/core/ingest.ts';
import { IngestBodies } from '../../retrieval/ingest/bodyStore.ts';
import type { DocumentLocks } from '../../retrieval/ingest/documentLock.ts';
import { contentHash, prepareChunks, toMarkdown } from '../../retrieval/ingest/document.ts';
import type { Embedder } from '../../retrieval/embedding/embedder.ts';
import { embeddingText } from '../../retrieval/search/retriever.ts';
import type { ChunkRow, ChunkStore, CommitOutcome } from '../../retrieval/store/chunkStore.ts';
import { fetchThroughScraper } from './fetchThroughScraper.ts';

export interface RetrievalActivityDeps {
  store: () => Promise<ChunkStore>;
  /** Loaded on first use: a worker that never embeds never loads the model. */
  embedder: () => Promise<Embedder>;
  bodies: IngestBodies;
  /** One commit at a time per document, across workers. */
  locks: DocumentLocks;
  scraperUrl: string;
  /** Sent as X-API-Key when the scraper asks for one. */
  scraperApiKey?: string | undefined;
  chunkChars: number;
}

export interface PrepareInput {
  jobKey: string;
  input: IngestInput;
}

export interface Prepared {
  version: string;
  chunks: number;
  unchanged: boolean;
}

export interface EmbedBatchInput {
  jobKey: string;
  input: IngestInput;
  version: string;
  from: number;
  to: number;
}

/** Chunks embedded between two heartbeats. */
const HEARTBEAT_EVERY = 16;

/** The ingest pool's activities: fetch and chunk once, embed batch by batch, commit atomically. */
export function createRetrievalActivities(deps: RetrievalActivityDeps) {
  return {
    /** Fetches (URL) or reads (upload) the document, makes its chunks, and says whether it changed. */
    async prepareDocument({ jobKey, input }: PrepareInput): Promise<Prepared> {
      let body: string;
      let type: DocumentType;
      if (input.source.kind === 'url') {
        body = await fetchThroughScraper(
          { url: deps.scraperUrl, apiKey: deps.scraperApiKey },
          input.source.url,
        );
        type = DocumentType.markdown;
      } else {
        const stored = await deps.bodies.body(input.source.bodyKey);
        if (stored === undefined) {
          throw ApplicationFailure.nonRetryable(
            'the uploaded document expired before it was read',
            IngestFailure.bodyExpired,
          );
        }
        body = stored;
        type = input.source.type;
      }
      const markdown = toMarkdown(body, type, input.source.kind === 'url' ? input.source.url : undefined);
      const chunks = prepareChunks(markdown, deps.chunkChars);
      if (chunks.length === 0) {
        throw ApplicationFailure.nonRetryable(
          'the document has no text to index',
          IngestFailure.emptyDocument,
        );
      }
      const version = contentHash(markdown);
      const store = await deps.store();
      const current = await store.currentVersion(input.docId);
      if (current?.version === version) return { version, chunks: current.chunks, unchanged: true };
      await deps.bodies.putChunks(jobKey, chunks);
      return { version, chunks: chunks.length, unchanged: false };
    },

    /** Embeds chunks [from, to) and stages them; a retry re-stages the same rows. */
    async embedBatch({ jobKey, input, version, from, to }: EmbedBatchInput): Promise<number> {
      const chunks = await deps.bodies.chunks(jobKey);
      if (!chunks) {
        throw ApplicationFailure.nonRetryable(
          'the prepared chunks expired before they were embedded',
          IngestFailure.bodyExpired,
        );
      }
      const batch = chunks.slice(from, to);
      const embedder = await deps.embedder();
      const context = Context.current();
      const vectors: Float32Array[] = [];
      // Heartbeats between small model calls: a dead worker is noticed within the heartbeat timeout.
      for (let i = 0; i < batch.length; i += HEARTBEAT_EVERY) {
        context.heartbeat({ from, done: i });
        const texts = batch
          .slice(i, i + HEARTBEAT_EVERY)
          .map((chunk) => embeddingText(chunk.headings, chunk.text));
        vectors.push(...(await embedder.embed(texts)));
      }
      const rows: ChunkRow[] = batch.map((chunk, i) => ({
        id: `${input.docId}:${version}:${chunk.index}`,
        doc_id: input.docId,
        version,
        received_at: input.receivedAt,
        chunk_index: chunk.index,
        text: chunk.text,
        headings: chunk.headings.join(' > '),
        path: input.path,
        start_line: chunk.startLine,
        end_line: chunk.endLine,
        ecosystem: input.ecosystem,
        category: input.category,
        vector: vectors[i] ?? new Float32Array(embedder.dimensions),
      }));
      await (await deps.store()).stage(jobKey, rows);
      return rows.length;
    },

    /** Swaps the document's chunks for the staged ones in one step, then forgets the job's data. */
    async commitDocument({ jobKey, input }: PrepareInput): Promise<CommitOutcome> {
      const store = await deps.store();
      const outcome = await deps.locks.withLock(input.docId, () =>
        store.commit(jobKey, input.docId, input.receivedAt),
      );
      await deps.bodies.forget(ingestKeys(jobKey, input));
      return outcome;
    },

    /** After a failure: the staged rows go, the indexed version stays as it was. */
    async abandonIngest({ jobKey, input }: PrepareInput): Promise<void> {
      await (await deps.store()).discardStaged(jobKey);
      await deps.bodies.forget(ingestKeys(jobKey, input));
    },

    /** An unchanged document: only the uploaded body is forgotten. */
    async forgetUpload({ jobKey, input }: PrepareInput): Promise<typeof IngestOutcome.unchanged> {
      await deps.bodies.forget(ingestKeys(jobKey, input));
      return IngestOutcome.unchanged;
    },
  };
}

function ingestKeys(jobKey: string, input: IngestInput): string[] {
  return [IngestBodies.chunksKey(jobKey), ...(input.source.kind === 'stored' ? [input.source.bodyKey] : [])];
}

export type RetrievalActivities = ReturnType<typeof createRetrievalActivities>;
