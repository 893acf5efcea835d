import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { isolatedEnv, startTestWorkers } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { type ScrapeSites, startScrapeSites } from '../support/scrapeSites.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';
import { awayFromMinuteEdge, until } from '../support/until.ts';

// The scraper's callers, over real HTTP with a real worker: sessions belong to the caller that
// made them, API keys can be required, and a rotating X-Client-ID buys no extra requests.

let sites: ScrapeSites;
let workers: RunningWorkers;
let scraper: TestScraper;
let url: string;
let env: Record<string, string>;
const KEY = 'scraper-caller-key-0123456789';

beforeAll(async () => {
  sites = await startScrapeSites();
  env = isolatedEnv(scraperTestEnv());
  [workers, scraper] = await Promise.all([
    startTestWorkers(env, { queues: [TaskQueue.scraper] }),
    startTestScraper(env),
  ]);
  url = await listenOnLoopback(scraper.app);
});
afterAll(async () => {
  await scraper?.close();
  await workers?.shutdown();
  await sites?.close();
});

const scrapeAt = (base: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${base}/v1/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('scrape sessions', () => {
  it('belong to their caller: another caller naming the same session_id gets an empty jar', async () => {
    const session = `shared-name-${Date.now()}`;
    const alice = { 'x-client-id': `alice-${Date.now()}` };
    const mallory = { 'x-client-id': `mallory-${Date.now()}` };
    const login = await scrapeAt(url, { url: sites.url('members', '/login'), session_id: session }, alice);
    expect(((await login.json()) as { content: string }).content).toContain('Signed in');
    // Mallory reads with alice's session name: no HttpOnly cookie comes with it.
    const stolen = (await (
      await scrapeAt(url, { url: sites.url('members', '/members'), session_id: session }, mallory)
    ).json()) as {
      status: number;
      content: string;
    };
    expect(stolen.status).toBe(401);
    expect(stolen.content).not.toContain('vault');
    // Nor can mallory plant a cookie in alice's jar: alice's session still opens the page.
    await scrapeAt(url, { url: sites.url('members', '/login'), session_id: session }, mallory);
    const own = (await (
      await scrapeAt(url, { url: sites.url('members', '/members'), session_id: session }, alice)
    ).json()) as {
      content: string;
    };
    expect(own.content).toContain('vault opens at noon');
  });
});

describe('caller authentication (SCRAPER_API_KEYS)', () => {
  let keyed: TestScraper;
  let keyedUrl: string;
  beforeAll(async () => {
    keyed = await startTestScraper({ ...env, SCRAPER_API_KEYS: `partner:${KEY}` });
    keyedUrl = await listenOnLoopback(keyed.app);
  });
  afterAll(() => keyed?.close());

  it('refuses a caller without a key or with a wrong one, before anything is fetched', async () => {
    const before = sites.hits('static').length;
    for (const headers of [{}, { 'x-api-key': 'not-a-key-of-this-service' }]) {
      const response = await scrapeAt(keyedUrl, { url: sites.url('static') }, headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'unauthorized' });
      expect((await fetch(`${keyedUrl}/v1/strategies/example.com`, { headers })).status).toBe(401);
    }
    expect(sites.hits('static').length).toBe(before);
    // Probes stay open.
    expect((await fetch(`${keyedUrl}/healthz`)).status).toBe(200);
  });

  it('serves a caller with its key', async () => {
    const response = await scrapeAt(keyedUrl, { url: sites.url('static') }, { 'x-api-key': KEY });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { content: string }).content).toContain('Plain HTTP is **cheap**');
  });
});

describe('the caller rate', () => {
  it('counts anonymous callers by network: rotating X-Client-ID buys nothing', async () => {
    await awayFromMinuteEdge(); // the limit counts in fixed wall-clock minutes
    // Its own keys: the rate this file's other requests spent does not count here. Refused URLs
    // are counted like any request, so no page needs fetching.
    const limited = await startTestScraper(
      isolatedEnv(scraperTestEnv({ SCRAPER_CALLER_RATE_PER_MINUTE: '2' })),
    );
    try {
      const limitedUrl = await listenOnLoopback(limited.app);
      // Fixed one-minute windows: do not straddle a window boundary.
      await until(() => Promise.resolve(Date.now() % 60_000 < 55_000 ? true : undefined), {
        timeoutMs: 10_000,
      });
      const statuses = [];
      for (const id of ['a', 'b', 'c'])
        statuses.push(
          (
            await scrapeAt(
              limitedUrl,
              { url: 'http://[::1]/' },
              { 'x-client-id': `rotating-${id}-${Date.now()}` },
            )
          ).status,
        );
      expect(statuses).toEqual([422, 422, 429]);
    } finally {
      await limited.close();
    }
  });
});
