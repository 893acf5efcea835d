import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { ChainClients } from '../core/chains/chainClients.ts';
import { readRpcConfig } from '../core/chains/rpcConfig.ts';
import type { Redis } from 'ioredis';
import { createMongo, type MongoHandle } from '../core/stores/mongo.ts';
import { createRedis } from '../core/stores/redis.ts';
import type { Hex } from 'viem';
import { InvoiceStore } from '../core/stores/invoices.ts';
import { ReceiptStore } from '../core/stores/receipts.ts';
import { readScanConfig, type ScanConfig } from '../core/scan/scanConfig.ts';
import { ScanStore } from '../core/stores/scans.ts';
import { ScraperEngine } from '../scraper/engine.ts';
import { startPoolReports } from '../scraper/poolHealth.ts';
import {
  type TemporalConnectionOptions,
  temporalConnectionOptions,
} from '../core/temporal/connectionOptions.ts';
import { type TaskQueue, taskQueueName } from '../core/temporal/taskQueues.ts';
import type { WorkerEnv } from './config.ts';
import { type PoolDeps, POOLS } from './pools.ts';
import { loadWorkflowBundle } from './workflowBundle.ts';

const defaultDataDir = fileURLToPath(new URL('../.data', import.meta.url));

export interface RunningWorkers {
  workers: Worker[];
  /** Resolves when every worker has stopped (after a signal or shutdown()). */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Starts one Temporal worker per queue in this process, sharing one connection and one set of
 * store clients.
 */
export async function runWorkers(
  env: WorkerEnv,
  queues: readonly TaskQueue[],
  options: { rpcUrls?: ReturnType<typeof readRpcConfig>; scanConfig?: ScanConfig } = {},
): Promise<RunningWorkers> {
  const dataDir = env.VIGIL_DATA_DIR ?? defaultDataDir;
  const connection = await connectWithRetry(temporalConnectionOptions(env));
  // The main stores (scans, payments) are opened only by pools that use them: a scraper-only
  // worker holds no connection to them (its network policy gives it no route there either).
  let main:
    | { redis: Redis; mongo: MongoHandle; scans: ScanStore; receipts: ReceiptStore; invoices: InvoiceStore }
    | undefined;
  const mainStores = () => {
    if (!main) {
      const redis = createRedis(env.REDIS_URL, {
        failFast: false,
        keyPrefix: env.REDIS_KEY_PREFIX,
        tlsCaPath: env.REDIS_TLS_CA_PATH,
      });
      const mongo = createMongo(env.MONGODB_URI, env.MONGODB_DB);
      const scans = new ScanStore({
        db: mongo.db,
        redis,
        ttlSeconds: env.SCAN_CACHE_TTL_SECONDS,
        jobTtlSeconds: env.SCAN_JOB_CACHE_TTL_SECONDS,
      });
      main = {
        redis,
        mongo,
        scans,
        receipts: new ReceiptStore(mongo.db, redis),
        invoices: new InvoiceStore(mongo.db, redis),
      };
    }
    return main;
  };
  let chains: ChainClients | undefined;
  let scraper: { engine: ScraperEngine; redis: Redis; stopReports: () => Promise<void> } | undefined;
  const deps: PoolDeps = {
    get chains() {
      chains ??= new ChainClients({
        rpcUrls: options.rpcUrls ?? readRpcConfig(),
        requestTimeoutMs: env.RPC_REQUEST_TIMEOUT_MS,
      });
      return chains;
    },
    get scans() {
      return mainStores().scans;
    },
    scanConfig: options.scanConfig ?? readScanConfig(),
    get receipts() {
      return mainStores().receipts;
    },
    facilitatorUrl: env.FACILITATOR_URL,
    scraper: () => {
      if (!scraper) {
        // The scraper's state (pages, sessions, strategies) lives in its own Redis when configured.
        const redis = env.SCRAPER_REDIS_URL
          ? createRedis(env.SCRAPER_REDIS_URL, {
              failFast: false,
              keyPrefix: env.REDIS_KEY_PREFIX,
              tlsCaPath: env.REDIS_TLS_CA_PATH,
            })
          : mainStores().redis;
        const engine = new ScraperEngine(redis, env);
        const stopReports = startPoolReports(redis, `${hostname()}:${process.pid}`, () => engine.poolStats());
        scraper = { engine, redis, stopReports };
      }
      return scraper.engine;
    },
    get invoices() {
      return mainStores().invoices;
    },
    payeePrivateKey: env.X402_PAYEE_PRIVATE_KEY as Hex | undefined,
  };
  const workflowBundle = await loadWorkflowBundle(path.join(dataDir, 'cache'));

  const workers = await Promise.all(
    queues.map((queue) => {
      const pool = POOLS[queue];
      if (!pool) throw new Error(`no worker pool for task queue "${queue}"`);
      const slots = pool.slots(env);
      return Worker.create({
        connection,
        namespace: env.TEMPORAL_NAMESPACE,
        taskQueue: taskQueueName(queue, env.TASK_QUEUE_PREFIX),
        workflowBundle,
        activities: pool.activities(deps),
        maxConcurrentActivityTaskExecutions: slots.activities,
        maxConcurrentWorkflowTaskExecutions: slots.workflows,
        shutdownGraceTime: `${env.WORKER_SHUTDOWN_GRACE_SECONDS}s`,
      });
    }),
  );

  const done = Promise.all(workers.map((worker) => worker.run())).then(async () => {
    await scraper?.stopReports();
    await scraper?.engine.close();
    await Promise.allSettled([
      connection.close(),
      main?.mongo.close(),
      main?.redis.quit(),
      scraper && scraper.redis !== main?.redis ? scraper.redis.quit() : undefined,
    ]);
  });
  return {
    workers,
    done,
    async shutdown() {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

/** The stack may start workers while Temporal is still coming up: retry for a while. */
async function connectWithRetry(
  options: TemporalConnectionOptions,
  deadlineMs = 60_000,
): Promise<NativeConnection> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await NativeConnection.connect(options);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
