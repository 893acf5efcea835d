import { WorkflowFailedError, type WorkflowExecutionDescription } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
import { z } from 'zod';
import { Reason } from '../../core/errors/reasons.ts';
import type { ScanProgress } from '../../scanner/core/messages.ts';
import { ScanResult } from '../../scanner/core/result.ts';
import type { StoredScan } from '../../scanner/scanStore.ts';

/** What a scan job looks like to callers: its schema and the views built from Temporal and the stores. */

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

export const ScanCancellation = ScanJob.extend({
  cancel: z.object({
    outcome: z
      .enum(['cancelled', 'detached'])
      .describe(
        'cancelled: nobody else held the job, so it stops; detached: others still hold it, it goes on',
      ),
    holders_left: z.number().int().describe('Callers that still hold the job'),
  }),
}).meta({ id: 'ScanCancellation' });
export type ScanCancellation = z.infer<typeof ScanCancellation>;

/** Temporal's closed statuses as job statuses. */
export const CLOSED: Record<string, JobStatus> = {
  COMPLETED: JobStatus.completed,
  FAILED: JobStatus.failed,
  CANCELLED: JobStatus.cancelled,
  TERMINATED: JobStatus.terminated,
  TIMED_OUT: JobStatus.timedOut,
  CONTINUED_AS_NEW: JobStatus.completed,
};

export function completedView(stored: StoredScan, cached: boolean): ScanJob {
  return {
    job_id: stored.job_id,
    status: JobStatus.completed,
    status_url: statusUrl(stored.job_id),
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

export function runningView(
  jobId: string,
  chain: string,
  address: string,
  progress: ScanProgress | null,
  description?: WorkflowExecutionDescription,
): ScanJob {
  return {
    job_id: jobId,
    status: JobStatus.running,
    status_url: statusUrl(jobId),
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

export function progressOf(result: ScanResult): ScanJob['progress'] {
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
export function failureOf(error: unknown): { reason: string; message: string } {
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

export function statusUrl(jobId: string): string {
  return `/api/v2/scanner/scans/${encodeURIComponent(jobId)}`;
}
