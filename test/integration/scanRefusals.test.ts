import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobId } from '../../core/temporal/jobIds.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  type TestBackend,
  testStack,
} from '../support/fixtures.ts';

type Job = {
  job_id: string;
  status: string;
  result: {
    tier: string;
  } | null;
  error: { reason: string; message: string } | null;
};

/** A funded dev account: it holds no code. */
const EOA = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('a target the chain refuses', () => {
  const env = isolatedEnv();
  let workers: RunningWorkers;
  let backend: TestBackend;

  beforeAll(async () => {
    [workers, backend] = await Promise.all([startTestWorkers(env), startTestBackend(env)]);
  });
  afterAll(async () => {
    await backend?.close();
    await workers?.shutdown();
  });

  it('answers an address without code with 422 address_not_contract, read by the scan, and keeps its failed job', async () => {
    // No wait_ms: the request still waits for the scan's verdict on its target.
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v2/scanner/scans',
      headers: AUTHED,
      payload: { chain: 'devnet', address: EOA, fresh: true },
    });
    expect(response.statusCode).toBe(422);
    const problem = response.json<{ code: string; detail: string; job_id: string; status_url: string }>();
    expect(problem.code).toBe('address_not_contract');
    expect(problem.detail).toContain('holds no contract code');
    const ref = parseJobId(problem.job_id);
    if (!ref) throw new Error(`not a job id: ${problem.job_id}`);
    const description = await backend.deps.temporal.client.workflow
      .getHandle(ref.workflowId, ref.runId)
      .describe();
    expect(description.status.name).toBe('FAILED');
    const job = (
      await backend.app.inject({ method: 'GET', url: problem.status_url, headers: AUTHED })
    ).json<Job>();
    expect(job).toMatchObject({ status: 'failed', error: { reason: 'address_not_contract' } });
  });
  it('gives an anonymous caller its trial back when the scan refuses the target', async () => {
    const headers = { 'x-client-id': `scanner-refused-${Date.now()}` };
    const scan = (address: string) =>
      backend.app.inject({
        method: 'POST',
        url: '/api/v2/scanner/scans',
        headers,
        payload: { chain: 'devnet', address, fresh: true },
      });
    // More refusals than the allotment (3): each one's trial comes back.
    for (let index = 0; index < 4; index++) expect((await scan(EOA)).statusCode).toBe(422);
    const accepted = await scan(testStack().scenario.tokens.clean.address);
    expect(accepted.statusCode).toBeLessThan(300);
    expect(accepted.headers['x-trial-remaining']).toBe('2');
  });
});
