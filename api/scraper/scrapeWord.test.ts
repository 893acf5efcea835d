import { afterAll, describe, expect, it } from 'vitest';
import { JobWords } from '../../clients/jobWords.ts';
import { createRedis } from '../../clients/redis.ts';
import { AttemptOutcome, type TierAttempt } from '../../core/scrape/outcome.ts';
import { summarize } from '../../core/scrape/summarize.ts';
import { Tier } from '../../core/scrape/tiers.ts';
import { PageStore } from '../../scraper/pageStore.ts';
import { EgressGuard } from '../../scraper/ssrf/guard.ts';
import { StrategyStore } from '../../scraper/strategy/strategyStore.ts';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import type { ScraperDeps } from './deps.ts';
import { ScrapeJobs } from './scrapeJobs.ts';
import { ScrapeRequest } from './schemas.ts';

// Real Redis: the tier's word (PageStore.announce) reaches the request waiting on the job, and
// the domain's record is made once per job whoever records first.
describe('the word of a page a tier got', () => {
  const env = isolatedEnv();
  const redis = createRedis(env.REDIS_URL ?? '', { keyPrefix: env.REDIS_KEY_PREFIX ?? '' });
  const pages = new PageStore(redis, 60);
  const words = new JobWords(redis, PageStore.doneChannel(redis));
  afterAll(async () => {
    words.close();
    await redis.quit();
  });

  const attempt = (jobId: string): TierAttempt => ({
    tier: Tier.http,
    outcome: AttemptOutcome.ok,
    status: 200,
    reason: 'ok',
    elapsed_ms: 3,
    page: {
      finalUrl: 'https://example.org/',
      contentKey: `scraper:page:${jobId}:http:content`,
      contentType: 'text/html',
      bytes: 5,
    },
  });

  it('records a job’s run in the domain’s strategy once, whoever records it first', async () => {
    const strategies = new StrategyStore(redis, { ttlSeconds: 60, halfLifeMs: 60_000 });
    const domain = `once-${Date.now()}.example`;
    const run = { attempts: [attempt('scrape:a')], forcedStart: false };
    const first = await strategies.record(domain, run, Date.now(), 'scrape:a');
    const again = await strategies.record(domain, run, Date.now(), 'scrape:a');
    expect(again.tiers.http?.ok).toBe(first.tiers.http?.ok);
    // Another job counts.
    const other = await strategies.record(domain, run, Date.now(), 'scrape:b');
    expect(other.tiers.http?.ok).toBeGreaterThan(first.tiers.http?.ok ?? 0);
  });

  it('answers on the word when the workflow’s own result never comes', async () => {
    let jobId = '';
    // Temporal stands in only to withhold the result (the fault under test); everything else is real.
    const connection = {
      withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
      withAbortSignal: <T>(_signal: AbortSignal, fn: () => Promise<T>) => fn(),
    };
    const client = {
      workflow: {
        start: (_type: string, options: { workflowId: string }) => {
          jobId = options.workflowId;
          // The tier stores the page and says so, as the worker would.
          void pages
            .putContent(jobId, 'http', '# Hello from the word')
            .then(() => pages.announce(jobId, summarize('example.org', 'default', [attempt(jobId)], false)));
          return Promise.resolve({
            result: () => new Promise<never>(() => undefined),
            cancel: () => Promise.resolve(),
          });
        },
      },
    };
    const jobs = new ScrapeJobs({
      temporal: { client, connection },
      pages,
      words,
      guard: new EgressGuard({}),
      taskQueue: 'unused',
      timeoutMaxMs: 5_000,
    } as unknown as ScraperDeps);
    const answer = await jobs.scrape(
      ScrapeRequest.parse({ url: 'https://example.org/', timeout_ms: 5_000 }),
      'caller',
    );
    expect(answer).toMatchObject({ job_id: jobId, content: '# Hello from the word', tier: 'http' });
    expect(words.waiting).toBe(0);
  });

  it('ignores a word whose page is not the job’s own, and waits for the workflow instead', async () => {
    let jobId = '';
    let release: (value: unknown) => void = () => undefined;
    const connection = {
      withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
      withAbortSignal: <T>(_signal: AbortSignal, fn: () => Promise<T>) => fn(),
    };
    const client = {
      workflow: {
        start: (_type: string, options: { workflowId: string }) => {
          jobId = options.workflowId;
          void pages.putContent('scrape:someone-else', 'http', 'not yours').then(() => {
            pages.announce(
              jobId,
              summarize('example.org', 'default', [attempt('scrape:someone-else')], false),
            );
            setTimeout(() => release(summarize('example.org', 'default', [attempt(jobId)], false)), 300);
          });
          void pages.putContent(jobId, 'http', 'yours');
          return Promise.resolve({
            result: () => new Promise((resolve) => (release = resolve)),
            cancel: () => Promise.resolve(),
          });
        },
      },
    };
    const jobs = new ScrapeJobs({
      temporal: { client, connection },
      pages,
      words,
      guard: new EgressGuard({}),
      taskQueue: 'unused',
      timeoutMaxMs: 5_000,
    } as unknown as ScraperDeps);
    const answer = await jobs.scrape(
      ScrapeRequest.parse({ url: 'https://example.org/', timeout_ms: 5_000 }),
      'caller',
    );
    expect(answer.content).toBe('yours');
  });

  it('waits for the workflow when the word’s page is gone from the store', async () => {
    let jobId = '';
    let release: (value: unknown) => void = () => undefined;
    const connection = {
      withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
      withAbortSignal: <T>(_signal: AbortSignal, fn: () => Promise<T>) => fn(),
    };
    const client = {
      workflow: {
        start: (_type: string, options: { workflowId: string }) => {
          jobId = options.workflowId;
          // The word names the job's own page, which is not (or no longer) stored.
          pages.announce(jobId, summarize('example.org', 'default', [attempt(jobId)], false));
          setTimeout(() => {
            void pages
              .putContent(jobId, 'http', 'stored later')
              .then(() => release(summarize('example.org', 'default', [attempt(jobId)], false)));
          }, 300);
          return Promise.resolve({
            result: () => new Promise((resolve) => (release = resolve)),
            cancel: () => Promise.resolve(),
          });
        },
      },
    };
    const jobs = new ScrapeJobs({
      temporal: { client, connection },
      pages,
      words,
      guard: new EgressGuard({}),
      taskQueue: 'unused',
      timeoutMaxMs: 5_000,
    } as unknown as ScraperDeps);
    const answer = await jobs.scrape(
      ScrapeRequest.parse({ url: 'https://example.org/', timeout_ms: 5_000 }),
      'caller',
    );
    expect(answer.content).toBe('stored later');
  });
});
