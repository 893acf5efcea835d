import { Worker } from '@temporalio/worker';
import { recordHistory } from '../support/recordHistory.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanResult } from '../../scanner/core/result.ts';
import { ScanStore } from '../../scanner/scanStore.ts';
import { parseJobId, scanWorkflowId } from '../../core/temporal/jobIds.ts';
import { SearchAttr } from '../../core/temporal/searchAttributes.ts';
import { freePort } from '../../infra/stack/processes.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { WORKFLOWS_ENTRY } from '../../workers/workflowBundle.ts';
import {
  AUTHED,
  devnetRpcUrls,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testStack,
  type TestBackend,
  withoutWorkers,
} from '../support/fixtures.ts';
import { until } from '../support/until.ts';

type Job = {
  job_id: string;
  status: string;
  cached: boolean;
  closed_at: string | null;
  progress: { stage: string; engines: Record<string, { status: string }> } | null;
  result: {
    tier: string;
    risk_score: number;
    gates: string[];
    flags: { id: string; detail: string; evidence: { summary: string; block?: string }[] }[];
    checks: {
      id: string;
      status: string;
      severity: string;
      downgraded?: { from: string; reason: string };
      evidence: { block?: string }[];
    }[];
    block_number: string;
    allowlisted: boolean;
    explanation: string[];
  } | null;
  error: { reason: string; message: string } | null;
};

describe('token scans through the API, Temporal and a real scanner worker', () => {
  const env = isolatedEnv();
  let workers: RunningWorkers;
  let backend: TestBackend;
  const { scenario } = testStack();

  beforeAll(async () => {
    [workers, backend] = await Promise.all([startTestWorkers(env), startTestBackend(env)]);
  });
  afterAll(async () => {
    await backend?.close();
    await workers?.shutdown();
  });

  const scan = async (address: string, extra: Record<string, unknown> = {}) => {
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v2/scanner/scans',
      headers: AUTHED,
      payload: { chain: 'devnet', address, wait_ms: 20_000, ...extra },
    });
    return { status: response.statusCode, job: response.json<Job>(), headers: response.headers };
  };

  it.each(Object.entries(scenario.tokens))(
    'gives the %s token its expected flags and tier',
    async (_key, token) => {
      const { status, job } = await scan(token.address, { fresh: true });
      expect(status).toBe(200);
      expect(job.status).toBe('completed');
      const result = job.result;
      if (!result) throw new Error('no result');
      // clone_of_harmful depends on what this worker scanned before (the order of these tests);
      // test/integration/cloneEvidence.test.ts covers it.
      const failed = result.checks
        .filter((check) => check.status === 'fail' && check.id !== 'clone_of_harmful')
        .map((check) => check.id)
        .sort();
      expect(failed).toEqual([...token.expected.flags].sort());
      expect(result.tier).toBe(token.expected.tier);
      expect(result.allowlisted).toBe(token.expected.allowlisted);
      // Every verdict names the block it was taken at.
      for (const check of result.checks)
        for (const evidence of check.evidence)
          if (evidence.block !== undefined) expect(/^\d+$/.test(evidence.block)).toBe(true);
      if (token.expected.honeypot) {
        expect(result.gates).toContain('is_honeypot');
        const flag = result.flags.find((entry) => entry.id === 'is_honeypot');
        expect(flag?.detail).toContain(token.expected.sellRevertReason);
        expect(flag?.evidence.every((evidence) => evidence.block === result.block_number)).toBe(true);
      }
      if (token.expected.tier !== 'critical') expect(result.gates).toEqual([]);
      expect(job.progress?.stage).toBe('done');
      expect(Object.values(job.progress?.engines ?? {}).map((engine) => engine.status)).toEqual(
        Array(6).fill('completed'),
      );
    },
  );

  it('explains a downgrade: a mint nobody can call any more weighs nothing, and says why', async () => {
    const { job } = await scan(scenario.tokens.renounced_mintable.address);
    const mint = job.result?.checks.find((check) => check.id === 'is_mintable');
    expect(mint).toMatchObject({ status: 'fail', severity: 'info', downgraded: { from: 'high' } });
    expect(mint?.downgraded?.reason).toContain('renounced');
    expect(job.result?.gates).toEqual([]);
  });

  it('calls an allowlisted stablecoin no scam, and says it is allowlisted', async () => {
    const { job } = await scan(scenario.tokens.stable.address);
    expect(job.result?.allowlisted).toBe(true);
    expect(job.result?.tier).toBe('low');
    expect(job.result?.explanation.join('\n')).toContain('allowlisted by TOKEN_ALLOWLIST_DEVNET');
    const pausable = job.result?.checks.find((check) => check.id === 'transfer_pausable');
    expect(pausable?.downgraded?.reason).toContain('allowlisted');
  });

  it('stores the result, caches it with a TTL, and answers a repeat from the cache', async () => {
    const token = scenario.tokens.mintable.address;
    const first = await scan(token, { fresh: true });
    // The permanent record is written beside the answer (word goes out once the Redis copies are).
    const stored = await until(() => backend.deps.scans.byJobId(first.job.job_id));
    expect(stored?.result.address).toBe(token);
    const ttl = await backend.deps.redis.ttl(ScanStore.cacheKey('devnet', token));
    expect(ttl).toBeGreaterThan(0);
    const repeat = await scan(token.toLowerCase());
    expect(repeat.status).toBe(200);
    expect(repeat.job).toMatchObject({ cached: true, job_id: first.job.job_id, status: 'completed' });
    // Served without the response schema's second pass: still exactly the stored result.
    expect(repeat.job.result).toEqual(first.job.result);
    const read = await backend.app.inject({
      method: 'GET',
      url: `/api/v2/scanner/scans/${first.job.job_id}`,
      headers: AUTHED,
    });
    expect(read.json<Job>().result?.tier).toBe(first.job.result?.tier);
  });

  it('answers a waiting request as soon as the worker has stored the result, not at the workflow’s close', async () => {
    const { status, job } = await scan(scenario.tokens.low_fee.address, { fresh: true });
    expect(status).toBe(200);
    const stored = await until(() => backend.deps.scans.byJobId(job.job_id));
    // Read from the job's Redis copy on the worker's word: the answer carries the stored copy's
    // own time. Waiting for the workflow's result instead stamps the answer when it arrives,
    // after the permanent record, the fingerprint and the workflow's completion.
    expect(job.closed_at).toBe(stored.stored_at);
    expect(job.result).toEqual(stored.result);
  });

  it('answers a job from the permanent record once Redis and Temporal no longer know it', async () => {
    const { job } = await scan(scenario.tokens.clean.address);
    const result = ScanResult.parse(job.result);
    // A job id whose workflow Temporal never saw (as after its retention period).
    const jobId = `${scanWorkflowId('devnet', scenario.tokens.clean.address, backend.deps.jobScope)}:0190a4f1-6f3c-7b7e-9a4e-3f1c2b7d8e9f`;
    await backend.deps.scans.save(jobId, result);
    await backend.deps.redis.del(ScanStore.jobKey(jobId));
    const response = await backend.app.inject({
      method: 'GET',
      url: `/api/v2/scanner/scans/${jobId}`,
      headers: AUTHED,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<Job>()).toMatchObject({
      job_id: jobId,
      status: 'completed',
      result: { tier: result.tier },
    });
  });

  it('sets search attributes so operators can find scans in the Temporal UI', async () => {
    const { job } = await scan(scenario.tokens.honeypot.address, { fresh: true });
    const ref = parseJobId(job.job_id);
    if (!ref) throw new Error('bad job id');
    // The workflow records the tier as it closes, just after the answer went out.
    const description = await until(async () => {
      const found = await backend.deps.temporal.client.workflow
        .getHandle(ref.workflowId, ref.runId)
        .describe();
      return found.status.name === 'RUNNING' ? undefined : found;
    });
    const attrs = description.typedSearchAttributes;
    expect(attrs.get(SearchAttr.JobKind)).toBe('token_scan');
    expect(attrs.get(SearchAttr.Chain)).toBe('devnet');
    expect(attrs.get(SearchAttr.TokenAddress)).toBe(scenario.tokens.honeypot.address);
    expect(attrs.get(SearchAttr.RiskTier)).toBe('critical');
  });

  it('joins concurrent identical requests onto one job', async () => {
    const address = scenario.tokens.clean.address;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => scan(address, { fresh: true, wait_ms: 0 })),
    );
    const ids = new Set(answers.map((answer) => answer.job.job_id));
    expect(ids.size).toBe(1);
    for (const answer of answers) {
      expect([200, 202]).toContain(answer.status);
      if (answer.status === 202)
        expect(answer.headers.location).toBe(
          answer.job.job_id && `/api/v2/scanner/scans/${encodeURIComponent(answer.job.job_id)}`,
        );
    }
    const [jobId] = ids;
    const done = await until(async () => {
      const job = (
        await backend.app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${jobId}`, headers: AUTHED })
      ).json<Job>();
      return job.status === 'completed' ? job : undefined;
    });
    expect(done.result?.tier).toBe('low');
  });

  it('never joins a scan another deployment sharing the namespace runs (its scope begins the id)', async () => {
    // A second deployment: its own TASK_QUEUE_PREFIX, database and workers, the same Temporal.
    const otherEnv = isolatedEnv();
    const [otherWorkers, other] = await Promise.all([startTestWorkers(otherEnv), startTestBackend(otherEnv)]);
    try {
      const address = scenario.tokens.clean.address;
      const mine = await scan(address, { fresh: true, wait_ms: 0 });
      const theirs = (
        await other.app.inject({
          method: 'POST',
          url: '/api/v2/scanner/scans',
          headers: AUTHED,
          payload: { chain: 'devnet', address, fresh: true, wait_ms: 20_000 },
        })
      ).json<Job>();
      expect(mine.job.job_id.startsWith(scanWorkflowId('devnet', address, env.TASK_QUEUE_PREFIX))).toBe(true);
      expect(theirs.job_id.startsWith(scanWorkflowId('devnet', address, otherEnv.TASK_QUEUE_PREFIX))).toBe(
        true,
      );
      expect(theirs.status).toBe('completed');
      // Each deployment's workers stored its own scan in its own database.
      expect((await until(() => other.deps.scans.byJobId(theirs.job_id))).result.address).toBe(address);
      expect(await other.deps.scans.byJobId(mine.job.job_id)).toBeUndefined();
      // One deployment's job is no job of the other's.
      const foreign = await other.app.inject({
        method: 'GET',
        url: `/api/v2/scanner/scans/${mine.job.job_id}`,
        headers: AUTHED,
      });
      expect(foreign.statusCode).toBe(404);
    } finally {
      await other.close();
      await otherWorkers.shutdown();
    }
  });

  it('refuses to cancel a finished job (409)', async () => {
    const { job } = await scan(scenario.tokens.clean.address);
    const response = await backend.app.inject({
      method: 'DELETE',
      url: `/api/v2/scanner/scans/${job.job_id}`,
      headers: AUTHED,
    });
    expect(response.statusCode).toBe(409);
  });

  it('replays its own recorded history deterministically', async () => {
    const { job } = await scan(scenario.tokens.high_tax.address, { fresh: true });
    const ref = parseJobId(job.job_id);
    if (!ref) throw new Error('bad job id');
    const history = await backend.deps.temporal.client.workflow
      .getHandle(ref.workflowId, ref.runId)
      .fetchHistory();
    await Worker.runReplayHistory({ workflowsPath: WORKFLOWS_ENTRY }, history, ref.workflowId);
    if (process.env.RECORD_HISTORIES) {
      recordHistory('scanToken', history);
    }
  });
});

describe('cancelling and failing scans', () => {
  const env = isolatedEnv();

  it('cancels a queued job; the worker that picks it up stops it', async () => {
    const idle = withoutWorkers(env);
    const backend = await startTestBackend(idle);
    let workers: RunningWorkers | undefined;
    try {
      const address = testStack().scenario.tokens.clean.address;
      const started = await backend.app.inject({
        method: 'POST',
        url: '/api/v2/scanner/scans',
        headers: AUTHED,
        payload: { chain: 'devnet', address, fresh: true },
      });
      expect(started.statusCode).toBe(202);
      const jobId = started.json<Job>().job_id;
      const cancel = await backend.app.inject({
        method: 'DELETE',
        url: `/api/v2/scanner/scans/${jobId}`,
        headers: AUTHED,
      });
      expect(cancel.statusCode).toBe(202);
      workers = await startTestWorkers(idle);
      const job = await until(async () => {
        const current = (
          await backend.app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${jobId}`, headers: AUTHED })
        ).json<Job>();
        return current.status === 'cancelled' ? current : undefined;
      });
      expect(job.error?.reason).toBe('cancelled');
    } finally {
      await backend.close();
      await workers?.shutdown();
    }
  });

  it('scans through a dead provider onto a healthy one, and names the dead one in X-Degraded-Stores', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/rpc/secret-key-123456789`;
    const rpcUrls = devnetRpcUrls([dead, testStack().rpcUrl]);
    // Its own database and queues: this scan's cached result must not answer other tests.
    const own = isolatedEnv();
    const [backend, workers] = await Promise.all([
      startTestBackend(own, { rpcUrls }),
      startTestWorkers(own, { rpcUrls }),
    ]);
    try {
      const response = await backend.app.inject({
        method: 'POST',
        url: '/api/v2/scanner/scans',
        headers: AUTHED,
        payload: {
          chain: 'devnet',
          address: testStack().scenario.tokens.clean.address,
          wait_ms: 30_000,
          fresh: true,
        },
      });
      expect(response.statusCode).toBe(200);
      const job = response.json<Job & { result: { degraded_providers: string[] } | null }>();
      expect(job.result?.tier).toBe('low');
      expect(job.result?.degraded_providers).toEqual(['rpc:devnet:0']);
      expect(response.headers['x-degraded-stores']).toBe('rpc:devnet:0');
      expect(response.body).not.toContain('secret-key-123456789');
      const read = await backend.app.inject({
        method: 'GET',
        url: `/api/v2/scanner/scans/${job.job_id}`,
        headers: AUTHED,
      });
      expect(read.headers['x-degraded-stores']).toBe('rpc:devnet:0');
    } finally {
      await backend.close();
      await workers.shutdown();
    }
  });

  it('fails the job with a clear reason when the chain is unreachable, and the API stays up', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/rpc/secret-key-123456789`;
    const rpcUrls = devnetRpcUrls(dead);
    const [backend, workers] = await Promise.all([
      startTestBackend(env, { rpcUrls }),
      startTestWorkers(env, { rpcUrls }),
    ]);
    try {
      const response = await backend.app.inject({
        method: 'POST',
        url: '/api/v2/scanner/scans',
        headers: AUTHED,
        payload: { chain: 'devnet', address: testStack().scenario.tokens.clean.address, wait_ms: 30_000 },
      });
      expect(response.statusCode).toBe(200);
      const job = response.json<Job>();
      expect(job.status).toBe('failed');
      expect(job.error?.reason).toBe('chain_unreachable');
      expect(job.error?.message).toContain('RPC');
      expect(response.body).not.toContain('secret-key-123456789');
      expect((await backend.app.inject({ method: 'GET', url: '/live' })).statusCode).toBe(200);
      const health = (await backend.app.inject({ method: 'GET', url: '/health' })).json<{
        degraded: string[];
      }>();
      expect(health.degraded).toEqual(['rpc:devnet:0']);
    } finally {
      await backend.close();
      await workers.shutdown();
    }
  });
});
