import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../core/config/env.ts';
import { createRedis } from '../../clients/redis.ts';
import { ScraperEngineEnv } from '../../scraper/config.ts';
import { ScraperEngine } from '../../scraper/engine.ts';
import { isolatedEnv, testStack } from '../support/fixtures.ts';
import { until } from '../support/until.ts';

// Chromium runs attacker-chosen pages: each renderer must be sandboxed, and a page must not take
// more than its share of bytes, DOM or memory. Real Chromium through the scraper engine, on
// local pages that attack it.

const MIB = 1024 * 1024;
let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => (release = resolve));
/** Set once the held page's script was asked for: its renderer has parsed the page by then. */
let scriptRequested = false;

const PAGES: Record<string, (response: http.ServerResponse) => void> = {
  // A script that does not arrive until the test has looked at the browser's processes.
  '/held': (response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Held open</h1>
<p>${'This page waits for a script the server holds back. '.repeat(4)}</p><script src="/slow.js"></script></body></html>`);
  },
  '/slow.js': (response) => {
    scriptRequested = true;
    void held.then(() => response.writeHead(200, { 'content-type': 'text/javascript' }).end(''));
  },
  // Pulls in megabytes of scripts: past its byte budget.
  '/heavy': (response) => {
    const scripts = Array.from({ length: 6 }, (_, index) => `<script src="/blob.js?${index}"></script>`).join(
      '',
    );
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<html><body><h1>Heavy</h1>${scripts}</body></html>`);
  },
  '/blob.js': (response) =>
    response.writeHead(200, { 'content-type': 'text/javascript' }).end(`/*${'x'.repeat(MIB)}*/`),
  // Builds a DOM far past its node limit.
  '/dom-bomb': (response) =>
    response.writeHead(200, { 'content-type': 'text/html' })
      .end(`<html><body><h1>Nodes</h1><div id="root"></div><script>
const root = document.getElementById('root');
const grow = () => { for (let i = 0; i < 5000; i++) root.appendChild(document.createElement('span')); setTimeout(grow, 10); };
grow();
</script></body></html>`),
  // Holds on to ever more memory.
  '/heap-bomb': (response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Heap</h1><script>
const kept = [];
const grow = () => { for (let i = 0; i < 16; i++) kept.push(new Array(256 * 1024).fill(Math.random())); setTimeout(grow, 10); };
grow();
</script></body></html>`),
  // Holds on to memory outside the JavaScript heap (array buffers), which no V8 limit bounds.
  '/buffer-bomb': (response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Buffers</h1><script>
const kept = [];
const grow = () => { kept.push(new Uint8Array(16 * 1024 * 1024).fill(7)); setTimeout(grow, 20); };
grow();
</script></body></html>`),
  '/fine': (response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main><h1>An ordinary page</h1>
<p>${'Nothing here takes more than its share of anything. '.repeat(4)}</p></main></body></html>`),
};

let server: http.Server;
let origin: string;
let redis: ReturnType<typeof createRedis>;
let engine: ScraperEngine;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    const page = PAGES[(request.url ?? '/').split('?')[0] ?? '/'];
    if (page) page(response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  redis = createRedis(testStack().redisUrl, { keyPrefix: isolatedEnv().REDIS_KEY_PREFIX ?? '' });
  engine = new ScraperEngine(
    redis,
    parseEnv(ScraperEngineEnv, {
      SCRAPER_ALLOWLIST: '127.0.0.1/32',
      SCRAPER_ALLOWED_PORTS: '1024-65535',
      SCRAPER_DOMAIN_RATE_PER_SECOND: '1000',
      SCRAPER_DOMAIN_BURST: '1000',
      SCRAPER_BROWSER_MAX_BYTES: String(2 * MIB),
      SCRAPER_BROWSER_MAX_DOM_NODES: '20000',
      SCRAPER_BROWSER_MAX_HEAP_MB: '96',
      SCRAPER_BROWSER_MAX_MEMORY_MB: '320',
    }),
  );
});
afterAll(async () => {
  release();
  await engine?.close();
  redis?.disconnect();
  await new Promise((resolve) => server?.close(resolve));
});

/**
 * A browser job. The bombs are scraped with a `wait_for` that never appears, so the tier keeps
 * the page open until a limit stops it (or, without limits, until its budget runs out).
 */
const job = (path: string, waitFor?: string, budgetMs = 15_000) => ({
  jobId: `scrape:isolation-${Math.random().toString(36).slice(2)}`,
  url: `${origin}${path}`,
  format: 'markdown' as const,
  screenshot: false,
  deadline: Date.now() + budgetMs + 5_000,
  startedAt: Date.now(),
  budgetMs,
  ...(waitFor ? { waitFor } : {}),
});

/** This process's descendants that run Chromium, by pid: their command line and status. */
function chromiumDescendants(): { pid: string; type: string; status: string; userNs: string }[] {
  const parentOf = (pid: string) => /PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  const isOurs = (pid: string) => {
    let current: string | undefined = pid;
    for (let depth = 0; depth < 12 && current && current !== '1'; depth++) {
      if (current === String(process.pid)) return true;
      current = parentOf(current);
    }
    return false;
  };
  const found = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(command) || !isOurs(pid)) continue;
      found.push({
        pid,
        type: /--type=([a-z-]+)/.exec(command)?.[1] ?? 'browser',
        status: readFileSync(`/proc/${pid}/status`, 'utf8'),
        userNs: readlinkSync(`/proc/${pid}/ns/user`),
      });
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const field = (status: string, name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(status)?.[1];

describe('the browser tier', () => {
  it('renders pages in sandboxed renderers: seccomp-filtered, unprivileged, in their own user namespace', async () => {
    const rendering = engine.runTier('browser', job('/held'), new AbortController().signal);
    // The page's renderer is running page code once it asks for the held script.
    await until(() => Promise.resolve(scriptRequested ? true : undefined));
    const ownNamespace = readlinkSync('/proc/self/ns/user');
    const sandboxed = (renderer: ReturnType<typeof chromiumDescendants>[number]) =>
      field(renderer.status, 'Seccomp') === '2' &&
      field(renderer.status, 'NoNewPrivs') === '1' &&
      field(renderer.status, 'Uid') !== '0' &&
      renderer.userNs !== ownNamespace;
    // A renderer Chromium has just forked (a spare one) enters its sandbox a moment later: every
    // renderer must be in it within the deadline; one that runs unsandboxed never is.
    const renderers = await until(
      () => {
        const found = chromiumDescendants().filter((entry) => entry.type === 'renderer');
        return Promise.resolve(found.length > 0 && found.every(sandboxed) ? found : undefined);
      },
      { timeoutMs: 10_000 },
    );
    expect(renderers.length).toBeGreaterThan(0);
    release();
    expect((await rendering).outcome).toBe('ok');
  });

  it('stops a page past its byte budget', async () => {
    const attempt = await engine.runTier('browser', job('/heavy'), new AbortController().signal);
    expect(attempt).toMatchObject({ outcome: 'failed', reason: 'page_too_large' });
  });

  it('stops a page whose DOM grows past its node limit', async () => {
    const attempt = await engine.runTier(
      'browser',
      job('/dom-bomb', '#never', 10_000),
      new AbortController().signal,
    );
    expect(attempt).toMatchObject({ outcome: 'failed', reason: 'dom_too_large' });
  });

  it('stops a page whose memory grows past its heap limit', async () => {
    const attempt = await engine.runTier(
      'browser',
      job('/heap-bomb', '#never', 10_000),
      new AbortController().signal,
    );
    expect(attempt).toMatchObject({ outcome: 'failed', reason: 'page_memory_exceeded' });
  });

  it('stops a page whose memory outside the heap grows past the renderer’s limit', async () => {
    const attempt = await engine.runTier(
      'browser',
      job('/buffer-bomb', '#never', 10_000),
      new AbortController().signal,
    );
    expect(attempt).toMatchObject({ outcome: 'failed', reason: 'page_memory_exceeded' });
  });

  it('still serves an ordinary page after all of them', async () => {
    const attempt = await engine.runTier('browser', job('/fine'), new AbortController().signal);
    expect(attempt.outcome).toBe('ok');
  });
});
