// Research reports end to end on the devnet scenario: REST → Temporal → reports pool (sections on
// the indexed chain data), scanner pool (the token scan), scraper pool (the PDF), retrieval
// service (similar tokens). Measures the time from the request to the completed report, with
// every section completed, and the size of each PDF.
//   npm run bench:reports -- [--rounds 3]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startAnvil } from '../infra/devnet/anvil.ts';
import { deployScenario, scenarioGenesisTimestamp } from '../infra/devnet/scenario.ts';
import { freePort, type ManagedProcess, REPO_ROOT, spawnService } from '../infra/stack/processes.ts';
import { startMongo, startRedis, startTemporal } from '../infra/stack/services.ts';
import { indexDevnet } from '../test/support/chaindata.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const rounds = Number(values.rounds);
const KEY = 'vigil-bench-key-0123456789abcdef';
/** Scenario tokens with pools, swaps and holders: what a report has the most to say about. */
const TOKENS = ['clean', 'rug_pulled', 'concentrated', 'thin_pool', 'honeypot', 'modifiable_fee'] as const;

const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-reports-'));
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
  const scenario = await deployScenario(anvil.url);
  const chaindata = path.join(dir, 'chaindata');
  await indexDevnet(chaindata, anvil.url);
  const [apiPort, retrievalPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    REDIS_URL: redis.address,
    MONGODB_URI: mongo.address,
    RPC_URLS_DEVNET: anvil.url,
    CHAINDATA_DIR: chaindata,
    VIGIL_DATA_DIR: path.join(dir, 'data'),
    RETRIEVAL_URL: `http://127.0.0.1:${retrievalPort}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: '0',
    API_KEYS: `bench:pro:${KEY}`,
  };
  const children: ManagedProcess[] = await Promise.all([
    spawnService({
      name: 'backend',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'api', 'backend', 'server.ts')],
      env: { ...env, PORT: String(apiPort) },
      ready: async () => (await fetch(`http://127.0.0.1:${apiPort}/ready`)).ok,
    }),
    spawnService({
      name: 'retrieval',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'api', 'retrieval', 'server.ts')],
      env: { ...env, PORT: String(retrievalPort) },
      readyTimeoutMs: 120_000,
      ready: async () => (await fetch(`http://127.0.0.1:${retrievalPort}/healthz`)).ok,
    }),
    spawnService({
      name: 'workers',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'scanner', 'reports', 'scraper'],
      env,
      readyTimeoutMs: 120_000,
      ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
    }),
  ]);
  for (const child of children) stops.push(() => child.stop());

  const api = `http://127.0.0.1:${apiPort}/api/v1/reports`;
  const headers = { 'content-type': 'application/json', 'x-api-key': KEY };
  const report = async (address: string) => {
    const started = performance.now();
    const created = await fetch(api, {
      method: 'POST',
      headers,
      body: JSON.stringify({ chain: 'devnet', address }),
    });
    if (created.status !== 202) throw new Error(`HTTP ${created.status}: ${await created.text()}`);
    const { job_id: jobId } = (await created.json()) as { job_id: string };
    const url = `${api}/${encodeURIComponent(jobId)}`;
    for (;;) {
      const job = (await (await fetch(url, { headers })).json()) as {
        status: string;
        result: { sections: { kind: string; status: string }[]; formats: string[] } | null;
      };
      if (job.status !== 'running') {
        const ms = performance.now() - started;
        const failed = job.result?.sections.filter((section) => section.status !== 'completed') ?? [];
        const pdf = await fetch(`${url}/report.pdf`, { headers });
        const pdfBytes = pdf.ok ? (await pdf.arrayBuffer()).byteLength : null;
        return { status: job.status, ms, failed: failed.map((section) => section.kind), pdfBytes };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  // Warm-up: the workers' first report loads the workflow bundle, DuckDB and the browser.
  await report(scenario.tokens.stable.address);
  const runs: { token: string; status: string; ms: number; failed: string[]; pdfBytes: number | null }[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const token of TOKENS) {
      const run = await report(scenario.tokens[token].address);
      runs.push({ token, ...run });
      console.log(
        `[bench] ${token}: ${run.status} in ${Math.round(run.ms)} ms, failed [${run.failed.join(', ')}], pdf ${run.pdfBytes} B`,
      );
    }
  }
  const times = runs.map((run) => run.ms).sort((a, b) => a - b);
  const pdfs = runs.flatMap((run) => (run.pdfBytes === null ? [] : [run.pdfBytes]));
  const summary = {
    reports: runs.length,
    completed: runs.filter((run) => run.status === 'completed').length,
    all_sections_completed: runs.filter((run) => run.failed.length === 0).length,
    p50_ms: Math.round(percentile(times, 50)),
    p95_ms: Math.round(percentile(times, 95)),
    max_ms: Math.round(times.at(-1) ?? 0),
    pdf_max_bytes: Math.max(0, ...pdfs),
    pdf_median_bytes: [...pdfs].sort((a, b) => a - b)[Math.floor(pdfs.length / 2)] ?? 0,
    runs,
    machine: { cpus: os.cpus().length, node: process.version },
    measured_at: new Date().toISOString(),
  };
  console.log(JSON.stringify({ ...summary, runs: undefined }, null, 2));
  await writeFile(path.join(values.out, 'reports.json'), `${JSON.stringify(summary, null, 2)}\n`);
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}
