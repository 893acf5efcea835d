import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http } from 'viem';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import {
  AUTHED,
  devnetRpcUrls,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testScanConfig,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { startPrunedRpc } from '../support/prunedRpc.ts';

type Job = {
  job_id: string;
  status: string;
  result: {
    engines: Record<string, { status: string }>;
    checks: { id: string; category: string; status: string; detail: string }[];
  } | null;
};

describe('a pruned provider', () => {
  // Log reads in chunks the provider accepts, as an operator configures for a capped provider.
  const scanConfig = testScanConfig({ SCAN_LOG_CHUNK_BLOCKS: '100' });
  const env = isolatedEnv();
  let pruned: Awaited<ReturnType<typeof startPrunedRpc>>;
  let workers: RunningWorkers;
  let backend: TestBackend;

  beforeAll(async () => {
    pruned = await startPrunedRpc(testStack().rpcUrl, { keepBlocks: 64, maxLogRange: 128 });
    const rpcUrls = devnetRpcUrls(pruned.url);
    [workers, backend] = await Promise.all([
      startTestWorkers(env, { rpcUrls, scanConfig }),
      startTestBackend(env, { rpcUrls }),
    ]);
  });
  afterAll(async () => {
    await backend?.close();
    await workers?.shutdown();
    await pruned?.close();
  });

  it('degrades the deployer engine alone when the creation cannot be read, and the scan completes', async () => {
    // The premise: the token's creation lies beyond what the provider keeps. The scenario mines
    // in batches, so on a young devnet the head is moved on first (empty blocks harm no test).
    const chain = createPublicClient({ transport: http(testStack().rpcUrl) });
    if ((await chain.getBlockNumber({ cacheTime: 0 })) <= 200n)
      await createDevnetClient(testStack().rpcUrl).mine({ blocks: 256 });
    const head = await chain.getBlockNumber({ cacheTime: 0 });
    expect(head).toBeGreaterThan(200n);

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
    const job = response.json<Job>();
    expect(job.status).toBe('completed');
    expect(pruned.refused()).toBeGreaterThan(0);
    const result = job.result;
    if (!result) throw new Error('no result');
    for (const engine of Object.values(result.engines)) expect(engine.status).toBe('ok');
    const deployerChecks = result.checks.filter((check) => check.category === 'deployer_reputation');
    expect(deployerChecks.length).toBeGreaterThan(0);
    for (const check of deployerChecks) {
      expect(check.status).toBe('unknown');
      expect(check.detail).toContain('creating transaction could not be found');
    }
    const decided = result.checks.filter(
      (check) => check.category === 'contract_safety' && check.status !== 'unknown',
    );
    expect(decided.length).toBeGreaterThan(0);
  });
});
