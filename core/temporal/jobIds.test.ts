import { describe, expect, it } from 'vitest';
import { VigilError } from '../errors/vigilError.ts';
import {
  formatJobId,
  isJobOf,
  JOB_ID_PATTERN,
  jobIdPattern,
  parseJobId,
  requireJob,
  scanWorkflowId,
} from './jobIds.ts';

describe('job ids', () => {
  const workflowId = scanWorkflowId('devnet', '0x5FbDB2315678afecb367f032d93F642f64180aa3');
  const runId = '0190a4f1-6f3c-7b7e-9a4e-3f1c2b7d8e9f';

  it('round-trips workflow id and run id', () => {
    expect(parseJobId(formatJobId({ workflowId, runId }))).toEqual({ workflowId, runId });
  });

  it('rejects what Vigil could not have issued', () => {
    expect(parseJobId('nope')).toBeUndefined();
    expect(parseJobId(`${workflowId}:not-a-uuid`)).toBeUndefined();
    expect(parseJobId(`scan:devnet:../../etc:${runId}`)).toBeUndefined();
    expect(parseJobId(`${workflowId}:${runId}x`)).toBeUndefined();
  });

  it('documents as a pattern exactly the ids it parses', () => {
    const ids = [
      formatJobId({ workflowId, runId }),
      formatJobId({
        workflowId: 'report:wallet_solana_devnet:7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
        runId,
      }),
      'nope',
      `${workflowId}:not-a-uuid`,
      `scan:devnet:../../etc:${runId}`,
      `${workflowId}:${runId}x`,
      `SCAN:devnet:0x5FbDB2315678afecb367f032d93F642f64180aa3:${runId}`,
    ];
    for (const id of ids) expect(JOB_ID_PATTERN.test(id), id).toBe(parseJobId(id) !== undefined);
    expect(ids.filter((id) => JOB_ID_PATTERN.test(id))).toHaveLength(2);
    // Of one kind: a report's id, not a scan's.
    expect(ids.filter((id) => jobIdPattern('report').test(id))).toEqual([ids[1]]);
  });

  it('begins with the deployment’s scope, and is of a kind only within that scope', () => {
    const scoped = parseJobId(
      formatJobId({
        workflowId: scanWorkflowId('devnet', '0x5FbDB2315678afecb367f032d93F642f64180aa3', 'staging-'),
        runId,
      }),
    );
    if (!scoped) throw new Error('a scoped id does not parse');
    expect(scoped.workflowId.startsWith('staging-scan:devnet:')).toBe(true);
    expect(JOB_ID_PATTERN.test(formatJobId(scoped))).toBe(true);
    expect(isJobOf(scoped, 'scan', 'staging-')).toBe(true);
    expect(isJobOf(scoped, 'scan', '')).toBe(false);
    expect(isJobOf(scoped, 'scan', 'prod-')).toBe(false);
    expect(isJobOf(scoped, 'report', 'staging-')).toBe(false);
    expect(isJobOf({ workflowId, runId }, 'scan', '')).toBe(true);
  });

  it('requires a job of its kind and scope: 400 when malformed, 404 when another’s', () => {
    const id = formatJobId({
      workflowId: scanWorkflowId('devnet', '0x5FbDB2315678afecb367f032d93F642f64180aa3', 'staging-'),
      runId,
    });
    expect(requireJob(id, 'scan', 'staging-')).toEqual(parseJobId(id));
    const failure = (jobId: string, kind: string, scope: string) => {
      try {
        requireJob(jobId, kind, scope);
      } catch (error) {
        if (error instanceof VigilError) return [error.status, error.code, error.extensions.field];
        throw error;
      }
      return undefined;
    };
    expect(failure('nope', 'scan', 'staging-')).toEqual([400, 'bad_request', 'job_id']);
    expect(failure(id, 'scan', '')).toEqual([404, 'job_not_found', undefined]);
    expect(failure(id, 'report', 'staging-')).toEqual([404, 'job_not_found', undefined]);
  });
});
