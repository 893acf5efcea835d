// `npm start`: the whole embedded stack on loopback, a demo scan, and a clean stop on Ctrl-C.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from '../../core/config/env.ts';
import { startAnvil } from '../devnet/anvil.ts';
import { loadOrDeployScenario, scenarioGenesisTimestamp } from '../devnet/scenario.ts';
import { startNewsSite } from './newsSite.ts';
import { loadOrDeployPayments } from '../devnet/payments.ts';
import { startSolanaDevnet } from '../devnet/solana/devnet.ts';
import { StackEnv } from './config.ts';
import { runDemo } from './demo.ts';
import { ingestKnowledge } from './knowledge.ts';
import { type ManagedProcess, portOpen, REPO_ROOT, spawnService } from './processes.ts';
import { makePrivateDir, writeSecretFileSync } from './secretFiles.ts';
import { localApiKey, writeStackFile, type StackFileContents } from './stackFiles.ts';
import { Supervisor } from './supervisor.ts';
import { startMongo, startRedis, startTemporal } from './services.ts';
import { Client, Connection } from '@temporalio/client';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';
import { followerInput, IndexerEnv, startIndexers } from './indexers.ts';

const env = parseEnv(StackEnv);
const dataDir = path.resolve(env.VIGIL_DATA_DIR ?? path.join(REPO_ROOT, '.data'));
const logDir = path.join(dataDir, 'logs');
// The stack's state holds keys and tokens (and its stores' data): readable by its owner only.
makePrivateDir(dataDir);
mkdirSync(logDir, { recursive: true, mode: 0o700 });
// The terminal may be gone while we stop (the shell that ran us was killed): writing to it must
// never crash the launcher half-way through stopping its children.
process.stdout.on('error', () => undefined);
const say = (line: string) => {
  if (process.stdout.writable) process.stdout.write(`[vigil] ${line}\n`);
};

/** Everything started, in start order; stopped in reverse. */
const running: { name: string; stop: () => Promise<void>; pid?: number | undefined }[] = [];
let stopping: Promise<void> | undefined;
/** What stack.json says, once the stack is up; rewritten as children exit and come back. */
let stackState: { contents: Omit<StackFileContents, 'processes'>; state: string } | undefined;
const supervisionFile = path.join(dataDir, 'supervision.json');
const supervisor = new Supervisor({ say, onChange: writeStateFiles });

/** Stops every child in reverse start order, once, however many times it is asked to. */
function stopAll(exitCode: number): Promise<void> {
  stopping ??= (async () => {
    supervisor.beginStop();
    say('stopping...');
    for (const entry of [...running].reverse()) {
      await entry
        .stop()
        .catch((error: unknown) => say(`${entry.name} did not stop cleanly: ${String(error)}`));
    }
    say('stopped');
    process.exit(exitCode);
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));
process.on('uncaughtException', (error) => {
  say(`launcher error: ${error.message}`);
  void stopAll(1);
});
// If whatever started us goes away without signalling (a shell killed under us), stop too rather
// than leave the stack running with no owner.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void stopAll(0);
}, 1_000).unref();

/** Starts a child under the supervisor: restarted with backoff when it exits unexpectedly. */
async function supervise(name: string, start: () => Promise<ManagedProcess>): Promise<ManagedProcess> {
  const managed = await supervisor.add(name, start);
  running.push({ name, stop: () => supervisor.stop(name) });
  return managed;
}

/** An infrastructure service (Temporal, Redis, FerretDB) under the supervisor, on the same port and data. */
async function superviseService<T extends { process: ManagedProcess }>(
  name: string,
  start: () => Promise<T>,
): Promise<T> {
  let first: T | undefined;
  await supervise(name, async () => {
    const service = await start();
    first ??= service;
    return service.process;
  });
  if (!first) throw new Error(`${name} did not start`);
  return first;
}

/** stack.json (with the API key: owner-only) and supervision.json (children only), both rewritten on change. */
function writeStateFiles(): void {
  const processes = processList();
  writeSecretFileSync(
    supervisionFile,
    `${JSON.stringify({ updated_at: new Date().toISOString(), launcher_pid: process.pid, processes }, null, 2)}\n`,
  );
  if (stackState)
    writeStackFile(path.join(dataDir, 'stack.json'), { ...stackState.contents, processes }, stackState.state);
}

async function assertFree(port: number, what: string, variable: string): Promise<void> {
  if (await portOpen(port)) {
    throw new Error(`port ${port} for ${what} is in use: stop what listens there or set ${variable}`);
  }
}

async function main(): Promise<void> {
  const local = {
    temporal: !env.TEMPORAL_ADDRESS,
    redis: !env.REDIS_URL,
    mongo: !env.MONGODB_URI,
    anvil: !env.RPC_URLS_DEVNET,
    solana: !env.RPC_URLS_SOLANA_DEVNET,
  };
  await Promise.all([
    local.temporal && assertFree(env.VIGIL_TEMPORAL_PORT, 'Temporal', 'VIGIL_TEMPORAL_PORT'),
    local.temporal && assertFree(env.VIGIL_TEMPORAL_UI_PORT, 'the Temporal UI', 'VIGIL_TEMPORAL_UI_PORT'),
    local.redis && assertFree(env.VIGIL_REDIS_PORT, 'Redis', 'VIGIL_REDIS_PORT'),
    local.mongo && assertFree(env.VIGIL_MONGO_PORT, 'MongoDB', 'VIGIL_MONGO_PORT'),
    local.anvil && assertFree(env.VIGIL_ANVIL_PORT, 'the devnet', 'VIGIL_ANVIL_PORT'),
    local.solana && assertFree(env.VIGIL_SOLANA_PORT, 'the Solana devnet', 'VIGIL_SOLANA_PORT'),
    assertFree(env.PORT, 'the backend', 'PORT'),
    assertFree(env.VIGIL_SCRAPER_PORT, 'the scraper', 'VIGIL_SCRAPER_PORT'),
    assertFree(env.VIGIL_RETRIEVAL_PORT, 'the retrieval service', 'VIGIL_RETRIEVAL_PORT'),
    assertFree(env.VIGIL_MCP_PORT, 'the MCP server', 'VIGIL_MCP_PORT'),
  ]);

  say(`starting the embedded stack (data in ${dataDir})`);
  const [temporal, redis, mongo, anvil] = await Promise.all([
    local.temporal
      ? superviseService('temporal', () =>
          startTemporal({
            port: env.VIGIL_TEMPORAL_PORT,
            uiPort: env.VIGIL_TEMPORAL_UI_PORT,
            dbFile: path.join(dataDir, 'temporal', 'temporal.db'),
            logFile: path.join(logDir, 'temporal.log'),
          }),
        )
      : undefined,
    local.redis
      ? superviseService('redis', () =>
          startRedis({
            port: env.VIGIL_REDIS_PORT,
            dir: path.join(dataDir, 'redis'),
            logFile: path.join(logDir, 'redis.log'),
          }),
        )
      : undefined,
    local.mongo
      ? superviseService('mongo', () =>
          startMongo({
            port: env.VIGIL_MONGO_PORT,
            dir: path.join(dataDir, 'mongo'),
            logFile: path.join(logDir, 'mongo.log'),
          }),
        )
      : undefined,
    local.anvil
      ? startAnvil({
          port: env.VIGIL_ANVIL_PORT,
          statePath: path.join(dataDir, 'devnet', 'anvil-state.json'),
          genesisTimestamp: scenarioGenesisTimestamp(),
        }).then((node) => {
          // Not restarted: a devnet killed mid-run loses what it mined since its last state dump,
          // and a chain that rewinds under the indexer and the stores is worse than a stopped stack.
          running.push({ name: 'anvil', pid: node.process.pid, stop: () => node.stop() });
          node.process.once('exit', (code, signal) => {
            if (stopping === undefined) {
              say(`anvil exited unexpectedly (${code ?? signal}); the devnet is not restarted, stopping`);
              void stopAll(1);
            }
          });
          return node;
        })
      : undefined,
  ]);

  // The Solana devnet lives in this process (LiteSVM) and starts afresh each time: its mints are
  // new on every start, unlike the EVM devnet's saved state.
  const solana = local.solana ? await startSolanaDevnet({ port: env.VIGIL_SOLANA_PORT }) : undefined;
  if (solana) running.push({ name: 'solana-devnet', pid: process.pid, stop: () => solana.close() });
  const rpcUrl = anvil?.url ?? env.RPC_URLS_DEVNET?.split(',')[0]?.trim() ?? '';
  const scenario = await loadOrDeployScenario({
    rpcUrl,
    file: path.join(dataDir, 'devnet', 'scenario.json'),
  });
  // News about the devnet's tokens from a local desk, unless feeds of your own are configured.
  const newsSite = env.NEWS_FEEDS
    ? undefined
    : await startNewsSite({ port: env.VIGIL_NEWS_PORT, tokens: scenario.tokens });
  if (newsSite) running.push({ name: 'news-site', pid: process.pid, stop: () => newsSite.close() });
  // The devnet's USDC, a funded facilitator signer and a payee: paid tool calls work out of the box.
  const payments = await loadOrDeployPayments(rpcUrl, path.join(dataDir, 'devnet', 'payments.json'));
  const urls = {
    api: `http://127.0.0.1:${env.PORT}`,
    facilitator: `http://127.0.0.1:${env.VIGIL_FACILITATOR_PORT}`,
    docs: `http://127.0.0.1:${env.PORT}/docs`,
    scraper: `http://127.0.0.1:${env.VIGIL_SCRAPER_PORT}`,
    retrieval: `http://127.0.0.1:${env.VIGIL_RETRIEVAL_PORT}`,
    mcp: `http://127.0.0.1:${env.VIGIL_MCP_PORT}/mcp`,
    temporal: temporal?.address ?? env.TEMPORAL_ADDRESS ?? '',
    temporal_ui: local.temporal ? `http://127.0.0.1:${env.VIGIL_TEMPORAL_UI_PORT}` : null,
    redis: redis?.address ?? env.REDIS_URL ?? '',
    mongodb: mongo?.address ?? env.MONGODB_URI ?? '',
    devnet_rpc: rpcUrl,
    solana_devnet_rpc: solana?.url ?? env.RPC_URLS_SOLANA_DEVNET ?? '',
    news_site: newsSite?.url ?? null,
  };

  const apiKey = localApiKey(path.join(dataDir, 'local-api-key'));
  // The facilitator answers the backend and the payments pool only: a token each, new every start.
  const callerTokens = {
    backend: randomBytes(24).toString('hex'),
    payments: randomBytes(24).toString('hex'),
  };
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    // A Pro-tier key for this machine's user and the demo, beside any configured keys.
    API_KEYS: [process.env.API_KEYS, `local:pro:${apiKey}`].filter(Boolean).join(','),
    TEMPORAL_ADDRESS: urls.temporal,
    REDIS_URL: urls.redis,
    MONGODB_URI: urls.mongodb,
    RPC_URLS_DEVNET: env.RPC_URLS_DEVNET ?? rpcUrl,
    ...(urls.solana_devnet_rpc ? { RPC_URLS_SOLANA_DEVNET: urls.solana_devnet_rpc } : {}),
    // The scenario's stablecoin is the demo's blue chip.
    TOKEN_ALLOWLIST_DEVNET: env.TOKEN_ALLOWLIST_DEVNET ?? scenario.allowlist.join(','),
    PORT: String(env.PORT),
    HOST: '127.0.0.1',
    VIGIL_DATA_DIR: dataDir,
    // The backend's /health lists the stack's children from it.
    STACK_SUPERVISION_FILE: supervisionFile,
    FACILITATOR_URL: `http://127.0.0.1:${env.VIGIL_FACILITATOR_PORT}`,
    SCRAPER_URL: `http://127.0.0.1:${env.VIGIL_SCRAPER_PORT}`,
    RETRIEVAL_URL: `http://127.0.0.1:${env.VIGIL_RETRIEVAL_PORT}`,
    MCP_PUBLIC_URL: `http://127.0.0.1:${env.VIGIL_MCP_PORT}`,
    MCP_BACKEND_URL: `http://127.0.0.1:${env.PORT}`,
    X402_NETWORK: `eip155:${scenario.chainId}`,
    X402_ASSET: payments.token.address,
    X402_PAY_TO: payments.payTo,
    // Solana beside EVM when the Solana devnet is local: its USDC-like mint, paid to its payee.
    ...(solana
      ? { X402_SVM_ASSET: solana.payments.mint, X402_SVM_PAY_TO: solana.payments.payTo.address }
      : {}),
  };
  await supervise('facilitator', () =>
    spawnService({
      name: 'facilitator',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'api', 'facilitator', 'server.ts')],
      env: {
        ...childEnv,
        PORT: String(env.VIGIL_FACILITATOR_PORT),
        FACILITATOR_CHAIN: 'devnet',
        FACILITATOR_PRIVATE_KEY: payments.facilitatorKey,
        FACILITATOR_ASSETS: payments.token.address,
        FACILITATOR_PAY_TO: payments.payTo,
        FACILITATOR_CALLERS: Object.entries(callerTokens)
          .map(([name, token]) => `${name}:${token}`)
          .join(','),
        // The local Solana devnet poses as Solana devnet's id (FACILITATOR_SVM_NETWORK's default).
        ...(solana
          ? {
              FACILITATOR_SVM_RPC_URL: solana.url,
              FACILITATOR_SVM_PRIVATE_KEY: solana.payments.feePayer.secretKey,
              FACILITATOR_SVM_ASSETS: solana.payments.mint,
              FACILITATOR_SVM_PAY_TO: solana.payments.payTo.address,
            }
          : {}),
        // anvil mines each transaction at once: poll for receipts often.
        FACILITATOR_RECEIPT_POLL_MS: '5',
      },
      logFile: path.join(logDir, 'facilitator.log'),
      ready: async () => (await fetch(`${urls.facilitator}/healthz`)).ok,
    }),
  );
  const node = process.execPath;
  // The local news desk is the one private address the scraper may reach (the service checks a
  // URL, the scraper pool's tiers fetch it), on loopback and the desk's port besides 80 and 443.
  const scraperEgress = newsSite
    ? {
        SCRAPER_ALLOWLIST: process.env.SCRAPER_ALLOWLIST ?? '127.0.0.1/32',
        SCRAPER_ALLOWED_PORTS: process.env.SCRAPER_ALLOWED_PORTS ?? `80,443,${env.VIGIL_NEWS_PORT}`,
      }
    : {};
  await Promise.all([
    supervise('backend', () =>
      spawnService({
        name: 'backend',
        command: node,
        args: [path.join(REPO_ROOT, 'api', 'backend', 'server.ts')],
        env: {
          ...childEnv,
          FACILITATOR_AUTH_TOKEN: callerTokens.backend,
          ...(newsSite
            ? {
                NEWS_FEEDS: newsSite.feeds.join(','),
                NEWS_POLL_MINUTES: process.env.NEWS_POLL_MINUTES ?? '5',
              }
            : {}),
        },
        logFile: path.join(logDir, 'backend.log'),
        ready: async () => (await fetch(`${urls.api}/ready`)).ok,
      }),
    ),
    supervise('scraper', () =>
      spawnService({
        name: 'scraper',
        command: node,
        args: [path.join(REPO_ROOT, 'api', 'scraper', 'server.ts')],
        env: {
          ...childEnv,
          PORT: String(env.VIGIL_SCRAPER_PORT),
          ...scraperEgress,
        },
        logFile: path.join(logDir, 'scraper.log'),
        ready: async () => (await fetch(`${urls.scraper}/healthz`)).ok,
      }),
    ),
    supervise('retrieval', () =>
      spawnService({
        name: 'retrieval',
        command: node,
        args: [path.join(REPO_ROOT, 'api', 'retrieval', 'server.ts')],
        env: { ...childEnv, PORT: String(env.VIGIL_RETRIEVAL_PORT) },
        logFile: path.join(logDir, 'retrieval.log'),
        readyTimeoutMs: 120_000,
        ready: async () => (await fetch(`${urls.retrieval}/healthz`)).ok,
      }),
    ),
    supervise('mcp', () =>
      spawnService({
        name: 'mcp',
        command: node,
        args: [path.join(REPO_ROOT, 'api', 'mcp', 'server.ts')],
        env: { ...childEnv, PORT: String(env.VIGIL_MCP_PORT) },
        logFile: path.join(logDir, 'mcp.log'),
        readyTimeoutMs: 120_000,
        // Ready once it answers and reaches the backend.
        ready: async () => (await fetch(`http://127.0.0.1:${env.VIGIL_MCP_PORT}/healthz`)).ok,
      }),
    ),
    supervise('workers', () =>
      spawnService({
        name: 'workers',
        command: node,
        args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'all'],
        // The payee's key: the payments pool signs refunds of charged empty results with it.
        env: {
          ...childEnv,
          X402_PAYEE_PRIVATE_KEY: payments.payToKey,
          // The scraper pool's tiers make the fetches: the same egress as the service's.
          ...scraperEgress,
          FACILITATOR_AUTH_TOKEN: callerTokens.payments,
        },
        logFile: path.join(logDir, 'workers.log'),
        readyTimeoutMs: 120_000,
        ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
      }),
    ),
  ]);
  const following = await followChains(urls.temporal);

  const stackFile = path.join(dataDir, 'stack.json');
  const solanaMints = solana
    ? Object.fromEntries(Object.entries(solana.mints).map(([key, mint]) => [key, mint.address]))
    : {};
  stackState = { contents: { urls, scenario, solanaMints, apiKey }, state: 'ready' };
  writeStateFiles();
  say('ready');
  for (const [name, url] of Object.entries(urls)) if (url) say(`  ${name.padEnd(12)} ${url}`);
  say(`  ${'api_key'.padEnd(12)} ${apiKey}  (Pro tier rate limits; send as X-API-Key)`);
  say('devnet tokens:');
  for (const [key, token] of Object.entries(scenario.tokens))
    say(`  ${key.padEnd(12)} ${token.address}  ${token.symbol}`);
  say(
    `payments: USDC ${payments.token.address} → ${payments.payTo} (facilitator signer ${payments.facilitatorAddress})`,
  );
  if (solana) {
    say(
      `solana devnet mints: ${Object.keys(solanaMints).length} (chain solana_devnet, addresses in the file below)`,
    );
    // Devnet keys only: the funded payers an x402 client can pay with (see docs/x402.md).
    const paymentsFile = path.join(dataDir, 'devnet', 'solana-payments.json');
    writeSecretFileSync(paymentsFile, `${JSON.stringify(solana.payments, null, 2)}\n`);
    say(
      `solana payments: mint ${solana.payments.mint} → ${solana.payments.payTo.address} (fee payer ${solana.payments.feePayer.address}; ${solana.payments.payers.length} funded payers in ${paymentsFile})`,
    );
  }
  say(
    `indexing ${following.join(', ')} from block ${indexerEnv.INDEXER_START_BLOCK} into ${path.join(dataDir, 'chaindata')} (progress: the indexChain workflow in the Temporal UI)`,
  );
  say(`(written to ${stackFile})`);

  if (env.VIGIL_DEMO) await runDemo({ api: urls.api, apiKey, scenario, solanaMints, say });
  // After the scans, so embedding the docs does not slow them down on a small machine.
  if (env.VIGIL_KNOWLEDGE) await ingestKnowledge({ retrieval: urls.retrieval, say });
  // The file first: whoever waits for the line below reads it next.
  stackState = { contents: { urls, scenario, solanaMints, apiKey }, state: 'running' };
  writeStateFiles();
  say('running; Ctrl-C stops everything');
}

const indexerEnv = parseEnv(IndexerEnv);

/** Starts (or joins, on a restart) the follower of each INDEXER_CHAINS chain on the ingest pool. */
async function followChains(temporalAddress: string): Promise<string[]> {
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const client = new Client({ connection, namespace: indexerEnv.TEMPORAL_NAMESPACE });
    const chains = indexerEnv.INDEXER_CHAINS.split(',')
      .map((chain) => chain.trim())
      .filter(Boolean);
    await startIndexers(
      client,
      taskQueueName(TaskQueue.ingest, indexerEnv.TASK_QUEUE_PREFIX),
      chains.map((chain) => followerInput(indexerEnv, chain)),
      indexerEnv.TASK_QUEUE_PREFIX,
    );
    return chains;
  } finally {
    await connection.close();
  }
}

/** Every child: the supervised ones with their state and restarts, the others (in-process or the devnet) as started. */
function processList(): StackFileContents['processes'] {
  const supervised = new Map(supervisor.status().map((status) => [status.name, status]));
  return running.map(
    (entry) =>
      supervised.get(entry.name) ?? {
        name: entry.name,
        pid: entry.pid ?? null,
        state: 'running',
        restarts: 0,
        last_exit: null,
        last_exit_at: null,
      },
  );
}

main().catch((error: unknown) => {
  say(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
