import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobId } from '../../core/temporal/jobIds.ts';
import { deployCleanTokens } from '../../infra/devnet/bulkTokens.ts';
import {
  isolatedEnv,
  startTestBackend,
  testStack,
  type TestBackend,
  withoutWorkers,
} from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { until } from '../support/until.ts';

// Only a caller that started or joined a scan, or an operator key, cancels it; a job joined by
// several callers goes on while any of them holds it. Real Temporal and Redis, real HTTP, several
// callers. No worker polls these queues: jobs stay running, and what a cancel did is read from
// the workflow's own history. The tokens are this file's own: a job's workflow id is its token's,
// and another test scanning the same token would join these jobs that never run.

/** Its own dev account on the devnet, so its deployments never race another test's nonces. */
const DEPLOYER_INDEX = 8;

const KEYS = {
  alice: 'alice-key-0123456789abcdef',
  bob: 'bob-key-0123456789abcdef0',
  ops: 'ops-key-0123456789abcdef0',
};

let backend: TestBackend;
let url: string;
let addresses: string[] = [];
beforeAll(async () => {
  addresses = await deployCleanTokens(testStack().rpcUrl, { count: 7, accountIndex: DEPLOYER_INDEX });
  backend = await startTestBackend(
    withoutWorkers(
      isolatedEnv({
        API_KEYS: `alice:pro:${KEYS.alice},bob:pro:${KEYS.bob},ops:operator:${KEYS.ops}`,
        TOOL_WAIT_MS: '3000',
      }),
    ),
  );
  url = await listenOnLoopback(backend.app);
});
afterAll(() => backend.close());

/** The file's tokens by name. */
const tokens = () => {
  const [high_tax = '', buy_tax = '', transfer_tax = '', low_fee = '', pausable = '', cooldown = ''] =
    addresses;
  const token = (address: string) => ({ address });
  return {
    high_tax: token(high_tax),
    buy_tax: token(buy_tax),
    transfer_tax: token(transfer_tax),
    low_fee: token(low_fee),
    pausable: token(pausable),
    cooldown: token(cooldown),
  };
};
const as = (who: keyof typeof KEYS | { clientId: string }) =>
  typeof who === 'string' ? { 'x-api-key': KEYS[who] } : { 'x-client-id': who.clientId };

async function start(who: Parameters<typeof as>[0], address: string): Promise<string> {
  const response = await fetch(`${url}/api/v2/scanner/scans`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...as(who) },
    body: JSON.stringify({ chain: 'devnet', address, fresh: true }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const cancel = (who: Parameters<typeof as>[0], jobId: string) =>
  fetch(`${url}/api/v2/scanner/scans/${encodeURIComponent(jobId)}`, { method: 'DELETE', headers: as(who) });

/** Whether the workflow run was asked to cancel (its history says so), and its status. */
async function runState(jobId: string): Promise<{ cancelRequested: boolean; status: string }> {
  const ref = parseJobId(jobId);
  if (!ref) throw new Error(`not a job id: ${jobId}`);
  const handle = backend.deps.temporal.client.workflow.getHandle(ref.workflowId, ref.runId);
  const [history, description] = await Promise.all([handle.fetchHistory(), handle.describe()]);
  return {
    cancelRequested: (history.events ?? []).some(
      (event) => event.workflowExecutionCancelRequestedEventAttributes,
    ),
    status: description.status.name,
  };
}

describe('cancelling scan jobs', () => {
  it('refuses a caller that never held the job (another key, or anonymous), and the job goes on', async () => {
    const jobId = await start('alice', tokens().high_tax.address);
    for (const stranger of ['bob', { clientId: `stranger-${Date.now()}` }] as const) {
      const refused = await cancel(stranger, jobId);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'job_not_owned' });
    }
    expect(await runState(jobId)).toEqual({ cancelRequested: false, status: 'RUNNING' });
    // Its starter may still cancel it.
    expect((await cancel('alice', jobId)).status).toBe(202);
    expect((await runState(jobId)).cancelRequested).toBe(true);
  });

  it('keeps a job two callers joined running until the last of them cancels', async () => {
    const jobId = await start('alice', tokens().buy_tax.address);
    expect(await start('bob', tokens().buy_tax.address)).toBe(jobId);
    const first = await cancel('alice', jobId);
    expect(first.status).toBe(202);
    expect(await first.json()).toMatchObject({
      status: 'running',
      cancel: { outcome: 'detached', holders_left: 1 },
    });
    expect((await runState(jobId)).cancelRequested).toBe(false);
    // Detached: a second cancel by the same caller is not its to make any more.
    expect((await cancel('alice', jobId)).status).toBe(403);
    const last = await cancel('bob', jobId);
    expect(await last.json()).toMatchObject({ cancel: { outcome: 'cancelled', holders_left: 0 } });
    expect((await runState(jobId)).cancelRequested).toBe(true);
  });

  it('lets anonymous callers read only the jobs they started or joined', async () => {
    const owner = { clientId: `reader-owner-${Date.now()}` };
    const jobId = await start(owner, tokens().cooldown.address);
    const read = (headers: Record<string, string>) =>
      fetch(`${url}/api/v2/scanner/scans/${encodeURIComponent(jobId)}`, { headers });
    expect((await read(as(owner))).status).toBe(200);
    const stranger = await read(as({ clientId: `reader-stranger-${Date.now()}` }));
    expect(stranger.status).toBe(403);
    expect(await stranger.json()).toMatchObject({ code: 'job_not_owned' });
    expect((await read(as('bob'))).status).toBe(200);
  });

  it('lets an operator key cancel anyone’s job', async () => {
    const jobId = await start({ clientId: `owner-${Date.now()}` }, tokens().transfer_tax.address);
    await start('bob', tokens().transfer_tax.address);
    const forced = await cancel('ops', jobId);
    expect(forced.status).toBe(202);
    expect(await forced.json()).toMatchObject({ cancel: { outcome: 'cancelled' } });
    expect((await runState(jobId)).cancelRequested).toBe(true);
  });

  it('holds a job for a tool call while it waits: its starter’s cancel only detaches', async () => {
    const address = tokens().low_fee.address;
    const jobId = await start('alice', address);
    const toolCall = fetch(`${url}/api/v1/x402-tools/token_risk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-id': `waiting-tool-${Date.now()}` },
      body: JSON.stringify({ chain: 'devnet', address }),
    });
    // The tool call has joined the job once it holds it beside alice.
    await until(async () =>
      (await backend.deps.redis.scard(`scanjob:${jobId}:holders`)) === 2 ? true : undefined,
    );
    const detached = await cancel('alice', jobId);
    expect(await detached.json()).toMatchObject({ cancel: { outcome: 'detached', holders_left: 1 } });
    // The call waited its full TOOL_WAIT_MS for the job (no worker runs it) and was not cut short.
    const answer = await toolCall;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ code: 'tool_failed', reason: 'timed_out', job_id: jobId });
    expect(await runState(jobId)).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  it('starts a fresh run for a caller that comes after the last holder cancelled', async () => {
    const address = tokens().pausable.address;
    const jobId = await start('bob', address);
    expect((await cancel('bob', jobId)).status).toBe(202);
    const next = await start('alice', address);
    expect(next).not.toBe(jobId);
    expect(parseJobId(next)?.workflowId).toBe(parseJobId(jobId)?.workflowId);
    // The cancelled run ends; the new one runs for alice, who may cancel it.
    expect((await runState(jobId)).status).not.toBe('RUNNING');
    expect((await runState(next)).status).toBe('RUNNING');
    expect((await cancel('bob', next)).status).toBe(403);
  });
});
