import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ActivityInterceptorsFactory, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { warnOncePerChannel } from '../clients/jobWords.ts';
import type { Redis } from 'ioredis';
import { scrubError } from '../core/errors/scrubError.ts';
import type { Hex } from 'viem';
import { ChainClients } from '../clients/chains/chainClients.ts';
import { readRpcConfig } from '../clients/chains/rpcConfig.ts';
import { createRedis } from '../clients/redis.ts';
import { closeStores, createStores, type Stores } from '../clients/stores.ts';
import { readScanConfig, type ScanConfig } from '../scanner/config.ts';
import { ScraperEngine } from '../scraper/engine.ts';
import { IndexStore } from '../chaindata/storage/indexStore.ts';
import { chaindataLocation, chaindataSettings } from '../chaindata/config.ts';
import { SandboxedAnalytics } from '../chaindata/analytics/sandbox.ts';
import { llmSettings } from '../reports/config.ts';
import { ReportStore } from '../reports/store.ts';
import { NewsStore } from '../news/store.ts';
import { indexUri } from '../retrieval/config.ts';
import { createEmbedder, type Embedder } from '../retrieval/embedding/index.ts';
import { IngestBodies } from '../retrieval/ingest/bodyStore.ts';
import { DocumentLocks } from '../retrieval/ingest/documentLock.ts';
import type { ChunkStore } from '../retrieval/store/chunkStore.ts';
import { LanceChunkStore } from '../retrieval/store/lanceChunkStore.ts';
import { startPoolReports } from '../scraper/poolHealth.ts';
import { type TemporalConnectionOptions, temporalConnectionOptions } from '../clients/temporal.ts';
import { type TaskQueue, taskQueueName } from '../core/temporal/taskQueues.ts';
import type { WorkerEnv } from './config.ts';
import { type PoolDeps, POOLS } from './pools.ts';
import { loadWorkflowBundle, poolWorkflowsEntry } from './workflowBundle.ts';
import { currentTracing, workflowTracingModules } from '../clients/tracing.ts';

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
  let stores: Stores | undefined;
  // A job's word that Redis refuses (a user without the channel's grant) is said once per channel
  // in the worker's log: every later word on it would be refused the same way.
  const { logger } = Runtime.instance();
  const onWordLost = warnOncePerChannel((message, meta) => {
    logger.warn(message, meta);
  });
  const mainStores = () => (stores ??= createStores(env, { failFast: false, onWordLost }));
  let chains: ChainClients | undefined;
  let scraper: { engine: ScraperEngine; redis: Redis; stopReports: () => Promise<void> } | undefined;
  let chaindata: IndexStore | undefined;
  let chunkStore: Promise<ChunkStore> | undefined;
  let embedder: Promise<Embedder> | undefined;
  const retrievalEnv = { ...env, VIGIL_DATA_DIR: dataDir };
  let analytics: SandboxedAnalytics | undefined;
  const deps: PoolDeps = {
    get chains() {
      return (chains ??= new ChainClients({
        rpcUrls: options.rpcUrls ?? readRpcConfig(),
        requestTimeoutMs: env.RPC_REQUEST_TIMEOUT_MS,
        simulationTimeoutMs: env.RPC_SIMULATION_TIMEOUT_MS,
      }));
    },
    get scans() {
      return mainStores().scans;
    },
    get fingerprints() {
      return mainStores().fingerprints;
    },
    scanConfig: options.scanConfig ?? readScanConfig(),
    get receipts() {
      return mainStores().receipts;
    },
    facilitator: { url: env.FACILITATOR_URL, token: env.FACILITATOR_AUTH_TOKEN },
    refundWindowSeconds: env.X402_REFUND_WINDOW_SECONDS,
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
        const engine = new ScraperEngine(redis, env, onWordLost);
        const stopReports = startPoolReports(redis, `${hostname()}:${process.pid}`, () => engine.poolStats());
        scraper = { engine, redis, stopReports };
      }
      return scraper.engine;
    },
    get invoices() {
      return mainStores().invoices;
    },
    payeePrivateKey: env.X402_PAYEE_PRIVATE_KEY as Hex | undefined,
    chaindata: () => (chaindata ??= new IndexStore(chaindataLocation({ ...env, VIGIL_DATA_DIR: dataDir }))),
    retrieval: () => ({
      store: () => (chunkStore ??= LanceChunkStore.open(indexUri(retrievalEnv))),
      embedder: () => (embedder ??= createEmbedder(retrievalEnv)),
      bodies: new IngestBodies(mainStores().redis),
      locks: new DocumentLocks(mainStores().redis),
      scraperUrl: env.SCRAPER_URL,
      scraperApiKey: env.SCRAPER_API_KEY,
      chunkChars: env.RETRIEVAL_CHUNK_CHARS,
    }),
    scraperService: { url: env.SCRAPER_URL, apiKey: env.SCRAPER_API_KEY },
    reports: () => {
      const settings = chaindataSettings({ ...env, VIGIL_DATA_DIR: dataDir });
      return {
        // The engine runs in its own process, started on the first section that reads it.
        analytics: () =>
          Promise.resolve((analytics ??= new SandboxedAnalytics(settings.location, settings.limits))),
        evm: (chain: string) => deps.chains.evm(chain),
        store: new ReportStore(mainStores().mongo.db),
        news: new NewsStore(mainStores().mongo.db),
        llm: llmSettings(env),
        retrievalUrl: env.RETRIEVAL_URL,
      };
    },
  };
  const tracing = currentTracing();
  // One bundle per pool, of that pool's workflows only (built one after another: bundling is
  // CPU-bound, and cached across starts).
  const bundles = new Map<TaskQueue, { code: string }>();
  for (const queue of queues)
    bundles.set(
      queue,
      await loadWorkflowBundle(
        path.join(dataDir, 'cache'),
        workflowTracingModules(),
        poolWorkflowsEntry(queue),
      ),
    );

  const workers = await Promise.all(
    queues.map((queue) => {
      const pool = POOLS[queue];
      const workflowBundle = bundles.get(queue);
      if (!pool || !workflowBundle) throw new Error(`no worker pool for task queue "${queue}"`);
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
        // Tracing's span is outside the scrubbing, so it records errors with their URLs redacted.
        interceptors: { activity: [...(tracing ? [tracing.worker.activity] : []), scrubbingActivityErrors] },
        ...(tracing ? { sinks: tracing.worker.sinks } : {}),
      });
    }),
  );

  const done = Promise.all(workers.map((worker) => worker.run())).then(async () => {
    await scraper?.stopReports();
    await scraper?.engine.close();
    await chaindata?.close();
    analytics?.close();
    await Promise.allSettled([
      connection.close(),
      stores ? closeStores(stores) : undefined,
      scraper && scraper.redis !== stores?.redis ? scraper.redis.quit() : undefined,
      chunkStore?.then((store) => store.close()),
      embedder?.then((model) => model.close()),
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

/**
 * Activity failures reach workflow histories, job results and the worker's log: their URLs are
 * redacted first (RPC providers put keys in them, and viem's messages quote them).
 */
const scrubbingActivityErrors: ActivityInterceptorsFactory = () => ({
  inbound: {
    execute: async (input, next) => {
      try {
        return await next(input);
      } catch (error) {
        throw scrubError(error);
      }
    },
  },
});

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
