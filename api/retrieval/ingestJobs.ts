import { startWithin } from '../../clients/temporal.ts';
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import {
  type WorkflowExecutionDescription,
  WorkflowFailedError,
  type WorkflowHandle,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { VigilError } from '../../core/errors/vigilError.ts';
import {
  type DocumentType,
  type IngestInput,
  type IngestProgress,
  ingestProgressQuery,
  type IngestResult,
} from '../../retrieval/core/ingest.ts';
import { formatJobId, isJobOf, parseJobId } from '../../core/temporal/jobIds.ts';
import { JobKind, SearchAttr } from '../../core/temporal/searchAttributes.ts';
import { IngestBodies } from '../../retrieval/ingest/bodyStore.ts';
import { bareHost, UrlRefusedError } from '../../scraper/ssrf/guard.ts';
import type { ingestDocument } from '../../workflows/ingestDocument.ts';
import type { RetrievalDeps } from './deps.ts';
import type { IngestJob } from './schemas.ts';

export interface IngestOrder {
  docId: string;
  path: string;
  ecosystem: string;
  category: string;
  document: { kind: 'content'; body: string; type: DocumentType } | { kind: 'url'; url: string };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const CLOSED: Record<string, IngestJob['status']> = {
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  TERMINATED: 'terminated',
  TIMED_OUT: 'timed_out',
};

/**
 * Ingest jobs on top of Temporal: a job is an ingestDocument run. Its workflow id is derived from
 * the document id and its content (or URL), so the same document sent twice while it is being
 * ingested joins the running job; sent again later, the job finds it unchanged and does nothing.
 */
export class IngestJobs {
  readonly #deps: RetrievalDeps;

  constructor(deps: RetrievalDeps) {
    this.#deps = deps;
  }

  static statusUrl(jobId: string): string {
    return `/v1/ingest/${jobId}`;
  }

  async start(order: IngestOrder): Promise<IngestJob> {
    const { document } = order;
    let workflowId: string;
    let source: IngestInput['source'];
    if (document.kind === 'url') {
      this.#checkUrl(document.url);
      workflowId = `${this.#deps.jobScope}ingest:url:${sha256(`${order.docId}\u0000${document.url}`).slice(0, 40)}`;
      source = { kind: 'url', url: document.url };
    } else {
      if (document.body.trim().length === 0) {
        throw new VigilError('empty_document', 'The document is empty: there is nothing to index.');
      }
      const bodyHash = sha256(`${document.type}\u0000${document.body}`);
      workflowId = `${this.#deps.jobScope}ingest:doc:${sha256(`${order.docId}\u0000${bodyHash}`).slice(0, 40)}`;
      const bodyKey = IngestBodies.bodyKey(workflowId);
      try {
        await this.#deps.bodies.putBody(bodyKey, document.body);
      } catch (error) {
        throw new VigilError(
          'engine_unavailable',
          'The document could not be queued (Redis); retry shortly.',
          {
            headers: { 'retry-after': '5' },
            cause: error,
          },
        );
      }
      source = { kind: 'stored', bodyKey, type: document.type };
    }
    const input: IngestInput = {
      docId: order.docId,
      path: order.path,
      ecosystem: order.ecosystem,
      category: order.category,
      receivedAt: Date.now(),
      source,
    };
    let runId: string;
    try {
      const { client, connection } = this.#deps.temporal;
      const started = await startWithin(connection, () =>
        client.workflow.start<typeof ingestDocument>('ingestDocument', {
          taskQueue: this.#deps.taskQueue,
          workflowId,
          args: [input],
          // The same content sent again while it is ingested joins that job.
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
          memo: { doc_id: order.docId },
          typedSearchAttributes: [{ key: SearchAttr.JobKind, value: JobKind.documentIngest }],
          staticSummary: `Ingest of ${order.docId.slice(0, 120)}`,
        }),
      );
      runId = started.firstExecutionRunId;
    } catch (error) {
      throw engineUnavailable(error);
    }
    const jobId = formatJobId({ workflowId, runId });
    return {
      job_id: jobId,
      status_url: IngestJobs.statusUrl(jobId),
      doc_id: order.docId,
      status: 'running',
      stage: 'queued',
      progress: null,
      outcome: null,
      version: null,
      chunks: null,
      error: null,
      created_at: new Date(input.receivedAt).toISOString(),
      closed_at: null,
    };
  }

  async get(jobId: string): Promise<IngestJob> {
    const ref = parseJobId(jobId);
    if (!ref || !isJobOf(ref, 'ingest', this.#deps.jobScope)) {
      throw new VigilError('job_not_found', 'This is not an ingest job id.', {
        extensions: { field: 'job_id' },
      });
    }
    const handle = this.#deps.temporal.client.workflow.getHandle<typeof ingestDocument>(
      ref.workflowId,
      ref.runId,
    );
    const description = await describe(handle, jobId);
    const memoDocId = description.memo?.doc_id;
    const base: IngestJob = {
      job_id: jobId,
      status_url: IngestJobs.statusUrl(jobId),
      doc_id: typeof memoDocId === 'string' ? memoDocId : null,
      status: 'running',
      stage: null,
      progress: null,
      outcome: null,
      version: null,
      chunks: null,
      error: null,
      created_at: description.startTime.toISOString(),
      closed_at: description.closeTime?.toISOString() ?? null,
    };
    const status = CLOSED[description.status.name];
    if (!status) {
      const progress = await this.#deps.temporal.connection
        .withDeadline(Date.now() + 2_000, () => handle.query(ingestProgressQuery))
        .catch(() => null);
      return progress ? { ...base, ...progressView(progress) } : base;
    }
    try {
      const result: IngestResult = await handle.result();
      return {
        ...base,
        status: 'completed',
        stage: 'done',
        progress: {
          chunks_total: result.chunks,
          chunks_embedded: result.outcome === 'indexed' ? result.chunks : 0,
        },
        outcome: result.outcome,
        version: result.version,
        chunks: result.chunks,
      };
    } catch (error) {
      return { ...base, status, stage: 'failed', error: failureOf(error) };
    }
  }

  #checkUrl(raw: string): void {
    try {
      const url = this.#deps.guard.checkUrl(raw);
      const host = bareHost(url.hostname);
      if (isIP(host)) this.#deps.guard.checkAddress(host);
    } catch (error) {
      if (error instanceof UrlRefusedError)
        throw new VigilError('url_not_allowed', `The URL is refused: ${error.message}.`, {
          extensions: { field: 'url' },
        });
      throw error;
    }
  }
}

function progressView(progress: IngestProgress): Partial<IngestJob> {
  return {
    stage: progress.stage,
    progress: { chunks_total: progress.chunks_total, chunks_embedded: progress.chunks_embedded },
    version: progress.version,
    chunks: progress.chunks_total,
  };
}

async function describe(handle: WorkflowHandle, jobId: string): Promise<WorkflowExecutionDescription> {
  try {
    return await handle.describe();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError)
      throw new VigilError('job_not_found', `No ingest job ${jobId}.`);
    throw engineUnavailable(error);
  }
}

/** The reason a failed job gives: the ApplicationFailure type its activity threw, and its message. */
function failureOf(error: unknown): { reason: string; message: string } {
  let cause: unknown = error instanceof WorkflowFailedError ? error.cause : error;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    const typed = cause as Error & { type?: unknown; cause?: unknown };
    if (typeof typed.type === 'string' && typed.type) return { reason: typed.type, message: typed.message };
    if (!typed.cause) break;
    cause = typed.cause;
  }
  return { reason: 'ingest_error', message: error instanceof Error ? error.message : String(error) };
}

function engineUnavailable(error: unknown): VigilError {
  if (error instanceof VigilError) return error;
  return new VigilError('engine_unavailable', 'The workflow engine did not answer.', {
    headers: { 'retry-after': '5' },
    cause: error,
  });
}
