import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { IntEnv } from '../core/config/env.ts';
import type { AnalyticsLimits } from './analytics/engine.ts';

const REPO_DATA_DIR = fileURLToPath(new URL('../.data', import.meta.url));

/** Settings of the chain-data readers (the backend's analytics engine and data bus). */
export const ChaindataEnvShape = {
  VIGIL_DATA_DIR: z.string().optional(),
  /** Root of the indexed chain data; default: <VIGIL_DATA_DIR>/chaindata. */
  CHAINDATA_DIR: z.string().optional(),
  ANALYTICS_QUERY_TIMEOUT_MS: IntEnv(100, 600_000).default(5_000),
  ANALYTICS_MAX_ROWS: IntEnv(1, 1_000).default(1_000),
  ANALYTICS_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'a size such as 512MB')
    .default('512MB'),
  ANALYTICS_THREADS: IntEnv(1, 64).default(2),
  ANALYTICS_CONCURRENCY: IntEnv(1, 64).default(2),
  /** How far back the data bus reads live from a chain's RPC when the index does not cover it. */
  DATABUS_LIVE_WINDOW_BLOCKS: IntEnv(1, 1_000_000).default(5_000),
};

export interface ChaindataSettings {
  root: string;
  limits: Partial<AnalyticsLimits>;
  liveWindowBlocks: number;
}

export function chaindataSettings(env: {
  VIGIL_DATA_DIR?: string | undefined;
  CHAINDATA_DIR?: string | undefined;
  ANALYTICS_QUERY_TIMEOUT_MS: number;
  ANALYTICS_MAX_ROWS: number;
  ANALYTICS_MEMORY_LIMIT: string;
  ANALYTICS_THREADS: number;
  ANALYTICS_CONCURRENCY: number;
  DATABUS_LIVE_WINDOW_BLOCKS: number;
}): ChaindataSettings {
  return {
    root: chaindataRoot(env),
    limits: {
      timeoutMs: env.ANALYTICS_QUERY_TIMEOUT_MS,
      maxRows: env.ANALYTICS_MAX_ROWS,
      memoryLimit: env.ANALYTICS_MEMORY_LIMIT,
      threads: env.ANALYTICS_THREADS,
      concurrency: env.ANALYTICS_CONCURRENCY,
    },
    liveWindowBlocks: env.DATABUS_LIVE_WINDOW_BLOCKS,
  };
}

/** CHAINDATA_DIR, else <VIGIL_DATA_DIR>/chaindata, else the repository's .data/chaindata; absolute. */
export function chaindataRoot(env: {
  VIGIL_DATA_DIR?: string | undefined;
  CHAINDATA_DIR?: string | undefined;
}): string {
  return path.resolve(env.CHAINDATA_DIR ?? path.join(env.VIGIL_DATA_DIR ?? REPO_DATA_DIR, 'chaindata'));
}
