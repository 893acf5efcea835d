import { VigilError } from '../errors/vigilError.ts';
import { Reason } from '../errors/reasons.ts';

/**
 * A job is one workflow run. Its id is `<workflow id>:<run id>`: the workflow id is deterministic
 * (identical concurrent requests join the running workflow), the run id tells runs of the same
 * workflow id apart once a cached result has expired and a new scan runs.
 */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * A deployment's scope: its TASK_QUEUE_PREFIX, which also begins its workflow ids, so deployments
 * (or test runs) sharing a Temporal namespace never join each other's running jobs. Empty by
 * default, when a job id is `<kind>:<...>`.
 */
const SCOPE = '[A-Za-z0-9._-]{0,64}';
const WORKFLOW_ID = new RegExp(`^${SCOPE}[a-z_]+:[a-z0-9_-]+:[A-Za-z0-9]{16,64}$`);

/**
 * The ids parseJobId accepts, as one pattern (of one kind of job, `report`, say, when given):
 * routes put it in their parameter schemas, so their documents say what a job id looks like and a
 * malformed one is refused by validation (400).
 */
export function jobIdPattern(kind?: string): RegExp {
  const prefix = kind === undefined ? '[a-z_]+' : kind;
  return new RegExp(`^${SCOPE}${prefix}:[a-z0-9_-]+:[A-Za-z0-9]{16,64}:${RUN_ID.source.slice(1, -1)}$`);
}

export const JOB_ID_PATTERN = jobIdPattern();

export interface JobRef {
  readonly workflowId: string;
  readonly runId: string;
}

export function scanWorkflowId(chain: string, address: string, scope = ''): string {
  return `${scope}scan:${chain}:${address}`;
}

export function formatJobId(ref: JobRef): string {
  return `${ref.workflowId}:${ref.runId}`;
}

/** Parses a job id from a URL; undefined when it is not one Vigil could have issued. */
export function parseJobId(jobId: string): JobRef | undefined {
  const cut = jobId.lastIndexOf(':');
  if (cut < 0) return undefined;
  const workflowId = jobId.slice(0, cut);
  const runId = jobId.slice(cut + 1);
  if (!RUN_ID.test(runId) || !WORKFLOW_ID.test(workflowId)) return undefined;
  return { workflowId, runId };
}

/**
 * Whether a well-formed job is of this kind and this deployment's (its scope begins the id): one
 * that is not is no job here (404), though another deployment may know it.
 */
export function isJobOf(ref: JobRef, kind: string, scope: string): boolean {
  return ref.workflowId.startsWith(`${scope}${kind}:`);
}

/**
 * The job a route names, if it is this deployment's job of this kind: a malformed id is a 400
 * (`field: job_id`), another kind's or another deployment's a 404 (no such job here).
 */
export function requireJob(jobId: string, kind: string, scope: string): JobRef {
  const ref = parseJobId(jobId);
  if (!ref)
    throw new VigilError(Reason.badRequest, `This is not a ${kind} job id.`, {
      extensions: { field: 'job_id' },
    });
  if (!isJobOf(ref, kind, scope)) throw new VigilError(Reason.jobNotFound, `No ${kind} job ${jobId}.`);
  return ref;
}
