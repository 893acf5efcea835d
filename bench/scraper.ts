// Scraper throughput per tier on local pages, and memory per browser context, in one run.
//   npm run bench:scraper -- [--n 2000] [--browser-n 60]
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseEnv } from '../core/config/env.ts';
import type { ScrapeFormat } from '../core/scrape/outcome.ts';
import { createRedis } from '../clients/redis.ts';
import { freePort, REPO_ROOT } from '../infra/stack/processes.ts';
import { startRedis } from '../infra/stack/services.ts';
import { BrowserPool } from '../scraper/browser/browserPool.ts';
import { resolveChromiumPath } from '../scraper/browser/launchOptions.ts';
import { ScraperEngineEnv } from '../scraper/config.ts';
import { ScraperEngine } from '../scraper/engine.ts';
import { parseAllowlist, parsePortPolicy } from '../scraper/ssrf/addressPolicy.ts';
import { EgressGuard } from '../scraper/ssrf/guard.ts';
import { GuardProxy } from '../scraper/ssrf/guardProxy.ts';
import { startBenchSite } from './scraperPages.ts';
import { type PhaseStats, runPhase } from './stats.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '2000' },
    'browser-n': { type: 'string', default: '30' },
    repeat: { type: 'string', default: '3' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const n = Number(values.n);
const loadBefore = (await import('node:os')).loadavg()[0] ?? 0;
const browserN = Number(values['browser-n']);
// The machine is shared with other work: each phase runs `repeat` times and the median run (by
// pages/s) is reported, with every run's rate kept in the JSON.
const repeat = Number(values.repeat);

const redisService = await startRedis({ port: await freePort() });
const redis = createRedis(redisService.address, { failFast: false, keyPrefix: 'bench:' });
const site = await startBenchSite();
const env = parseEnv(ScraperEngineEnv, {
  SCRAPER_ALLOWLIST: '127.0.0.1/32',
  SCRAPER_ALLOWED_PORTS: '1024-65535',
  SCRAPER_DOMAIN_CONCURRENCY: '1000',
  SCRAPER_DOMAIN_RATE_PER_SECOND: '100000',
  SCRAPER_DOMAIN_BURST: '100000',
  SCRAPER_BROWSER_CONTEXTS: '2',
});
const engine = new ScraperEngine(redis, env);
const rows: (PhaseStats & {
  tier: string;
  format: string;
  page: string;
  runs_per_second: number[];
  load_average: number;
})[] = [];
let job = 0;

async function tierPhase(
  tier: Parameters<ScraperEngine['runTier']>[0],
  count: number,
  concurrency: number,
  options: { path?: string; waitFor?: string; format?: ScrapeFormat } = {},
) {
  const items = Array.from({ length: count }, (_, i) => i);
  const runs: PhaseStats[] = [];
  for (let run = 0; run < repeat; run++) {
    runs.push(
      await runPhase(`${tier} c=${concurrency}`, items, concurrency, async (i) => {
        const attempt = await engine.runTier(
          tier,
          {
            jobId: `bench:${job++}`,
            url: `${site.origin}${options.path ?? `/article/${i}`}`,
            format: options.format ?? 'markdown',
            screenshot: false,
            deadline: Date.now() + 30_000,
            startedAt: Date.now(),
            budgetMs: 30_000,
            ...(options.waitFor ? { waitFor: options.waitFor } : {}),
          },
          new AbortController().signal,
        );
        if (attempt.outcome !== 'ok') throw new Error(`${tier}: ${attempt.outcome} ${attempt.reason}`);
      }),
    );
  }
  const sorted = [...runs].sort((a, b) => a.per_second - b.per_second);
  const stats = sorted[Math.floor(sorted.length / 2)];
  if (!stats) return;
  rows.push({
    ...stats,
    tier,
    format: options.format ?? 'markdown',
    page: options.waitFor ? 'client-rendered, wait_for' : 'article',
    runs_per_second: runs.map((run) => run.per_second),
    load_average: Math.round(((await import('node:os')).loadavg()[0] ?? 0) * 10) / 10,
  });
  console.log(
    `[bench] ${stats.phase}: ${stats.per_second} pages/s, p50 ${stats.p50_ms} ms, p95 ${stats.p95_ms} ms, errors ${stats.errors}`,
  );
}

/** PSS (proportional set size, shared pages split fairly) of every Chromium process under this one. */
function chromiumPssKb(): { kb: number; processes: number } {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const descends = (pid: number): boolean => {
    for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current))
      if (current === process.pid) return true;
    return false;
  };
  let kb = 0;
  let processes = 0;
  for (const [pid, name] of names) {
    if (!/chrom/i.test(name) || !descends(pid)) continue;
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      processes++;
    } catch {
      // Gone.
    }
  }
  return { kb, processes };
}

/** Opens `count` contexts at once, each with the article loaded, and reads Chromium's memory. */
async function memoryPerContext(counts: number[]) {
  const proxy = await GuardProxy.start({
    guard: new EgressGuard({
      allow: parseAllowlist('127.0.0.1/32'),
      ports: parsePortPolicy(env.SCRAPER_ALLOWED_PORTS),
    }),
  });
  const max = Math.max(...counts);
  const pool = new BrowserPool({
    launch: {
      executablePath: resolveChromiumPath(env.CHROMIUM_PATH),
      proxyServer: proxy.url,
      sandbox: env.SCRAPER_BROWSER_SANDBOX,
      user: env.SCRAPER_BROWSER_USER,
      maxHeapMb: env.SCRAPER_BROWSER_MAX_HEAP_MB,
      maxMemoryMb: env.SCRAPER_BROWSER_MAX_MEMORY_MB,
    },
    maxContexts: max,
    recycleAfter: 1_000_000,
  });
  const samples: { open_contexts: number; pss_mb: number; processes: number }[] = [];
  // Launch, open and close one context: the idle browser with its network and storage services.
  await pool.withContext({}, new AbortController().signal, async (context) => {
    await (await context.newPage()).goto(`${site.origin}/article/0`);
  });
  const idle = chromiumPssKb();
  samples.push({ open_contexts: 0, pss_mb: Math.round(idle.kb / 1024), processes: idle.processes });
  for (const count of counts) {
    let release: () => void = () => undefined;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let ready = 0;
    const allReady = new Promise<void>((resolve) => {
      for (let i = 0; i < count; i++) {
        void pool.withContext({}, new AbortController().signal, async (context) => {
          const page = await context.newPage();
          await page.goto(`${site.origin}/article/${i}`);
          if (++ready === count) resolve();
          await hold;
        });
      }
    });
    await allReady;
    const used = chromiumPssKb();
    samples.push({ open_contexts: count, pss_mb: Math.round(used.kb / 1024), processes: used.processes });
    console.log(
      `[bench] ${count} open contexts: Chromium PSS ${Math.round(used.kb / 1024)} MB in ${used.processes} processes`,
    );
    release();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await pool.close();
  await proxy.close();
  const last = samples.at(-1) ?? samples[0];
  const perContext =
    last && last.open_contexts > 0
      ? Math.round(((last.pss_mb - (samples[0]?.pss_mb ?? 0)) / last.open_contexts) * 10) / 10
      : 0;
  return { samples, per_context_mb: perContext };
}

try {
  const warm = Math.min(200, n);
  await tierPhase('http', warm, 16);
  rows.length = 0;
  await tierPhase('http', n, 1);
  await tierPhase('http', n, 16);
  await tierPhase('http_fingerprint', n, 16);
  await tierPhase('http', n, 16, { format: 'text' });
  await tierPhase('http', n, 16, { format: 'json' });
  await tierPhase('browser', 4, 1);
  rows.pop();
  await tierPhase('browser', browserN, 1);
  await tierPhase('browser', browserN, 2);
  await tierPhase('browser', browserN, 2, { path: '/app', waitFor: '#ready' });
  await tierPhase('browser_stealth', browserN, 2);
  await engine.close();
  const memory = await memoryPerContext([1, 5, 10]);
  const result = {
    measured_at: new Date().toISOString(),
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    // The machine is shared: the 1-minute load average before and after says how busy it was.
    load_average: { before: loadBefore, after: (await import('node:os')).loadavg()[0] ?? 0 },
    page_bytes: (await (await fetch(`${site.origin}/article/1`)).text()).length,
    phases: rows,
    browser_memory: memory,
  };
  await writeFile(path.join(values.out, 'scraper.json'), `${JSON.stringify(result, null, 2)}\n`);
  const table = [
    '| tier | page | format | concurrency | pages/s | p50 ms | p95 ms | every run, pages/s | load avg | errors |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.tier} | ${row.page} | ${row.format} | ${row.concurrency} | ${row.per_second} | ${row.p50_ms} | ${row.p95_ms} | ${row.runs_per_second.join(', ')} | ${row.load_average} | ${row.errors} |`,
    ),
  ].join('\n');
  const memoryTable = [
    '| open contexts | Chromium PSS MB | processes |',
    '|---|---|---|',
    ...memory.samples.map((sample) => `| ${sample.open_contexts} | ${sample.pss_mb} | ${sample.processes} |`),
  ].join('\n');
  await writeFile(
    path.join(values.out, 'scraper.md'),
    `# Scraper benchmark\n\n${result.measured_at}, ${result.machine.cpus} cores, Node ${result.machine.node}, load average ${result.load_average.before.toFixed(1)} before and ${result.load_average.after.toFixed(1)} after; article page of ${result.page_bytes} bytes on loopback; engine tiers called in-process (domain slot in Redis, conversion, page stored in Redis); each phase run ${repeat} times, the median run shown.\n\n${table}\n\nMemory per open browser context (article loaded), Chromium PSS summed over its processes:\n\n${memoryTable}\n\nMarginal memory per context: ${memory.per_context_mb} MB.\n`,
  );
  console.log(table);
  console.log(memoryTable);
} finally {
  await engine.close().catch(() => undefined);
  await site.close();
  await redis.quit();
  await redisService.process.stop();
}
