import { lookup } from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../core/config/env.ts';
import { createRedis } from '../../clients/redis.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import { ScraperEngineEnv } from '../../scraper/config.ts';
import { ScraperEngine } from '../../scraper/engine.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { isolatedEnv, startTestWorkers, testStack } from '../support/fixtures.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';

// The scraper's egress guard against what a caller could aim it at: the IPv4-compatible IPv6
// form of loopback, ports other than 80, 443 and the configured ones, and internal names, whose
// answers must not tell a caller how they resolve. Real sockets, a real worker and Chromium.

/**
 * A loopback site that records what reached it. `/to/<url>` redirects there; any other path is a
 * page carrying `extras[path]` (markup that reaches out elsewhere).
 */
async function site(
  extras: Record<string, string> = {},
): Promise<{ url: string; port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    hits.push(path);
    if (path.startsWith('/to/')) {
      response.writeHead(302, { location: decodeURIComponent(path.slice(4)) }).end();
      return;
    }
    const filler = 'A page that is long enough to count as content. '.repeat(4);
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<html><body><main><h1>Port policy</h1><p>${filler}</p>${extras[path] ?? ''}</main></body></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A name this machine resolves to a non-public address (what an internal DNS name is to a caller). */
async function internalName(): Promise<string> {
  for (const name of [hostname(), 'ip6-localhost', 'ip6-loopback', 'localhost.localdomain']) {
    if (/(^|\.)localhost\.?$/i.test(name)) continue;
    const records = await lookup(name, { all: true }).catch(() => []);
    if (records.length > 0) return name;
  }
  throw new Error('no name on this machine resolves to a private address (the hosts file has none)');
}

describe('the scraper API against internal targets', () => {
  let workers: RunningWorkers;
  let strict: TestScraper;
  beforeAll(async () => {
    // Nothing allowlisted: loopback is as internal as any private network.
    const env = isolatedEnv(scraperTestEnv({ SCRAPER_ALLOWLIST: '' }));
    [workers, strict] = await Promise.all([
      startTestWorkers(env, { queues: [TaskQueue.scraper] }),
      startTestScraper(env),
    ]);
  });
  afterAll(async () => {
    await strict?.close();
    await workers?.shutdown();
  });

  const scrape = (url: string) =>
    strict.app.inject({ method: 'POST', url: '/v1/scrape', payload: { url, timeout_ms: 10_000 } });

  it('refuses the IPv4-compatible form of loopback and of the metadata address', async () => {
    for (const url of ['http://[::7f00:1]/', 'http://[::a9fe:a9fe]/latest/', 'http://[::127.0.0.1]:8080/']) {
      const response = await scrape(url);
      expect(response.statusCode, url).toBe(422);
      expect(response.json().code, url).toBe('url_not_allowed');
    }
  });

  it('answers an internal name exactly as a name that does not exist', async () => {
    const internal = await internalName();
    const [inward, nowhere] = await Promise.all([
      scrape(`http://${internal}/admin`),
      scrape('http://no-such-host.invalid/admin'),
    ]);
    expect(inward.statusCode).toBe(nowhere.statusCode);
    const strip = (response: typeof inward, host: string) => {
      const {
        request_id: _id,
        job_id: _job,
        domain: _domain,
        instance: _instance,
        ...rest
      } = response.json();
      return JSON.stringify(rest).replaceAll(host, '<host>');
    };
    expect(strip(inward, internal)).toBe(strip(nowhere, 'no-such-host.invalid'));
    expect(inward.body).not.toMatch(/loopback|private|127\.0\.|::1/);
  });
});

describe('the port policy (80, 443 and SCRAPER_ALLOWED_PORTS)', () => {
  let redis: ReturnType<typeof createRedis>;
  let engine: ScraperEngine;
  let allowed: Awaited<ReturnType<typeof site>>;
  let forbidden: Awaited<ReturnType<typeof site>>;
  beforeAll(async () => {
    forbidden = await site();
    const reach = `http://127.0.0.1:${forbidden.port}/secret`;
    allowed = await site({
      '/': `<img src="${reach}.png"><script>fetch('${reach}.json').catch(() => {}); new WebSocket('${reach.replace('http', 'ws')}');</script>`,
      '/frame': `<iframe src="${reach}"></iframe>`,
    });
    const env = isolatedEnv();
    redis = createRedis(testStack().redisUrl, { keyPrefix: env.REDIS_KEY_PREFIX ?? '' });
    engine = new ScraperEngine(
      redis,
      parseEnv(ScraperEngineEnv, {
        SCRAPER_ALLOWLIST: '127.0.0.1/32',
        SCRAPER_ALLOWED_PORTS: String(allowed.port),
        SCRAPER_DOMAIN_RATE_PER_SECOND: '1000',
        SCRAPER_DOMAIN_BURST: '1000',
      }),
    );
  });
  afterAll(async () => {
    await engine?.close();
    redis?.disconnect();
    await Promise.all([allowed?.close(), forbidden?.close()]);
  });

  const job = (url: string) => ({
    jobId: `scrape:ports-${Math.random().toString(36).slice(2)}`,
    url,
    format: 'markdown' as const,
    screenshot: true,
    deadline: Date.now() + 20_000,
    startedAt: Date.now(),
    budgetMs: 15_000,
  });

  it('refuses another port on an allowed address, also when a redirect leads there', async () => {
    const direct = await engine.runTier('http', job(`${forbidden.url}/secret`), new AbortController().signal);
    expect(direct).toMatchObject({ outcome: 'refused' });
    expect(direct.reason).toContain(`port ${forbidden.port} is not allowed`);
    const redirected = await engine.runTier(
      'http',
      job(`${allowed.url}/to/${encodeURIComponent(`${forbidden.url}/secret`)}`),
      new AbortController().signal,
    );
    expect(redirected).toMatchObject({ outcome: 'refused' });
    expect(forbidden.hits).toEqual([]);
  });

  it('lets no subresource, script request, websocket or frame of a browser page through to another port', async () => {
    const rendered = await engine.runTier('browser', job(`${allowed.url}/`), new AbortController().signal);
    expect(rendered.outcome).toBe('ok');
    // A frame navigating there refuses the page (a navigation to a refused place always does).
    const framed = await engine.runTier('browser', job(`${allowed.url}/frame`), new AbortController().signal);
    expect(framed.outcome).toBe('refused');
    expect(forbidden.hits).toEqual([]);
  });
});
