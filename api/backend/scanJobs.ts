import {
  type Client,
  type Connection,
  isGrpcDeadlineError,
  isGrpcServiceError,
  type WorkflowExecutionDescription,
  WorkflowFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  ApplicationFailure,
  CancelledFailure,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowNotFoundError,
} from '@temporalio/common';
import { z } from 'zod';
import type { ChainClients } from '../../clients/chains/chainClients.ts';
import { isErrorCode } from '../../core/errors/codes.ts';
import { Reason } from '../../core/errors/reasons.ts';
import { VigilError } from '../../core/errors/vigilError.ts';
import { SCAN_REFUSALS } from '../../scanner/core/refusals.ts';
import { ScanResult } from '../../scanner/core/result.ts';
import type { ScanStore, StoredScan } from '../../scanner/scanStore.ts';
import { checkScanRequest } from '../../scanner/target.ts';
import { formatJobId, parseJobId, scanWorkflowId } from '../../core/temporal/jobIds.ts';
import { scanProgressQuery, type ScanProgress, type ScanTokenInput } from '../../scanner/core/messages.ts';
import { JobKind, SearchAttr } from '../../core/temporal/searchAttributes.ts';
import type { scanToken } from '../../workflows/scanToken.ts';

export const JobStatus = {
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  terminated: 'terminated',
  timedOut: 'timed_out',
} as const;
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];

const EngineProgress = z.object({
  status: z.enum(['pending', 'running', 'completed', 'failed']),
  duration_ms: z.number().optional(),
  error: z.object({ reason: z.string(), message: z.string() }).optional(),
});

export const ScanJob = z
  .object({
    job_id: z.string(),
    status: z.enum(Object.values(JobStatus) as [JobStatus, ...JobStatus[]]),
    status_url: z.string(),
    chain: z.string(),
    address: z.string(),
    /** True when the answer came from the result cache without running a scan. */
    cached: z.boolean(),
    created_at: z.iso.datetime().nullable(),
    closed_at: z.iso.datetime().nullable(),
    progress: z
      .object({
        stage: z.enum(['queued', 'preparing', 'scanning', 'scoring', 'done']),
        block: z.string().optional(),
        engines: z.record(z.string(), EngineProgress),
      })
      .nullable(),
    result: ScanResult.nullable(),
    error: z.object({ reason: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'ScanJob' });
export type ScanJob = z.infer<typeof ScanJob>;

export interface SubmitScan {
  chain: string;
  address: string;
  wait_ms?: number | undefined;
  fresh?: boolean | undefined;
}

/** What scan jobs need: the workflow engine, the scan store's read side, and the chains served. */
export interface ScanJobsDeps {
  temporal: { client: Client; connection: Connection };
  scans: Pick<ScanStore, 'cached' | 'cachedJob' | 'byJobId'>;
  /** Which chains this deployment serves, to refuse a request before any job starts (no chain is read). */
  chains: ChainClients;
  /** Task queue the scanner workflows are started on (TASK_QUEUE_PREFIX applied). */
  scannerTaskQueue: string;
  /** Upper bound of a request's wait_ms. */
  scanWaitMaxMs: number;
}

/**
 * How long a request waits at least for the scan's first step, which reads the chain: a target
 * the chain refuses (no code at the address, not a mint) is answered as that problem, not as a
 * job that fails later. Bounded so a missing worker or a slow chain still answers 202.
 */
const VERDICT_WAIT_MS = 2_000;

const CLOSED: Record<string, JobStatus> = {
  COMPLETED: JobStatus.completed,
  FAILED: JobStatus.failed,
  CANCELLED: JobStatus.cancelled,
  TERMINATED: JobStatus.terminated,
  TIMED_OUT: JobStatus.timedOut,
  CONTINUED_AS_NEW: JobStatus.completed,
};

/**
 * Scan jobs on top of Temporal: a job is a scanToken workflow run. Starting coalesces identical
 * requests onto the running workflow; reading prefers the stored result and falls back to the
 * workflow's own state (progress query, failure cause).
 */
export class ScanJobs {
  readonly #deps: ScanJobsDeps;

  constructor(deps: ScanJobsDeps) {
    this.#deps = deps;
  }

  static statusUrl(jobId: string): string {
    return `/api/v2/scanner/scans/${encodeURIComponent(jobId)}`;
  }

  /**
   * Starts (or joins) a scan; waits up to wait_ms for its outcome, and at least for its verdict on
   * the target. The chain is read by the scan alone: a target it refuses fails its job with the
   * reason, and the request is answered with that problem (naming the job).
   */
  async submit(request: SubmitScan): Promise<ScanJob> {
    const target = checkScanRequest(this.#deps.chains, request);
    const chain = target.chain.id;
    if (!request.fresh) {
      const cached = await this.#deps.scans.cached(chain, target.address);
      if (cached) return completedView(cached, true);
    }

    const workflowId = scanWorkflowId(chain, target.address);
    const input: ScanTokenInput = { chain, address: target.address };
    let handle: WorkflowHandle<typeof scanToken>;
    let runId: string;
    try {
      const started = await this.#deps.temporal.client.workflow.start<typeof scanToken>('scanToken', {
        taskQueue: this.#deps.scannerTaskQueue,
        workflowId,
        args: [input],
        // Identical concurrent requests join the running scan; a finished one may run again
        // once its cached result has expired.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        typedSearchAttributes: [
          { key: SearchAttr.JobKind, value: JobKind.tokenScan },
          { key: SearchAttr.Chain, value: chain },
          { key: SearchAttr.TokenAddress, value: target.address },
        ],
        staticSummary: `Token scan of ${target.address} on ${target.chain.name}`,
      });
      handle = started;
      runId = started.firstExecutionRunId;
    } catch (error) {
      throw engineUnavailable(error);
    }
    const jobId = formatJobId({ workflowId, runId });
    const waitMs = Math.max(Math.min(request.wait_ms ?? 0, this.#deps.scanWaitMaxMs), VERDICT_WAIT_MS);
    try {
      const result = await this.#deps.temporal.connection.withDeadline(Date.now() + waitMs, () =>
        handle.result(),
      );
      return completedView({ job_id: jobId, result, stored_at: new Date().toISOString() }, false);
    } catch (error) {
      if (error instanceof WorkflowFailedError) {
        const refusal = refusalOf(error, jobId);
        if (refusal) throw refusal;
        return this.get(jobId);
      }
      if (!isGrpcDeadlineError(error)) throw engineUnavailable(error);
    }
    return runningView(jobId, chain, target.address, null);
  }

  async get(jobId: string): Promise<ScanJob> {
    const ref = parseJobId(jobId);
    if (!ref)
      throw new VigilError(Reason.badRequest, 'This is not a scan job id.', {
        extensions: { field: 'job_id' },
      });
    // Hot copy first, then the job's own state in Temporal, then the permanent record (a job
    // past Temporal's retention, or Temporal unreachable).
    const cached = await this.#deps.scans.cachedJob(jobId);
    if (cached) return completedView(cached, false);
    const handle = this.#deps.temporal.client.workflow.getHandle<typeof scanToken>(ref.workflowId, ref.runId);
    let description: WorkflowExecutionDescription | undefined;
    let unavailable: VigilError | undefined;
    try {
      description = await this.#describe(handle, jobId);
    } catch (error) {
      if (!(error instanceof VigilError) || error.code === Reason.engineUnavailable)
        unavailable = engineUnavailable(error);
      else if (error.code !== Reason.jobNotFound) throw error;
    }
    if (!description) {
      const stored = await this.#deps.scans.byJobId(jobId);
      if (stored) return completedView(stored, false);
      throw unavailable ?? new VigilError(Reason.jobNotFound, `No scan job ${jobId}.`);
    }
    const [, chain = '', address = ''] = ref.workflowId.split(':');
    const status = CLOSED[description.status.name];
    if (!status) {
      const progress = await this.#deps.temporal.connection
        .withDeadline(Date.now() + 2_000, () => handle.query(scanProgressQuery))
        .catch(() => null);
      const view = runningView(jobId, chain, address, progress, description);
      // No worker answered the progress query (all down, or busy): say so rather than guess.
      return progress ? view : { ...view, progress: null };
    }
    const view: ScanJob = {
      ...runningView(jobId, chain, address, null, description),
      status,
      closed_at: description.closeTime?.toISOString() ?? null,
    };
    try {
      const result = await handle.result();
      return { ...view, status: JobStatus.completed, result, progress: progressOf(result) };
    } catch (error) {
      return { ...view, error: failureOf(error) };
    }
  }

  /** Requests cancellation; the workflow stops at its next step. */
  async cancel(jobId: string): Promise<ScanJob> {
    const ref = parseJobId(jobId);
    if (!ref)
      throw new VigilError(Reason.badRequest, 'This is not a scan job id.', {
        extensions: { field: 'job_id' },
      });
    const handle = this.#deps.temporal.client.workflow.getHandle<typeof scanToken>(ref.workflowId, ref.runId);
    const description = await this.#describe(handle, jobId);
    if (description.status.name !== 'RUNNING') {
      throw new VigilError(
        Reason.jobNotRunning,
        `The job has already finished (${description.status.name.toLowerCase()}).`,
      );
    }
    await handle.cancel();
    return this.get(jobId);
  }

  async #describe(handle: WorkflowHandle, jobId: string): Promise<WorkflowExecutionDescription> {
    try {
      return await handle.describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) {
        throw new VigilError(Reason.jobNotFound, `No scan job ${jobId}.`);
      }
      throw engineUnavailable(error);
    }
  }
}

function completedView(stored: StoredScan, cached: boolean): ScanJob {
  return {
    job_id: stored.job_id,
    status: JobStatus.completed,
    status_url: ScanJobs.statusUrl(stored.job_id),
    chain: stored.result.chain,
    address: stored.result.address,
    cached,
    created_at: stored.result.scanned_at,
    closed_at: stored.stored_at,
    progress: progressOf(stored.result),
    result: stored.result,
    error: null,
  };
}

function runningView(
  jobId: string,
  chain: string,
  address: string,
  progress: ScanProgress | null,
  description?: WorkflowExecutionDescription,
): ScanJob {
  return {
    job_id: jobId,
    status: JobStatus.running,
    status_url: ScanJobs.statusUrl(jobId),
    chain,
    address,
    cached: false,
    created_at: description?.startTime.toISOString() ?? null,
    closed_at: null,
    progress: progress ?? { stage: 'queued', engines: {} },
    result: null,
    error: null,
  };
}

function progressOf(result: ScanResult): ScanJob['progress'] {
  const engines: NonNullable<ScanJob['progress']>['engines'] = {};
  for (const [engine, outcome] of Object.entries(result.engines)) {
    engines[engine] = {
      status: outcome.status === 'ok' ? 'completed' : 'failed',
      duration_ms: outcome.duration_ms,
      ...(outcome.error ? { error: outcome.error } : {}),
    };
  }
  return { stage: 'done', block: result.block_number, engines };
}

/** The reason a closed job did not complete, from the failure chain Temporal recorded. */
function failureOf(error: unknown): { reason: string; message: string } {
  const cause = error instanceof WorkflowFailedError ? error.cause : error;
  if (cause instanceof ApplicationFailure)
    return { reason: cause.type ?? Reason.failed, message: cause.message };
  if (cause instanceof CancelledFailure)
    return { reason: Reason.cancelled, message: 'The job was cancelled.' };
  if (cause instanceof TerminatedFailure)
    return { reason: Reason.terminated, message: 'The job was terminated by an operator.' };
  if (cause instanceof TimeoutFailure)
    return { reason: Reason.timedOut, message: 'The job ran out of time.' };
  return { reason: Reason.failed, message: cause instanceof Error ? cause.message : 'The job failed.' };
}

/** A job the scan refused (its target, as the chain showed it), as the problem the request answers. */
function refusalOf(error: WorkflowFailedError, jobId: string): VigilError | undefined {
  const { cause } = error;
  if (!(cause instanceof ApplicationFailure) || !cause.type || !SCAN_REFUSALS.includes(cause.type)) return;
  if (!isErrorCode(cause.type)) return;
  return new VigilError(cause.type, cause.message, {
    extensions: { job_id: jobId, status_url: ScanJobs.statusUrl(jobId) },
  });
}

function engineUnavailable(error: unknown): VigilError {
  if (error instanceof VigilError) return error;
  const unreachable = isGrpcServiceError(error) || isGrpcDeadlineError(error);
  return new VigilError(
    Reason.engineUnavailable,
    unreachable ? 'The workflow engine did not answer.' : 'The workflow engine rejected the request.',
    { headers: { 'retry-after': '5' }, cause: error },
  );
}
