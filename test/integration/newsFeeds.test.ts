import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.ts';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';
import type { KnownToken } from '../../news/feeds/link.ts';
import { ensureNewsSchedule } from '../../news/schedule.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import type { IngestNewsResult } from '../../workflows/ingestNews.ts';
import {
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';

// The news pipeline end to end: real feeds on a local site, read by the reports pool through the
// scraper service (its escalation chain and egress guard), linked to the tokens Vigil has
// scanned, classified, stored once, and answered by get_news_sentiment; the Temporal schedule
// that runs it.

const feeds: Record<string, { type: string; body: () => string }> = {};
let site: Server;
let siteUrl = '';
let scraper: TestScraper;
let backend: TestBackend;
let workers: RunningWorkers[] = [];
let env: Record<string, string>;
let known: KnownToken[] = [];
const hits: string[] = [];

beforeAll(async () => {
  site = createServer((request, response) => {
    hits.push(request.url ?? '');
    const feed = feeds[request.url ?? ''];
    if (feed) response.writeHead(200, { 'content-type': feed.type }).end(feed.body());
    else response.writeHead(404).end();
  });
  site.listen(0, '127.0.0.1');
  await new Promise((resolve) => site.once('listening', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  env = isolatedEnv(scraperTestEnv());
  scraper = await startTestScraper(env);
  const scraperUrl = await listenOnLoopback(scraper.app);
  backend = await startTestBackend(env);
  workers = await Promise.all([
    startTestWorkers(env, { queues: [TaskQueue.scanner, TaskQueue.scraper] }),
    startTestWorkers(
      { ...env, SCRAPER_URL: scraperUrl, RETRIEVAL_URL: 'http://127.0.0.1:9' },
      { queues: [TaskQueue.reports] },
    ),
  ]);
  // Two scanned tokens: what the news is linked to.
  const { scenario } = testStack();
  for (const [index, token] of [scenario.tokens.clean, scenario.tokens.honeypot].entries()) {
    const scan = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/x402-tools/token_risk',
      headers: { 'x-client-id': `news-scan-${index}-${Date.now()}` },
      payload: { chain: 'devnet', address: token.address },
    });
    expect(scan.statusCode, scan.body).toBe(200);
  }
  // The permanent record is written beside the answer, not before it.
  known = await until(async () => {
    const tokens = await backend.deps.scans.knownTokens();
    return tokens.length >= 2 ? tokens : undefined;
  });
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(workers.map((worker) => worker.shutdown()));
  await backend?.close();
  await scraper?.close();
  site?.close();
});

const reportsQueue = () => taskQueueName(TaskQueue.reports, env.TASK_QUEUE_PREFIX);
const news = async (payload: Record<string, unknown>) => {
  const response = await backend.app.inject({
    method: 'POST',
    url: '/api/v1/x402-tools/get_news_sentiment',
    headers: { 'x-client-id': `news-read-${Date.now()}-${Math.random()}` },
    payload,
  });
  return { status: response.statusCode, body: response.json<Record<string, any>>() };
};

describe('the news pipeline', () => {
  it('reads RSS and Atom feeds through the scraper, links items to scanned tokens, and stores each story once', async () => {
    const [clean, honeypot] = [
      known.find((token) => token.address === testStack().scenario.tokens.clean.address),
      known.find((token) => token.address === testStack().scenario.tokens.honeypot.address),
    ];
    if (!clean?.symbol || !honeypot)
      throw new Error(`the scans did not record the tokens: ${JSON.stringify(known)}`);
    feeds['/rss.xml'] = {
      type: 'application/rss+xml; charset=utf-8',
      body: () => `<?xml version="1.0"?><rss version="2.0"><channel><title>Devnet Daily</title>
<item><title>${clean.symbol} surges to record high as liquidity grows</title><link>${siteUrl}/s/1?utm_source=rss</link><pubDate>Mon, 23 Nov 2026 08:30:00 GMT</pubDate></item>
<item><title>Owner keeps the keys to a new supply</title><link>${siteUrl}/s/3</link><description>Contract ${testStack().scenario.tokens.mintable.address} can still mint.</description></item>
<item><title>Warning: holders report they cannot sell</title><link>${siteUrl}/s/2</link><description>The contract ${honeypot.address} blocks sells.</description><pubDate>Mon, 23 Nov 2026 09:30:00 GMT</pubDate></item>
</channel></rss>`,
    };
    feeds['/atom.xml'] = {
      type: 'application/atom+xml',
      body: () => `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Wire</title>
<entry><title>${clean.symbol} surges to record high</title><link href="${siteUrl}/s/1"/><id>urn:1</id><updated>2026-11-23T08:40:00Z</updated></entry></feed>`,
    };
    feeds['/page.html'] = {
      type: 'text/html; charset=utf-8',
      body: () =>
        `<!doctype html><html><head><title>About us</title></head><body><main><h1>About us</h1>${'<p>We write about tokens on the devnet every day, with care for what holders need to know.</p>'.repeat(6)}</main></body></html>`,
    };

    const run = () =>
      backend.deps.temporal.client.workflow.execute('ingestNews', {
        taskQueue: reportsQueue(),
        workflowId: `news-test-${Date.now()}`,
        args: [{ feeds: [`${siteUrl}/rss.xml`, `${siteUrl}/atom.xml`, `${siteUrl}/page.html`] }],
      }) as Promise<IngestNewsResult>;
    const first = await run();
    // The Atom entry is the RSS story under another link form: the same item, stored once
    // (whichever feed of the two, read side by side, came first).
    expect(first.feeds[0]).toMatchObject({ feed: `${siteUrl}/rss.xml`, items: 3 });
    expect(first.feeds[1]).toMatchObject({ feed: `${siteUrl}/atom.xml`, items: 1 });
    expect(first.feeds[2]).toMatchObject({ feed: `${siteUrl}/page.html` });
    // A page that is no feed is that feed's failure, named; the others still count.
    expect((first.feeds[2] as { error: string }).error).toMatch(/not an RSS, Atom, RDF or JSON feed/);
    expect(first.added).toBe(3);
    expect(hits).toEqual(expect.arrayContaining(['/rss.xml', '/atom.xml', '/page.html']));
    const mintable = testStack().scenario.tokens.mintable.address;
    expect((await news({ token: mintable })).body.data).toBeNull();
    // Scanned since, the token is linked by the next round, which stores no item twice.
    const scan = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/x402-tools/token_risk',
      headers: { 'x-client-id': `news-scan-late-${Date.now()}` },
      payload: { chain: 'devnet', address: mintable },
    });
    expect(scan.statusCode, scan.body).toBe(200);
    expect((await run()).added).toBe(0);
    const linkedLater = await news({ token: mintable });
    expect(linkedLater.body.data?.items?.[0]).toMatchObject({
      title: 'Owner keeps the keys to a new supply',
      entities: [{ chain: 'devnet', address: mintable.toLowerCase() }],
    });

    const byAddress = await news({ token: honeypot.address });
    expect(byAddress.status, JSON.stringify(byAddress.body)).toBe(200);
    expect(byAddress.body.data.items).toHaveLength(1);
    expect(byAddress.body.data.items[0]).toMatchObject({
      title: 'Warning: holders report they cannot sell',
      source: 'Devnet Daily',
      sentiment: { label: 'negative' },
      entities: [{ chain: 'devnet', address: honeypot.address.toLowerCase() }],
    });
    const bySymbol = await news({ token: clean.symbol });
    expect(bySymbol.body.data.items[0]).toMatchObject({
      sentiment: { label: 'positive' },
      url: `${siteUrl}/s/1`,
    });
    expect(bySymbol.body.data.aggregate).toMatchObject({ items: 1, positive: 1 });
  });

  it('runs on a Temporal schedule that is created once, updated in place and reads the feeds at once', async () => {
    feeds['/scheduled.json'] = {
      type: 'application/feed+json',
      body: () =>
        JSON.stringify({
          version: 'https://jsonfeed.org/version/1.1',
          title: 'JSON Beat',
          items: [
            { id: 'j1', url: `${siteUrl}/s/scheduled`, title: 'Scheduled round picks up a fresh story' },
          ],
        }),
    };
    const options = {
      feeds: [`${siteUrl}/scheduled.json`],
      everyMinutes: 60,
      taskQueue: reportsQueue(),
      idPrefix: env.TASK_QUEUE_PREFIX ?? '',
    };
    const id = await ensureNewsSchedule(backend.deps.temporal.client, options);
    try {
      const deadline = Date.now() + 20_000;
      let found = 0;
      while (Date.now() < deadline && found === 0) {
        const answer = await news({ topic: 'Scheduled round' });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        found = answer.body.data?.items?.length ?? 0;
        if (found === 0) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(found).toBe(1);
      // A second start (another replica, new settings) updates the schedule instead of failing.
      await ensureNewsSchedule(backend.deps.temporal.client, { ...options, everyMinutes: 30 });
      const described = await backend.deps.temporal.client.schedule.getHandle(id).describe();
      expect(described.spec.intervals?.[0]?.every).toBe(30 * 60_000);
    } finally {
      await backend.deps.temporal.client.schedule.getHandle(id).delete();
    }
  });
});
