import { CancellationScope, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { RetrievalActivities } from '../activities/retrieval/index.ts';
import {
  type IngestInput,
  IngestOutcome,
  type IngestProgress,
  type IngestResult,
  IngestStage,
  ingestProgressQuery,
} from '../retrieval/core/ingest.ts';

/** Chunks embedded per activity: each batch is a durable step, so a crash redoes at most one. */
const INGEST_BATCH_CHUNKS = 64;

// Fetching goes through the scraper's escalation chain (up to a minute); chunking is fast.
const { prepareDocument } = proxyActivities<RetrievalActivities>({
  startToCloseTimeout: '2m',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: ['empty_document', 'url_not_allowed', 'fetch_failed', 'body_expired'],
  },
});
// Embedding a batch is CPU-bound on the local model; it heartbeats every 16 chunks, so a dead
// worker's batch moves to another one within 10 s.
const { embedBatch } = proxyActivities<RetrievalActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 10 },
});
// Store writes: short, retried while the index is busy or briefly unreachable.
const { commitDocument, abandonIngest, forgetUpload } = proxyActivities<RetrievalActivities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumAttempts: 10 },
});

/**
 * Ingests one document version: fetch or read it, chunk it on its structure, embed the chunks
 * batch by batch into a staging area, then swap the document's chunks for the staged ones in
 * one atomic commit. Until that commit, searches see the previous version; a failure discards
 * what was staged and leaves the previous version as it was.
 */
export async function ingestDocument(input: IngestInput): Promise<IngestResult> {
  const info = workflowInfo();
  const jobKey = `${info.workflowId}:${info.runId}`;
  const progress: IngestProgress = {
    stage: IngestStage.fetching,
    chunks_total: null,
    chunks_embedded: 0,
    version: null,
  };
  setHandler(ingestProgressQuery, () => progress);

  try {
    const prepared = await prepareDocument({ jobKey, input });
    progress.version = prepared.version;
    progress.chunks_total = prepared.chunks;
    if (prepared.unchanged) {
      await forgetUpload({ jobKey, input });
      progress.stage = IngestStage.done;
      progress.chunks_embedded = prepared.chunks;
      return {
        outcome: IngestOutcome.unchanged,
        doc_id: input.docId,
        version: prepared.version,
        chunks: prepared.chunks,
      };
    }
    progress.stage = IngestStage.embedding;
    for (let from = 0; from < prepared.chunks; from += INGEST_BATCH_CHUNKS) {
      const to = Math.min(prepared.chunks, from + INGEST_BATCH_CHUNKS);
      progress.chunks_embedded += await embedBatch({ jobKey, input, version: prepared.version, from, to });
    }
    progress.stage = IngestStage.committing;
    const committed = await commitDocument({ jobKey, input });
    progress.stage = IngestStage.done;
    return {
      outcome: committed === 'committed' ? IngestOutcome.indexed : IngestOutcome.superseded,
      doc_id: input.docId,
      version: prepared.version,
      chunks: prepared.chunks,
    };
  } catch (error) {
    progress.stage = IngestStage.failed;
    // Cleanup runs even when the job was cancelled; the staged rows were never visible.
    await CancellationScope.nonCancellable(() => abandonIngest({ jobKey, input })).catch(() => undefined);
    throw error;
  }
}
