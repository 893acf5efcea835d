// Plain-tier pages through the scraper service (POST /v1/scrape → scrapePage workflow → tier),
// against the same engine tier called in-process, in one run on one machine, with where a
// request's time goes inside Temporal (the workflows' histories).
//   npm run bench:scrape-service -- [--n 300] [--concurrency 16]
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRedis } from '../clients/redis.ts';
import { parseEnv } from '../core/config/env.ts';
import { freePort, type ManagedProcess, REPO_ROOT, spawnService } from '../infra/stack/processes.ts';
import { startRedis, startTemporal } from '../infra/stack/services.ts';
import { ScraperEngineEnv } from '../scraper/config.ts';
import { ScraperEngine } from '../scraper/engine.ts';
import { startBenchSite } from './scraperPages.ts';
import { markdownTable, type PhaseStats, runPhase } from './stats.ts';
import { stepTable, workflowTimelines } from './x402Breakdown.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '16' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const n = Number(values.n);
const concurrency = Number(values.concurrency);
const WARMUP = 20;
const KEY = 'bench-scrape-key-0123456789abcdef';

// The bench site is the one private address the scraper may reach; no politeness budget caps a
// load generator that is the only caller.
const egress = {
  SCRAPER_ALLOWLIST: '127.0.0.1/32',
  SCRAPER_ALLOWED_PORTS: '1024-65535',
  SCRAPER_DOMAIN_CONCURRENCY: '1000',
  SCRAPER_DOMAIN_RATE_PER_SECOND: '100000',
  SCRAPER_DOMAIN_BURST: '100000',
};
const stops: (() => Promise<void>)[] = [];
try {
  const [temporal, redis, site] = await Promise.all([
    freePort().then((port) => startTemporal({ port })),
    freePort().then((port) => startRedis({ port })),
    startBenchSite(),
  ]);
  stops.push(
    () => temporal.process.stop(),
    () => redis.process.stop(),
    () => site.close(),
  );
  const port = await freePort();
  const env = {
    ...process.env,
    ...egress,
    TEMPORAL_ADDRESS: temporal.address,
    REDIS_URL: redis.address,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SCRAPER_API_KEYS: `bench:${KEY}`,
    SCRAPER_CALLER_RATE_PER_MINUTE: '1000000',
  };
  const children: ManagedProcess[] = await Promise.all([
    spawnService({
      name: 'scraper',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'api', 'scraper', 'server.ts')],
      env,
      ready: async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok,
    }),
    spawnService({
      name: 'workers',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'scraper'],
      env,
      readyTimeoutMs: 120_000,
      ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
    }),
  ]);
  for (const child of children) stops.push(() => child.stop());

  // A scrape's job id is its workflow id.
  const recorded: string[] = [];
  let recording = false;
  let page = 0;
  const throughService = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({ url: `${site.origin}/article/${page++ % 2000}`, format: 'markdown' }),
    });
    const body = (await response.json()) as { job_id?: string; tier?: string };
    if (response.status !== 200 || body.tier !== 'http')
      throw new Error(`HTTP ${response.status} ${body.tier}`);
    if (recording && body.job_id) recorded.push(body.job_id);
  };

  // The engine's plain tier called directly, as the tier activity calls it: no Temporal.
  const engineRedis = createRedis(redis.address, { failFast: false, keyPrefix: 'bench-engine:' });
  const engine = new ScraperEngine(engineRedis, parseEnv(ScraperEngineEnv, egress));
  stops.push(async () => {
    await engine.close();
    await engineRedis.quit();
  });
  let job = 0;
  const inProcess = async () => {
    const attempt = await engine.runTier(
      'http',
      {
        jobId: `bench:${job++}`,
        url: `${site.origin}/article/${page++ % 2000}`,
        format: 'markdown',
        screenshot: false,
        deadline: Date.now() + 30_000,
        startedAt: Date.now(),
        budgetMs: 30_000,
      },
      new AbortController().signal,
    );
    if (attempt.outcome !== 'ok') throw new Error(`http: ${attempt.outcome} ${attempt.reason}`);
  };

  const items = Array.from({ length: n }, (_, i) => i);
  await runPhase('warmup', items.slice(0, WARMUP), concurrency, throughService);
  await runPhase('warmup', items.slice(0, WARMUP), concurrency, inProcess);
  const rows: PhaseStats[] = [
    await runPhase('plain tier in-process (no Temporal)', items, 1, inProcess),
    await runPhase('POST /v1/scrape → Temporal → worker', items, 1, () => {
      recording = true;
      return throughService().finally(() => (recording = false));
    }),
    await runPhase('plain tier in-process (no Temporal)', items, concurrency, inProcess),
    await runPhase('POST /v1/scrape → Temporal → worker', items, concurrency, throughService),
  ];
  const timeline = await workflowTimelines(temporal.address, recorded, { localActivities: true });
  const load = Math.round((os.loadavg()[0] ?? 0) * 10) / 10;
  const text = `${markdownTable(rows, 'pages/s')}\n\nLoad average at the end: ${load}\n\n${stepTable('service one at a time: workflow step', timeline)}`;
  console.log(text);
  const date = new Date().toISOString();
  await writeFile(
    path.join(values.out, 'scrape-service.json'),
    `${JSON.stringify({ benchmark: 'scrape-service', date, cpus: os.cpus().length, node: process.version, n, concurrency, load_average: load, phases: rows, timeline }, null, 2)}\n`,
  );
  await writeFile(
    path.join(values.out, 'scrape-service.md'),
    `# Scrape path through the service (${date.slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version})\n\n${text}\n`,
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
}
