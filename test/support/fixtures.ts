import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { BackendEnv } from '../../api/backend/config.ts';
import { buildBackendApp } from '../../api/backend/app.ts';
import { type BackendDeps, closeBackendDeps, createBackendDeps } from '../../api/backend/deps.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import type { ChainId } from '../../core/chains/registry.ts';
import { parseEnv } from '../../core/config/env.ts';
import { readScanConfig, type ScanConfig } from '../../scanner/config.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import { WorkerEnv } from '../../workers/config.ts';
import { type RunningWorkers, runWorkers } from '../../workers/runWorkers.ts';
import type { TestStack } from './globalSetup.ts';

export function testStack(): TestStack {
  return inject('stack');
}

const shortId = () => randomUUID().slice(0, 8);

/**
 * A Pro key every isolated backend knows: tests about scans send it (anonymous scans are
 * trial-gated); tests about anonymous metering leave it out.
 */
const TEST_API_KEY = 'vigil-test-key-0123456789abcdef';
export const AUTHED = { 'x-api-key': TEST_API_KEY } as const;

/**
 * Settings for one test: the shared services, with its own MongoDB database, Redis key prefix
 * and task queue prefix, so tests running in parallel never see each other's jobs or cache.
 */
export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const stack = testStack();
  const id = shortId();
  return {
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TASK_QUEUE_PREFIX: `test-${id}-`,
    MONGODB_URI: stack.mongoUri,
    MONGODB_DB: `vigil_test_${id}`,
    REDIS_URL: stack.redisUrl,
    REDIS_KEY_PREFIX: `test:${id}:`,
    LOG_LEVEL: 'warn',
    // Tests make many calls from one address and poll with one key (a job's status every few ms
    // would pass the pro tier's 60 a minute); the rate-limit tests set their own caps.
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
    RATE_LIMIT_ANONYMOUS_PER_DAY: '1000000',
    RATE_LIMIT_PRO_PER_MINUTE: '100000',
    RATE_LIMIT_PRO_PER_DAY: '1000000',
    RATE_LIMIT_CLIENTS_PER_NETWORK: '10000',
    API_KEYS: `tests:pro:${TEST_API_KEY}`,
    ...extra,
  };
}

/** The same settings with another task queue prefix: a queue no worker polls. */
export function withoutWorkers(env: Record<string, string>): Record<string, string> {
  return { ...env, TASK_QUEUE_PREFIX: `idle-${shortId()}-` };
}

export function devnetRpcUrls(rpcUrl: string | string[] = testStack().rpcUrl): Map<ChainId, string[]> {
  return new Map<ChainId, string[]>([
    ['devnet', Array.isArray(rpcUrl) ? rpcUrl : [rpcUrl]],
    ['solana_devnet', [testStack().solanaRpcUrl]],
  ]);
}

/** The scan configuration tests run with: the scenario's blue chip on the devnet allowlist. */
export function testScanConfig(extra: Record<string, string> = {}): ScanConfig {
  return readScanConfig({ TOKEN_ALLOWLIST_DEVNET: testStack().scenario.allowlist.join(','), ...extra });
}

export async function startTestWorkers(
  env: Record<string, string>,
  options: { rpcUrls?: Map<ChainId, string[]>; queues?: TaskQueue[]; scanConfig?: ScanConfig } = {},
): Promise<RunningWorkers> {
  return runWorkers(parseEnv(WorkerEnv, env), options.queues ?? [TaskQueue.scanner], {
    rpcUrls: options.rpcUrls ?? devnetRpcUrls(),
    scanConfig: options.scanConfig ?? testScanConfig(),
  });
}

export interface TestBackend {
  app: VigilApp;
  deps: BackendDeps;
  /** The settings it was started with (to start another one like it). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTestBackend(
  env: Record<string, string>,
  options: { rpcUrls?: Map<ChainId, string[]> } = {},
): Promise<TestBackend> {
  const deps = createBackendDeps(parseEnv(BackendEnv, env), { rpcUrls: options.rpcUrls ?? devnetRpcUrls() });
  const app = await buildBackendApp(deps, { publicUrl: 'http://vigil.test', logger: false });
  return {
    app,
    deps,
    env,
    async close() {
      await app.close();
      await closeBackendDeps(deps);
    },
  };
}
