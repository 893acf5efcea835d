// Scan latency through the whole engine (REST → Temporal → scanner worker → devnet) against the
// same engines called in-process, in one run on one machine.
//   npm run bench -- [--n 200] [--concurrency 8]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ChainClients } from '../clients/chains/chainClients.ts';
import { scoreToken } from '../scanner/core/risk/score.ts';
import { TokenScanner } from '../scanner/scanner.ts';
import { readScanConfig } from '../scanner/config.ts';
import { createMongo } from '../clients/mongo.ts';
import { createRedis } from '../clients/redis.ts';
import { ScanStore } from '../scanner/scanStore.ts';
import { startAnvil } from '../infra/devnet/anvil.ts';
import { deployCleanTokens } from '../infra/devnet/bulkTokens.ts';
import { deployScenario, scenarioGenesisTimestamp } from '../infra/devnet/scenario.ts';
import { freePort, type ManagedProcess, REPO_ROOT, spawnService } from '../infra/stack/processes.ts';
import { startMongo, startRedis, startTemporal } from '../infra/stack/services.ts';
import { cpuPerItem, markdownTable, percentile, type PhaseStats, runPhase } from './stats.ts';
import { stepTable, workflowTimelines } from './x402Breakdown.ts';
import { parseJobId } from '../core/temporal/jobIds.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const n = Number(values.n);
const concurrency = Number(values.concurrency);
const WARMUP = 20;
const BENCH_API_KEY = 'vigil-bench-key-0123456789abcdef';

const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-'));
const stops: (() => Promise<void>)[] = [];
try {
  const [temporal, redis, mongo, anvil] = await Promise.all([
    freePort().then((port) => startTemporal({ port })),
    freePort().then((port) => startRedis({ port })),
    freePort().then((port) => startMongo({ port, dir: path.join(dir, 'mongo') })),
    startAnvil({ genesisTimestamp: scenarioGenesisTimestamp() }),
  ]);
  stops.push(
    () => temporal.process.stop(),
    () => redis.process.stop(),
    () => mongo.process.stop(),
    () => anvil.stop(),
  );
  await deployScenario(anvil.url);
  // One fresh token per scan: identical scans would join one job or hit the cache.
  const tokens = await deployCleanTokens(anvil.url, {
    count: n * 4 + WARMUP,
    accountIndex: 5,
    withLiquidity: true,
    renounce: true,
  });
  const slice = (index: number) => tokens.slice(WARMUP + index * n, WARMUP + (index + 1) * n);
  const warmupTokens = tokens.slice(0, WARMUP);

  const apiPort = await freePort();
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    REDIS_URL: redis.address,
    MONGODB_URI: mongo.address,
    RPC_URLS_DEVNET: anvil.url,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // A load generator is one caller: the per-tier caps are not what this measures (anonymous
    // scans are trial-gated, so it scans with a key).
    RATE_LIMITS: '0',
    API_KEYS: `bench:pro:${BENCH_API_KEY}`,
  };
  const children: ManagedProcess[] = await Promise.all([
    spawnService({
      name: 'backend',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'api', 'backend', 'server.ts')],
      env,
      ready: async () => (await fetch(`http://127.0.0.1:${apiPort}/ready`)).ok,
    }),
    spawnService({
      name: 'workers',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'scanner'],
      env,
      readyTimeoutMs: 120_000,
      ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
    }),
  ]);
  for (const child of children) stops.push(() => child.stop());

  const api = `http://127.0.0.1:${apiPort}/api/v2/scanner/scans`;
  // The jobs of the one-at-a-time phase, for their histories' timelines.
  const jobs: { workflowId: string; runId: string }[] = [];
  let recording = false;
  const scanThroughApi = async (address: string, fresh = true) => {
    const response = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': BENCH_API_KEY },
      body: JSON.stringify({ chain: 'devnet', address, wait_ms: 30_000, fresh }),
    });
    const job = (await response.json()) as {
      job_id: string;
      status: string;
      result: { tier: string } | null;
    };
    if (response.status !== 200 || job.status !== 'completed')
      throw new Error(`HTTP ${response.status} ${job.status}`);
    const parsed = parseJobId(job.job_id);
    if (recording && parsed) jobs.push(parsed);
  };

  // The scanner library the worker's activities adapt, called directly: block pin and creation
  // lookup, the six engines in parallel, scoring; no Temporal and no store write.
  const chains = new ChainClients({ rpcUrls: new Map([['devnet', [anvil.url]]]) });
  const redisClient = createRedis(redis.address, { keyPrefix: 'bench:' });
  const mongoClient = createMongo(mongo.address, 'vigil_bench');
  stops.push(async () => {
    await Promise.allSettled([redisClient.quit(), mongoClient.close()]);
  });
  const scanner = new TokenScanner({
    chains,
    scans: new ScanStore({ db: mongoClient.db, redis: redisClient, ttlSeconds: 0 }),
    config: readScanConfig({}),
  });
  // Each engine's own time in the in-process phase one at a time (the engines run in parallel, so
  // a scan takes about the slowest of them): where the engines' share goes.
  const engineTimes = new Map<string, number[]>();
  let timingEngines = false;
  const scanInProcess = async (address: string) => {
    const started = performance.now();
    const { target, engines } = await scanner.prepare({ chain: 'devnet', address });
    const prepared = Math.round(performance.now() - started);
    const reports = await Promise.all(engines.map((engine) => scanner.runEngine(engine, target)));
    if (timingEngines) {
      const record = (step: string, ms: number) =>
        engineTimes.set(step, [...(engineTimes.get(step) ?? []), ms]);
      record('prepare (block pin, creation)', prepared);
      for (const { engine, duration_ms, facts } of reports) {
        record(engine, duration_ms);
        // contract_safety's own steps, one after the other (its facts.timings_ms), beside the engines.
        const discovery = facts.discovery as { timings_ms?: Record<string, number> } | undefined;
        for (const [step, ms] of Object.entries((facts.timings_ms ?? {}) as Record<string, number>))
          record(`${engine}: ${step}`, ms);
        for (const [stage, ms] of Object.entries(discovery?.timings_ms ?? {}))
          record(`${engine}: discovery: ${stage}`, ms);
      }
    }
    const summary = scoreToken(reports.flatMap((report) => report.checks));
    if (summary.risk_score === null) throw new Error('no score');
  };

  await runPhase('warmup', warmupTokens, concurrency, (address) => scanThroughApi(address));
  // Where each phase's CPU goes, per scan: the devnet node (which a deployment's RPC provider
  // replaces), Vigil's processes, the services, and this process (the load and, in-process, the
  // engines themselves).
  const pids = {
    'this process': process.pid,
    'devnet node': anvil.process.pid,
    workers: children[1]?.child.pid,
    backend: children[0]?.child.pid,
    temporal: temporal.process.child.pid,
    redis: redis.process.child.pid,
    mongo: mongo.process.child.pid,
  };
  const cpu: { phase: string; concurrency: number; cpu_ms_per_scan: Record<string, number> }[] = [];
  const phase = async (...args: Parameters<typeof runPhase<string>>) => {
    const { result, cpu_ms_per_item } = await cpuPerItem(pids, args[1].length, () => runPhase(...args));
    cpu.push({ phase: args[0], concurrency: args[2], cpu_ms_per_scan: cpu_ms_per_item });
    return result;
  };
  const rows: PhaseStats[] = [
    await phase('in-process engines (no Temporal)', slice(0), 1, (address) => {
      timingEngines = true;
      return scanInProcess(address).finally(() => (timingEngines = false));
    }),
    await phase('REST → Temporal → worker', slice(1), 1, (address) => {
      recording = true;
      return scanThroughApi(address).finally(() => (recording = false));
    }),
    await phase('in-process engines (no Temporal)', slice(2), concurrency, scanInProcess),
    await phase('REST → Temporal → worker', slice(3), concurrency, (address) => scanThroughApi(address)),
    await phase('REST, cached repeat', slice(1), 1, (address) => scanThroughApi(address, false)),
    await phase('REST, cached repeat', slice(3), concurrency, (address) => scanThroughApi(address, false)),
  ];
  const ratioOf = (api?: PhaseStats, local?: PhaseStats) =>
    api && local ? Math.round((api.p50_ms / local.p50_ms) * 100) / 100 : null;
  const ratios = {
    concurrency_1: ratioOf(rows[1], rows[0]),
    [`concurrency_${concurrency}`]: ratioOf(rows[3], rows[2]),
  };
  const report = {
    benchmark: 'scan-latency',
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? 'unknown',
      memory_gb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    parameters: { n, concurrency, warmup: WARMUP },
    phases: rows,
    api_over_in_process_p50: ratios,
  };
  const ratioText = Object.entries(ratios)
    .map(([key, value]) => `${key.replace('_', ' ')}: ${value}×`)
    .join(', ');
  // Where a scan's time goes inside Temporal, one at a time: the workflow task's pickup, its
  // first activation, each local activity step (block pin, engines, store), completion.
  const timeline = await workflowTimelines(temporal.address, jobs, { localActivities: true });
  Object.assign(report, { rest_one_at_a_time_timeline: timeline });
  const engineRows = [...engineTimes].map(([engine, times]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { engine, n: sorted.length, p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95) };
  });
  Object.assign(report, { in_process_one_at_a_time_engines: engineRows });
  Object.assign(report, { cpu_ms_per_scan: cpu });
  const names = Object.keys(pids);
  const cpuTable = [
    `| CPU ms per scan: phase | concurrency | ${names.join(' | ')} | all |`,
    `|---|---|${names.map(() => '---|').join('')}---|`,
    ...cpu.map(({ phase: name, concurrency: c, cpu_ms_per_scan: ms }) => {
      const all = Math.round(Object.values(ms).reduce((sum, value) => sum + value, 0) * 10) / 10;
      return `| ${name} | ${c} | ${names.map((each) => ms[each] ?? '—').join(' | ')} | ${all} |`;
    }),
  ].join('\n');
  const engineTable = [
    '| in-process one at a time: step | n | p50 ms | p95 ms |',
    '|---|---|---|---|',
    ...engineRows.map((row) => `| ${row.engine} | ${row.n} | ${row.p50_ms} | ${row.p95_ms} |`),
  ].join('\n');
  const table =
    `${markdownTable(rows)}\n\nREST p50 / in-process p50 — ${ratioText}\n\n` +
    `${engineTable}\n\n${cpuTable}\n\n` +
    stepTable('REST one at a time: workflow step', timeline);
  console.log(table);
  await writeFile(path.join(values.out, 'scan-latency.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(
    path.join(values.out, 'scan-latency.md'),
    `# Scan latency (${report.date.slice(0, 10)}, ${report.machine.cpus} cores, Node ${process.version})\n\n${table}\n`,
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}
