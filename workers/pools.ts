import type { ChainClients } from '../core/chains/chainClients.ts';
import type { ScanStore } from '../core/stores/scans.ts';
import { TaskQueue } from '../core/temporal/taskQueues.ts';
import { createScannerActivities } from '../activities/scanner/index.ts';
import type { WorkerEnv } from './config.ts';

/** What a pool's activities may depend on; created once per process, shared by its pools. */
export interface PoolDeps {
  chains: ChainClients;
  scans: ScanStore;
}

export interface PoolDefinition {
  activities(deps: PoolDeps): object;
  /** Concurrent activity and workflow-task slots. */
  slots(env: WorkerEnv): { activities: number; workflows: number };
}

/** Every task queue that has a pool today. Adding a queue here gives it `npm run worker -- <queue>`. */
export const POOLS: Partial<Record<TaskQueue, PoolDefinition>> = {
  [TaskQueue.scanner]: {
    activities: (deps) => createScannerActivities(deps),
    slots: (env) => ({ activities: env.WORKER_SCANNER_ACTIVITIES, workflows: env.WORKER_SCANNER_WORKFLOWS }),
  },
};

export function poolQueues(): TaskQueue[] {
  return Object.keys(POOLS) as TaskQueue[];
}
