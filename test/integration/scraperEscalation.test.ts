import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { type ConnectProxy, startConnectProxy } from '../support/connectProxy.ts';
import { isolatedEnv, startTestWorkers } from '../support/fixtures.ts';
import { type ScrapeSites, startScrapeSites } from '../support/scrapeSites.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';

// The last tiers of the chain on real parts: an authenticated CONNECT proxy started here for the
// browser_proxy tier, a consent wall and a scroll-rendered page for the browser tier, and
// robots.txt's Crawl-delay, with robots honoured. Its own worker, because the proxy tier exists
// only when a proxy is configured.
let sites: ScrapeSites;
let proxy: ConnectProxy;
let workers: RunningWorkers;
let scraper: TestScraper;

beforeAll(async () => {
  [sites, proxy] = await Promise.all([startScrapeSites(), startConnectProxy('scraper', 's3cret:pass')]);
  const env = isolatedEnv(
    scraperTestEnv({
      SCRAPER_PROXY_URLS: proxy.url,
      SCRAPER_RESPECT_ROBOTS: '1',
      SCRAPER_DOMAIN_MAX_WAIT_MS: '0',
    }),
  );
  [workers, scraper] = await Promise.all([
    startTestWorkers(env, { queues: [TaskQueue.scraper] }),
    startTestScraper(env),
  ]);
});

afterAll(async () => {
  await scraper?.close();
  await workers?.shutdown();
  await Promise.all([sites?.close(), proxy?.close()]);
});

const scrape = (body: Record<string, unknown>) =>
  scraper.app.inject({ method: 'POST', url: '/v1/scrape', payload: body });

describe('the browser_proxy tier', () => {
  it('gets a page that blocks direct access through the authenticated upstream proxy, and remembers it', async () => {
    const response = await scrape({ url: sites.url('proxyonly') });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.tier).toBe('browser_proxy');
    expect(body.content).toContain('Only requests through the residential exit read this report');
    expect(
      body.attempts.map((attempt: { tier: string; outcome: string }) => [attempt.tier, attempt.outcome]),
    ).toEqual([
      ['http', 'blocked'],
      ['http_fingerprint', 'blocked'],
      ['browser', 'blocked'],
      ['browser_stealth', 'blocked'],
      ['browser_proxy', 'ok'],
    ]);
    // Through a CONNECT tunnel to the checked address, with the credentials of the proxy URL.
    expect(proxy.tunnels).toContain(sites.host('proxyonly'));
    expect(proxy.refused).toBe(0);

    const again = await scrape({ url: sites.url('proxyonly') });
    expect(again.json().start).toEqual({ tier: 'browser_proxy', reason: 'learned' });
    expect(again.json().attempts.map((attempt: { tier: string }) => attempt.tier)).toEqual(['browser_proxy']);
  });

  it('refuses a private target through the proxy tier as on every other tier', async () => {
    const response = await scrape({ url: 'http://127.0.0.2:9/admin' });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('url_not_allowed');
  });
});

describe('pages a reader has to act on', () => {
  it('scrolls a page that renders its text as it is scrolled', async () => {
    const response = await scrape({ url: sites.url('scroll') });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.tier).toBe('browser');
    for (const part of [1, 2, 3]) expect(body.content).toContain(`Part ${part} of the long read`);
  });

  it('accepts a consent wall and reads the article behind it', async () => {
    const response = await scrape({ url: sites.url('consent'), wait_for: '#article', format: 'text' });
    expect(response.statusCode).toBe(200);
    expect(response.json().content).toContain('The treasury proposal passed with sixty percent');
    expect(response.json().content).not.toContain('cookies to store');
  });
});

describe('robots.txt Crawl-delay', () => {
  it('spaces requests to the domain by the Crawl-delay: a second request within it is answered 429', async () => {
    const first = await scrape({ url: sites.url('crawldelay', '/a') });
    expect(first.statusCode).toBe(200);
    const second = await scrape({ url: sites.url('crawldelay', '/b') });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({ code: 'rate_limited', scope: 'domain' });
    expect(second.json().attempts[0].reason).toContain('Crawl-delay of 30 s');
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(20);
    expect(sites.hits('crawldelay').filter((path) => path !== '/robots.txt')).toEqual(['/a']);
  });
});

describe('options for LLM use', () => {
  it('answers chunks with offsets into content, the links list, and the whole page on request', async () => {
    const response = await scrape({
      url: sites.url('static'),
      include_links: true,
      chunks: { max_chars: 200, overlap_chars: 0 },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.links).toEqual([{ text: 'the browser notes', href: sites.url('static', '/docs/browsers') }]);
    expect(body.chunks.length).toBeGreaterThan(0);
    for (const chunk of body.chunks) expect(body.content.slice(chunk.start, chunk.end)).toBe(chunk.text);

    const whole = await scrape({ url: sites.url('static'), only_main_content: false, format: 'text' });
    expect(whole.json().content).toContain('About us');
    expect(whole.json().content).toContain('Fixture footer');
    expect(whole.json().links).toBeUndefined();
  });

  it('refuses options that do not fit the format, with a problem naming the field', async () => {
    const html = await scrape({ url: sites.url('static'), format: 'html', chunks: true });
    expect(html.statusCode).toBe(422);
    const overlap = await scrape({
      url: sites.url('static'),
      chunks: { max_chars: 300, overlap_chars: 200 },
    });
    expect(overlap.statusCode).toBe(422);
    const types = await scrape({ url: sites.url('static'), include_links: 'yes', only_main_content: 1 });
    expect(types.statusCode).toBe(422);
    expect(types.json().errors.map((error: { loc: string[] }) => error.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.include_links', 'body.only_main_content']),
    );
  });
});
