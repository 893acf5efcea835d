import {
  type Client,
  type Connection,
  isGrpcDeadlineError,
  isGrpcServiceError,
  type WorkflowExecutionDescription,
  WorkflowFailedError,
  type WorkflowHandle,
  type WorkflowHandleWithFirstExecutionRunId,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { Redis } from 'ioredis';
import type { ChainClients } from '../../clients/chains/chainClients.ts';
import { START_DEADLINE_MS, startWithin } from '../../clients/temporal.ts';
import { isErrorCode } from '../../core/errors/codes.ts';
import { Reason } from '../../core/errors/reasons.ts';
import { orStoreUnavailable } from '../../core/errors/storeUnavailable.ts';
import { VigilError } from '../../core/errors/vigilError.ts';
import { isDeadlinePassed } from '../../core/temporal/deadline.ts';
import { formatJobId, type JobRef, requireJob, scanWorkflowId } from '../../core/temporal/jobIds.ts';
import { JobKind, SearchAttr } from '../../core/temporal/searchAttributes.ts';
import { scanProgressQuery, type ScanTokenInput } from '../../scanner/core/messages.ts';
import { SCAN_REFUSALS } from '../../scanner/core/refusals.ts';
import type { ScanStore, StoredScan } from '../../scanner/scanStore.ts';
import { checkScanRequest } from '../../scanner/target.ts';
import type { scanToken } from '../../workflows/scanToken.ts';
import { JobHolders, LetGo } from './jobHolders.ts';
import { ScanCompletions } from './scanCompletions.ts';
import {
  CLOSED,
  completedView,
  failureOf,
  JobStatus,
  progressOf,
  runningView,
  type ScanCancellation,
  type ScanJob,
  statusUrl,
} from './scanJobViews.ts';

export { ScanCancellation, ScanJob } from './scanJobViews.ts';

/** Who holds a job while it runs: an API caller until it cancels, or a waiter while it waits. */
export interface JobHolder {
  /** The caller's id (`key:<id>` or a network fingerprint), or a waiter's own id. */
  id: string;
  /** A waiter (a tool call) lets go once it stops waiting; it never cancels the job. */
  transient?: boolean;
}

/** Who asks to cancel: a caller, and whether it holds an operator key. */
export interface Canceller {
  id: string;
  operator: boolean;
}

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
  /** Begins every workflow id this deployment starts (its TASK_QUEUE_PREFIX; core/temporal/jobIds.ts). */
  jobScope: string;
  /** Upper bound of a request's wait_ms. */
  scanWaitMaxMs: number;
  /** Where who holds which job is kept. */
  redis: Redis;
}

/**
 * How long a request waits at least for the scan's first step, which reads the chain: a target
 * the chain refuses (no code at the address, not a mint) is answered as that problem, not as a
 * job that fails later. Bounded so a missing worker or a slow chain still answers 202.
 */
const VERDICT_WAIT_MS = 2_000;
/** How often a submission retries when the run it joined was being cancelled by its last holder. */
const REJOIN_ATTEMPTS = 3;
/** Starts tried when the frontend is busy (a timeout or overload) before the request is refused. */
const START_ATTEMPTS = 4;
/** How long a cancelled run gets to stop before a new request ends it to start a fresh one. */
const CANCELLED_RUN_GRACE_MS = 3_000;

/**
 * Scan jobs on top of Temporal: a job is a scanToken workflow run. Starting coalesces identical
 * requests onto the running workflow; reading prefers the stored result and falls back to the
 * workflow's own state (progress query, failure cause). Who may cancel or read a job is who holds
 * it (jobHolders.ts).
 */
export class ScanJobs {
  readonly #deps: ScanJobsDeps;
  readonly #holders: JobHolders;
  readonly #completions: ScanCompletions;

  constructor(deps: ScanJobsDeps) {
    this.#deps = deps;
    this.#holders = new JobHolders(deps.redis);
    this.#completions = new ScanCompletions(deps.redis);
  }

  /** Closes the connection word of stored results arrives on. */
  close(): void {
    this.#completions.close();
  }

  static statusUrl(jobId: string): string {
    return statusUrl(jobId);
  }

  /**
   * Starts (or joins) a scan for `holder`; waits up to wait_ms for its outcome, and at least for
   * its verdict on the target. The chain is read by the scan alone: a target it refuses fails its
   * job with the reason, and the request is answered with that problem (naming the job). A
   * transient holder (a tool call) holds the job only while it waits.
   */
  async submit(request: SubmitScan, holder: JobHolder): Promise<ScanJob> {
    const target = checkScanRequest(this.#deps.chains, request);
    const chain = target.chain.id;
    if (!request.fresh) {
      const cached = await this.#deps.scans.cached(chain, target.address);
      if (cached) {
        // The caller holds the finished job too, so it may read it again by its id.
        if (!holder.transient) await this.#holders.join(cached.job_id, holder.id).catch(() => undefined);
        return completedView(cached, true);
      }
    }

    const { handle, jobId } = await this.#startAndJoin(chain, target, holder);
    try {
      const waitMs = Math.max(Math.min(request.wait_ms ?? 0, this.#deps.scanWaitMaxMs), VERDICT_WAIT_MS);
      const deadline = Date.now() + waitMs;
      try {
        return completedView(await this.#outcome(handle, jobId, deadline), false);
      } catch (error) {
        if (error instanceof WorkflowFailedError) {
          const refusal = refusalOf(error, jobId);
          if (refusal) throw refusal;
          return await this.get(jobId);
        }
        if (!isDeadlinePassed(error, deadline)) throw engineUnavailable(error);
      }
      return runningView(jobId, chain, target.address, null);
    } finally {
      if (holder.transient) await this.#holders.letGo(jobId, holder.id, 'leave').catch(() => undefined);
    }
  }

  /**
   * The job's stored result, whichever comes first: word from the worker that it is stored (then
   * read from its Redis copy), or the workflow's result. A failed run, or the deadline passing,
   * is thrown as the workflow's result poll throws it.
   */
  async #outcome(
    handle: WorkflowHandle<typeof scanToken>,
    jobId: string,
    deadline: number,
  ): Promise<StoredScan> {
    const { connection } = this.#deps.temporal;
    const done = new AbortController();
    const polled = connection
      .withDeadline(deadline, () => connection.withAbortSignal(done.signal, () => handle.result()))
      .then((result): StoredScan => ({ job_id: jobId, result, stored_at: new Date().toISOString() }));
    // Settled either way once the other wins (the abort rejects it).
    polled.catch(() => undefined);
    const pushed = this.#completions
      .stored(jobId, done.signal)
      .then(() => this.#deps.scans.cachedJob(jobId))
      .then((stored) => stored ?? polled);
    try {
      return await Promise.race([polled, pushed]);
    } finally {
      done.abort();
    }
  }

  /**
   * Starts the scan's workflow, or finds the running one, and joins it. A run whose last holder is
   * cancelling it is not joined: the submission lets it stop (ending it if it does not stop soon)
   * and starts a new run.
   */
  async #startAndJoin(
    chain: string,
    target: { address: string; chain: { name: string } },
    holder: JobHolder,
  ): Promise<{ handle: WorkflowHandle<typeof scanToken>; jobId: string }> {
    const workflowId = scanWorkflowId(chain, target.address, this.#deps.jobScope);
    const input: ScanTokenInput = { chain, address: target.address };
    const startBy = Date.now() + START_DEADLINE_MS;
    for (let attempt = 1; ; attempt++) {
      let handle: WorkflowHandleWithFirstExecutionRunId<typeof scanToken>;
      try {
        const { client, connection } = this.#deps.temporal;
        handle = await startWithin(
          connection,
          () =>
            client.workflow.start<typeof scanToken>('scanToken', {
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
            }),
          startBy,
        );
      } catch (error) {
        // A busy frontend's timeout or overload is worth another try: the start is idempotent
        // (the same workflow id, joined if it runs), so a retry never makes a second scan.
        if (attempt < START_ATTEMPTS && Date.now() < startBy && isTransientGrpcError(error)) {
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
          continue;
        }
        throw engineUnavailable(error);
      }
      const jobId = formatJobId({ workflowId, runId: handle.firstExecutionRunId });
      // Without Redis the job still runs; it just has no holders, so only an operator can cancel it.
      const joined = await this.#holders.join(jobId, holder.id).catch(() => true);
      if (joined) return { handle, jobId };
      if (attempt >= REJOIN_ATTEMPTS)
        throw new VigilError(Reason.engineUnavailable, 'The scan is being cancelled; retry shortly.', {
          headers: { 'retry-after': '2' },
        });
      // Its last holder cancelled this run: let it stop, and end it if it has not stopped soon
      // (only this run, by its id), so this request starts a fresh one instead of joining it.
      const graceEnds = Date.now() + CANCELLED_RUN_GRACE_MS;
      const stopped = await this.#deps.temporal.connection
        .withDeadline(graceEnds, () => handle.result())
        .then(
          () => true,
          (error: unknown) => !isDeadlinePassed(error, graceEnds),
        );
      if (!stopped)
        await this.#deps.temporal.client.workflow
          .getHandle(workflowId, handle.firstExecutionRunId)
          .terminate('cancelled by its last holder; a new request starts a fresh run')
          .catch(() => undefined);
    }
  }

  /** A scan job of this deployment (its scope begins the workflow id): 400 if malformed, else 404. */
  #ref(jobId: string): JobRef {
    return requireJob(jobId, 'scan', this.#deps.jobScope);
  }

  /**
   * A job's status and result are for those who hold it (or held it until it finished): its
   * result is paid data, and a job id leaks more easily than a key. API keys read any job.
   */
  async assertReadable(jobId: string, caller: { id: string; apiKeyId: string | null }): Promise<void> {
    if (caller.apiKeyId) return;
    this.#ref(jobId);
    const holds = await orStoreUnavailable('Job ownership', () => this.#holders.holds(jobId, caller.id));
    if (!holds)
      throw new VigilError(Reason.jobNotOwned, 'Only a caller that started or joined this job may read it.');
  }

  async get(jobId: string): Promise<ScanJob> {
    const ref = this.#ref(jobId);
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

  /**
   * A holder's cancel: the job is cancelled (it stops at its next step) when no other caller
   * holds it, else the holder is only detached and the job goes on for the others. An operator
   * cancels it whoever holds it; anyone else gets 403.
   */
  async cancel(jobId: string, canceller: Canceller): Promise<ScanCancellation> {
    const ref = this.#ref(jobId);
    const handle = this.#deps.temporal.client.workflow.getHandle<typeof scanToken>(ref.workflowId, ref.runId);
    const description = await this.#describe(handle, jobId);
    const holds = await orStoreUnavailable('Job ownership', () => this.#holders.holds(jobId, canceller.id));
    if (!holds && !canceller.operator)
      throw new VigilError(
        Reason.jobNotOwned,
        'Only a caller that started or joined this job may cancel it.',
      );
    // A run whose result is stored is finished for its callers (they may hold the answer already)
    // though its workflow may still be closing.
    if (description.status.name !== 'RUNNING' || (await this.#deps.scans.cachedJob(jobId))) {
      const status = description.status.name === 'RUNNING' ? 'completed' : description.status.name;
      throw new VigilError(Reason.jobNotRunning, `The job has already finished (${status.toLowerCase()}).`);
    }
    const letGo = await orStoreUnavailable('Job ownership', () =>
      this.#holders.letGo(jobId, canceller.id, canceller.operator ? 'force' : 'cancel'),
    );
    if (letGo.outcome === LetGo.notHolder)
      throw new VigilError(
        Reason.jobNotOwned,
        'Only a caller that started or joined this job may cancel it.',
      );
    if (letGo.outcome === LetGo.cancel) {
      try {
        await handle.cancel();
      } catch (error) {
        if (!canceller.operator) await this.#holders.undoCancel(jobId, canceller.id).catch(() => undefined);
        throw engineUnavailable(error);
      }
    }
    const view = await this.get(jobId);
    return {
      ...view,
      cancel: {
        outcome: letGo.outcome === LetGo.cancel ? 'cancelled' : 'detached',
        holders_left: letGo.holdersLeft,
      },
    };
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

/** A job the scan refused (its target, as the chain showed it), as the problem the request answers. */
function refusalOf(error: WorkflowFailedError, jobId: string): VigilError | undefined {
  const { cause } = error;
  if (!(cause instanceof ApplicationFailure) || !cause.type || !SCAN_REFUSALS.includes(cause.type)) return;
  if (!isErrorCode(cause.type)) return;
  return new VigilError(cause.type, cause.message, {
    extensions: { job_id: jobId, status_url: statusUrl(jobId) },
  });
}

/** gRPC failures a retry may get past, wherever in the cause chain the client put them. */
// gRPC's status codes (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE): the client does not
// re-export grpc-js's enum, and these numbers are the protocol's, fixed.
const TRANSIENT_GRPC = new Set([4, 8, 14]);

function grpcErrorOf(error: unknown) {
  for (let current = error; current instanceof Error; current = current.cause)
    if (isGrpcServiceError(current)) return current;
  return undefined;
}

function isTransientGrpcError(error: unknown): boolean {
  const grpc = grpcErrorOf(error);
  return grpc !== undefined && TRANSIENT_GRPC.has(grpc.code);
}

function engineUnavailable(error: unknown): VigilError {
  if (error instanceof VigilError) return error;
  // The client wraps gRPC failures in its own ServiceError: look through it.
  const unreachable = isTransientGrpcError(error) || isGrpcDeadlineError(error);
  return new VigilError(
    Reason.engineUnavailable,
    unreachable ? 'The workflow engine did not answer.' : 'The workflow engine rejected the request.',
    { headers: { 'retry-after': '5' }, cause: error },
  );
}
