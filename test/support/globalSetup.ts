import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAnvil } from '../../infra/devnet/anvil.ts';
import { deployScenario, type Scenario, scenarioGenesisTimestamp } from '../../infra/devnet/scenario.ts';
import { startSolanaDevnet } from '../../infra/devnet/solana/devnet.ts';
import type { SolanaPaymentsDevnet } from '../../infra/devnet/solana/payments.ts';
import { freePort } from '../../infra/stack/processes.ts';
import { startMongo, startRedis, startTemporal } from '../../infra/stack/services.ts';
import { poolQueues } from '../../workers/pools.ts';
import { loadWorkflowBundle, poolWorkflowsEntry } from '../../workers/workflowBundle.ts';
import { REPO_ROOT } from '../../infra/stack/processes.ts';

export interface TestStack {
  temporalAddress: string;
  redisUrl: string;
  mongoUri: string;
  rpcUrl: string;
  scenario: Scenario;
  /** The local Solana devnet (LiteSVM behind its JSON-RPC front) and its mints. */
  solanaRpcUrl: string;
  solanaMints: Record<string, { address: string; expected: { tier: string; flags: string[] } }>;
  /** x402 on the Solana devnet: the USDC-like mint, funded payers, the payee, the fee payer. */
  solanaPayments: SolanaPaymentsDevnet;
  dataDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: TestStack;
  }
}

/**
 * One set of real local services for the whole run: a Temporal dev server, Redis, a
 * MongoDB-wire server and an anvil devnet with the demo scenario. A service given by the
 * environment (TEMPORAL_ADDRESS, REDIS_URL, MONGODB_URI) is used instead of a local one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vigil-test-'));
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    await Promise.allSettled(stops.map((stop) => stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [temporal, redis, mongo, anvil, solana] = await Promise.all([
      process.env.TEMPORAL_ADDRESS ? undefined : freePort().then((port) => startTemporal({ port })),
      process.env.REDIS_URL ? undefined : freePort().then((port) => startRedis({ port })),
      process.env.MONGODB_URI
        ? undefined
        : freePort().then((port) => startMongo({ port, dir: path.join(dir, 'mongo') })),
      startAnvil({ genesisTimestamp: scenarioGenesisTimestamp() }),
      startSolanaDevnet(),
      // Warm the workflow bundle cache (each pool's, one after another) so every test file's
      // workers start at once.
      (async () => {
        for (const queue of poolQueues())
          await loadWorkflowBundle(path.join(REPO_ROOT, '.data', 'cache'), [], poolWorkflowsEntry(queue));
      })(),
    ]);
    for (const service of [temporal, redis, mongo])
      if (service) stops.push(() => service.process.stop(5_000));
    stops.push(
      () => anvil.stop(),
      () => solana.close(),
    );
    const scenario = await deployScenario(anvil.url);
    project.provide('stack', {
      temporalAddress: temporal?.address ?? process.env.TEMPORAL_ADDRESS ?? '',
      redisUrl: redis?.address ?? process.env.REDIS_URL ?? '',
      mongoUri: mongo?.address ?? process.env.MONGODB_URI ?? '',
      rpcUrl: anvil.url,
      scenario,
      solanaRpcUrl: solana.url,
      solanaMints: solana.mints,
      solanaPayments: solana.payments,
      dataDir: dir,
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
