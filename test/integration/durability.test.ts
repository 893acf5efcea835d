import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployCleanTokens } from '../../infra/devnet/bulkTokens.ts';
import { type ManagedProcess, REPO_ROOT, spawnService } from '../../infra/stack/processes.ts';
import { AUTHED, isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { startSlowRpc } from '../support/slowRpc.ts';
import { until } from '../support/until.ts';

const SCANS = 16;
/** A dev account no other test sends from, so nonces never collide on the shared devnet. */
const DEPLOYER_INDEX = 7;

/** The scanner pool as its own process, exactly as `npm run worker -- scanner` runs it. */
function spawnScannerWorker(env: Record<string, string>): Promise<ManagedProcess> {
  return spawnService({
    name: 'scanner-worker',
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'scanner'],
    env: { ...process.env, ...env },
    readyTimeoutMs: 60_000,
    ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
  });
}

describe('durability', () => {
  const { rpcUrl } = testStack();
  // Few slots, so the first worker is still busy when it is killed.
  const env = isolatedEnv({
    RPC_URLS_DEVNET: rpcUrl,
    WORKER_SCANNER_ACTIVITIES: '2',
    WORKER_SCANNER_WORKFLOWS: '2',
  });
  let backend: TestBackend;
  const workers: ManagedProcess[] = [];

  beforeAll(async () => {
    backend = await startTestBackend(env);
  });
  afterAll(async () => {
    await Promise.allSettled(workers.map((worker) => worker.stop(5_000)));
    await backend?.close();
  });

  const status = async (jobId: string) =>
    (
      await backend.app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${jobId}`, headers: AUTHED })
    ).json<{
      status: string;
      result: { tier: string } | null;
    }>();
  const completed = async (jobIds: string[]) =>
    (await Promise.all(jobIds.map(status))).filter((job) => job.status === 'completed').length;

  it('completes every scan after the scanner worker is SIGKILLed mid-run, and every job id still answers', async () => {
    const tokens = await deployCleanTokens(rpcUrl, {
      count: SCANS,
      accountIndex: DEPLOYER_INDEX,
      withLiquidity: true,
      renounce: true,
    });
    const jobIds = await Promise.all(
      tokens.map(async (address) => {
        const response = await backend.app.inject({
          method: 'POST',
          url: '/api/v2/scanner/scans',
          headers: AUTHED,
          payload: { chain: 'devnet', address },
        });
        expect(response.statusCode, response.body).toBe(202);
        return response.json<{ job_id: string }>().job_id;
      }),
    );

    // The first worker reads the chain through injected latency, so scans are still in flight
    // (mid-activity or between steps) when it is killed.
    const slow = await startSlowRpc(rpcUrl, 150);
    const first = await spawnScannerWorker({ ...env, RPC_URLS_DEVNET: slow.url });
    workers.push(first);
    await until(async () => ((await completed(jobIds)) >= 1 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    first.child.kill('SIGKILL');
    await first.exited;
    await slow.close();
    const doneAtKill = await completed(jobIds);
    expect(doneAtKill).toBeLessThan(SCANS / 2);

    const fresh = await spawnScannerWorker(env);
    workers.push(fresh);
    await until(async () => ((await completed(jobIds)) === SCANS ? true : undefined), {
      timeoutMs: 90_000,
      intervalMs: 250,
    });
    // The tokens are identical launches: every scan, interrupted or not, reaches the same verdict.
    const tiers = new Set<string | undefined>();
    for (const jobId of jobIds) {
      const job = await status(jobId);
      expect(job.status).toBe('completed');
      tiers.add(job.result?.tier);
    }
    expect(tiers.size).toBe(1);
    // Its own deadlines (first completion 60 s, the rest 90 s) bound it, not the suite's default.
  }, 180_000);
});
