import { WorkflowFailedError } from '@temporalio/client';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { recordHistory } from '../support/recordHistory.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeProgressQuery } from '../../core/scrape/messages.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { scrapePage } from '../../workflows/scrapePage.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { WORKFLOWS_ENTRY } from '../../workers/workflowBundle.ts';
import { isolatedEnv, startTestWorkers } from '../support/fixtures.ts';
import { type ScrapeSites, startScrapeSites } from '../support/scrapeSites.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';
import { awayFromMinuteEdge, until } from '../support/until.ts';

// The scraper end to end on real parts: the API, Temporal, a scraper worker with its pooled
// Chromium (one browser for this file), Redis, and local sites started here.
let sites: ScrapeSites;
let workers: RunningWorkers;
let scraper: TestScraper;
let env: Record<string, string>;

beforeAll(async () => {
  sites = await startScrapeSites();
  env = isolatedEnv(scraperTestEnv());
  [workers, scraper] = await Promise.all([
    startTestWorkers(env, { queues: [TaskQueue.scraper] }),
    startTestScraper(env),
  ]);
});

afterAll(async () => {
  await scraper?.close();
  await workers?.shutdown();
  await sites?.close();
});

const scrape = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  scraper.app.inject({ method: 'POST', url: '/v1/scrape', payload: body, headers });

/** A closed run's steps: the local activities it ran in its workflow tasks, the activities it dispatched. */
async function stepsOf(jobId: string) {
  const run = scraper.deps.temporal.client.workflow.getHandle(jobId);
  await run.result();
  const history = await run.fetchHistory();
  const events = history.events ?? [];
  const local = events.flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    const data = marker?.details?.data?.payloads?.[0]?.data;
    if (marker?.markerName !== 'core_local_activity' || !data) return [];
    return [(JSON.parse(Buffer.from(data).toString()) as { activity_type: string }).activity_type];
  });
  const dispatched = events.flatMap((event) => {
    const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
    return type ? [type] : [];
  });
  return { history, local, dispatched };
}

describe('POST /v1/scrape', () => {
  it('scrapes a static page over plain HTTP into markdown with absolute links and a GFM table', async () => {
    const response = await scrape({ url: sites.url('static') });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ url: sites.url('static'), status: 200, format: 'markdown', tier: 'http' });
    // The headline that repeats the page's title is left out (json carries the title).
    expect(body.content).not.toContain('# Engine costs');
    expect(body.content).toContain('Plain HTTP is **cheap**');
    expect(body.content).toContain(`[the browser notes](${sites.url('static', '/docs/browsers')})`);
    expect(body.content).toContain('| Tier | Cost |');
    expect(body.content).not.toContain('About us');
    expect(body.content).not.toContain('Fixture footer');
    expect(body.elapsed_ms).toBeGreaterThan(0);
    expect(body.attempts).toEqual([expect.objectContaining({ tier: 'http', outcome: 'ok', status: 200 })]);

    // A page the plain tier gets is one step: planned and got in one local activity, which also
    // recorded what the domain taught, so the workflow records nothing after it.
    const steps = await stepsOf(body.job_id);
    expect(steps.local).toEqual(['scrapeFirst']);
    expect(steps.dispatched).toEqual([]);
    const strategy = await scraper.app.inject({
      method: 'GET',
      url: `/v1/strategies/${sites.host('static')}`,
    });
    expect(strategy.json()).toMatchObject({ known: true, preferred_tier: 'http' });
  });

  it('answers the other formats: text with block boundaries, json extraction and JSON passthrough', async () => {
    const [text, json, passthrough] = await Promise.all([
      scrape({ url: sites.url('static'), format: 'text' }),
      scrape({ url: sites.url('static'), format: 'json' }),
      scrape({ url: sites.url('static', '/data.json'), format: 'json' }),
    ]);
    expect(text.json().content).toContain('Plain HTTP is cheap; read the browser notes.');
    expect(text.json().content).toContain('Tier\tCost\nhttp\t1\nbrowser\t10');
    expect(json.json().content).toMatchObject({
      title: 'Vigil fixture: engine costs',
      description: 'What each scraping engine costs',
      language: 'en',
      headings: [{ level: 1, text: 'Engine costs' }],
    });
    expect(passthrough.json().content).toEqual({ tokens: [{ symbol: 'VGL', risk: 12 }] });
  });

  it('renders a client-side page in the browser, awaits wait_for and attaches a screenshot', async () => {
    const response = await scrape({ url: sites.url('app'), wait_for: '#ready', screenshot: true });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.tier).toBe('browser');
    expect(body.start).toEqual({ tier: 'browser', reason: 'default+forced_browser' });
    expect(body.content).toContain('# Rendered by the client');
    expect(body.content).toContain('Token list loaded.');
    expect(Buffer.from(body.screenshot, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  it('keeps a session: an HttpOnly cookie set on login opens the members page, in HTTP and in the browser', async () => {
    const session = `sess-${Date.now()}`;
    const login = await scrape({ url: sites.url('members', '/login'), session_id: session });
    expect(login.json().content).toContain('Signed in');

    const members = await scrape({ url: sites.url('members', '/members'), session_id: session });
    expect(members.json()).toMatchObject({ status: 200, tier: 'http' });
    expect(members.json().content).toContain('The members-only report says the vault opens at noon.');

    // The browser restores the same jar (the HttpOnly cookie included).
    const rendered = await scrape({
      url: sites.url('members', '/members'),
      session_id: session,
      wait_for: '#secret',
    });
    expect(rendered.json().tier).toBe('browser');
    expect(rendered.json().content).toContain('vault opens at noon');

    const stranger = await scrape({ url: sites.url('members', '/members') });
    expect(stranger.json().status).toBe(401);
    expect(stranger.json().content).toContain('Please sign in');
    expect(stranger.json().content).not.toContain('vault');
  });

  it('escalates past a JavaScript challenge to the browser, remembers it, and starts there next time', async () => {
    const first = await scrape({ url: sites.url('jswall') });
    expect(first.statusCode).toBe(200);
    expect(first.json().content).toContain('Only clients that run JavaScript read this paragraph.');
    expect(
      first
        .json()
        .attempts.map((attempt: { tier: string; outcome: string }) => [attempt.tier, attempt.outcome]),
    ).toEqual([
      ['http', 'blocked'],
      ['http_fingerprint', 'blocked'],
      ['browser', 'ok'],
    ]);
    expect(first.json().attempts[0].reason).toContain('HTTP 403');

    const strategy = await scraper.app.inject({
      method: 'GET',
      url: `/v1/strategies/${sites.host('jswall')}`,
    });
    expect(strategy.json()).toMatchObject({
      known: true,
      preferred_tier: 'browser',
      start_tier: 'browser',
      start_reason: 'learned',
    });
    expect(strategy.json().tiers.map((tier: { tier: string }) => tier.tier)).toEqual([
      'http',
      'http_fingerprint',
      'browser',
    ]);

    // The escalation's history replays on the current workflow code (recorded for the offline replay test).
    // The answer came on the browser tier's word.
    const { history, local, dispatched } = await stepsOf(first.json().job_id);
    await Worker.runReplayHistory({ workflowsPath: WORKFLOWS_ENTRY }, history, first.json().job_id);
    // The plan and the plain tier ran in one local activity inside the workflow task; the tiers
    // it escalated to were dispatched, each under its own name; the browser tier that got the
    // page recorded the strategy, so the workflow did not record it again.
    expect(local).toEqual(['scrapeFirst']);
    expect(dispatched).toEqual(['scrapeHttpFingerprint', 'scrapeBrowser']);
    if (process.env.RECORD_HISTORIES) {
      recordHistory('scrapePage', history);
    }

    const second = await scrape({ url: sites.url('jswall') });
    expect(second.json().start).toEqual({ tier: 'browser', reason: 'learned' });
    expect(second.json().attempts.map((attempt: { tier: string }) => attempt.tier)).toEqual(['browser']);
    expect(second.json().content).toContain('Only clients that run JavaScript');
  });

  it('gets past headless detection with the hardened browser tier', async () => {
    const response = await scrape({ url: sites.url('headless') });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.tier).toBe('browser_stealth');
    expect(body.content).toContain('# Welcome, human');
    expect(
      body.attempts.map((attempt: { tier: string; outcome: string }) => [attempt.tier, attempt.outcome]),
    ).toEqual([
      ['http', 'needs_js'],
      ['browser', 'blocked'],
      ['browser_stealth', 'ok'],
    ]);
    expect(body.attempts[1].reason).toBe('turnstile_captcha');
  });

  it('answers 451 with every attempt and its reason when the whole chain is blocked', async () => {
    const response = await scrape({ url: sites.url('blocked') });
    expect(response.statusCode).toBe(451);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const problem = response.json();
    expect(problem.code).toBe('scrape_blocked');
    // The problem type URL resolves to its documentation on this service.
    const doc = await scraper.app.inject({ method: 'GET', url: new URL(problem.type).pathname });
    expect(doc.json()).toMatchObject({ code: 'scrape_blocked', status: 451 });
    expect(problem.attempts.map((attempt: { tier: string }) => attempt.tier)).toEqual([
      'http',
      'http_fingerprint',
      'browser',
      'browser_stealth',
    ]);
    for (const attempt of problem.attempts) {
      expect(attempt).toMatchObject({ outcome: 'blocked', status: 403 });
      expect(attempt.reason).toMatch(/HTTP 403 (access_denied|captcha)/);
    }
  });

  it('answers 504 when timeout_ms runs out on a page that never answers', async () => {
    const started = Date.now();
    const response = await scrape({ url: sites.url('slow'), timeout_ms: 1_500 });
    expect(response.statusCode).toBe(504);
    expect(response.json()).toMatchObject({ code: 'scrape_timeout', timeout_ms: 1_500 });
    expect(response.json().attempts[0]).toMatchObject({ tier: 'http', outcome: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_500 + 3_000);
  });

  it('refuses redirects to the metadata address and to IPv4-mapped loopback, and a browser sent to a private address', async () => {
    const metadata = await scrape({ url: sites.url('redirector', '/to-metadata') });
    expect(metadata.statusCode).toBe(422);
    expect(metadata.json().code).toBe('url_not_allowed');
    expect(metadata.json().detail).toContain('linkLocal');

    const mapped = await scrape({ url: sites.url('redirector', '/to-mapped-loopback') });
    expect(mapped.statusCode).toBe(422);
    expect(mapped.json().detail).toContain('loopback');

    const browser = await scrape({ url: sites.url('redirector', '/'), wait_for: '#admin' });
    expect(browser.statusCode).toBe(422);
    expect(browser.json().attempts[0]).toMatchObject({ tier: 'browser', outcome: 'refused' });
  });

  it('answers 429 with the target’s Retry-After when the target rate-limits, and backs off the domain', async () => {
    const response = await scrape({ url: sites.url('ratelimited') });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.json()).toMatchObject({ code: 'rate_limited', scope: 'target', retry_after_s: 7 });
    expect(sites.hits('ratelimited')).toHaveLength(1);

    // The back-off is remembered: the next request does not reach the target at all.
    const again = await scrape({ url: sites.url('ratelimited') });
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect(sites.hits('ratelimited')).toHaveLength(1);
  });

  it('answers 429 with Retry-After when the caller is over its per-minute rate', async () => {
    // A caller of its own (anonymous callers are counted by network, which this file shares).
    const key = `rate-caller-key-${Date.now()}`;
    const limited = await startTestScraper({
      ...env,
      SCRAPER_CALLER_RATE_PER_MINUTE: '2',
      SCRAPER_API_KEYS: `ratecaller:${key}`,
    });
    try {
      await awayFromMinuteEdge(); // fixed one-minute windows
      const headers = { 'x-api-key': key };
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          await limited.app.inject({
            method: 'POST',
            url: '/v1/scrape',
            payload: { url: sites.url('static') },
            headers,
          }),
        );
      expect(statuses.map((response) => response.statusCode)).toEqual([200, 200, 429]);
      expect(statuses[1]?.headers['x-ratelimit-remaining']).toBe('0');
      const problem = statuses[2];
      expect(Number(problem?.headers['retry-after'])).toBeGreaterThan(0);
      expect(problem?.json()).toMatchObject({ code: 'rate_limited', scope: 'caller' });
    } finally {
      await limited.close();
    }
  });

  it('refuses loopback without the allowlist, and invalid input with a problem naming the field', async () => {
    const strict = await startTestScraper({ ...env, SCRAPER_ALLOWLIST: '' });
    try {
      for (const url of [
        sites.url('static'),
        sites.url('static').replace('127.0.0.1', 'localhost'),
        'http://[::ffff:127.0.0.1]/',
      ]) {
        const response = await strict.app.inject({ method: 'POST', url: '/v1/scrape', payload: { url } });
        expect(response.statusCode, url).toBe(422);
        expect(response.json().code, url).toBe('url_not_allowed');
      }
    } finally {
      await strict.close();
    }
    const bad = await scrape({ url: 'file:///etc/passwd', format: 'pdf', timeout_ms: 5, wait_for: 'a[href' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((error: { loc: string[] }) => error.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.url', 'body.format', 'body.timeout_ms', 'body.wait_for']),
    );
    const unknownField = await scrape({ url: sites.url('static'), formats: ['markdown'] });
    expect(unknownField.statusCode).toBe(422);
  });
});

describe('cancellation', () => {
  it('a cancelled scrape stops its running browser tier (the activity acknowledges, its context is closed)', async () => {
    const { client } = scraper.deps.temporal;
    const workflowId = `scrape:cancel-${Date.now()}`;
    const handle = await client.workflow.start<typeof scrapePage>('scrapePage', {
      taskQueue: scraper.deps.taskQueue,
      workflowId,
      args: [
        {
          jobId: workflowId,
          url: sites.url('app'),
          format: 'markdown',
          waitFor: '#never-appears',
          screenshot: false,
          deadline: Date.now() + 60_000,
          startedAt: Date.now(),
        },
      ],
    });
    await until(async () =>
      (await handle.query(scrapeProgressQuery)).tier === 'browser' ? true : undefined,
    );
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow(WorkflowFailedError);
    const { events } = await handle.fetchHistory();
    const types = (events ?? []).map((event) => String(event.eventType));
    expect(types).toContain(String(proto.temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED));
    expect(types.at(-1)).toBe(
      String(proto.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED),
    );
  });
});

describe('GET /healthz and /v1/strategies', () => {
  it('reports the stores and the worker’s browser pool', async () => {
    const health = await until(async () => {
      const response = await scraper.app.inject({ method: 'GET', url: '/healthz' });
      const body = response.json();
      return body.browser_pools.some((pool: { launched: boolean }) => pool.launched) ? body : undefined;
    });
    expect(
      health.stores.map((store: { name: string; status: string }) => [store.name, store.status]),
    ).toEqual([
      ['redis', 'up'],
      ['temporal', 'up'],
    ]);
    expect(health.chromium.present).toBe(true);
    expect(health.browser_pools[0]).toMatchObject({ connected: true, last_error: null });
    expect(health.browser_pools[0].contexts_served).toBeGreaterThan(0);
  });

  it('documents its routes in OpenAPI 3.1', async () => {
    const document = (await scraper.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/scrape', '/v1/strategies/{domain}', '/healthz']),
    );
    expect(Object.keys(document.paths['/v1/scrape'].post.responses)).toEqual(
      expect.arrayContaining(['200', '422', '429', '451', '504']),
    );
  });

  it('knows nothing of a domain never scraped, and rejects a malformed domain', async () => {
    const unknown = await scraper.app.inject({ method: 'GET', url: '/v1/strategies/never-seen.example' });
    expect(unknown.json()).toMatchObject({
      known: false,
      start_tier: 'http',
      start_reason: 'default',
      tiers: [],
    });
    const bad = await scraper.app.inject({ method: 'GET', url: '/v1/strategies/not%20a%20host' });
    expect(bad.statusCode).toBe(400);
  });
});
