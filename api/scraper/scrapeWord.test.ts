import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobWords } from '../../clients/jobWords.ts';
import { createRedis } from '../../clients/redis.ts';
import type { TierAttempt } from '../../core/scrape/outcome.ts';
import { summarize } from '../../core/scrape/summarize.ts';
import { Tier } from '../../core/scrape/tiers.ts';
import { PageStore } from '../../scraper/pageStore.ts';
import { EgressGuard } from '../../scraper/ssrf/guard.ts';
import { StrategyStore } from '../../scraper/strategy/strategyStore.ts';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import { pageAttempt } from '../../test/support/scraperFixtures.ts';
import { until } from '../../test/support/until.ts';
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
  beforeAll(() => words.listening());
  afterAll(async () => {
    words.close();
    await redis.quit();
  });

  it('records a job’s run in the domain’s strategy once, whoever records it first', async () => {
    const strategies = new StrategyStore(redis, { ttlSeconds: 60, halfLifeMs: 60_000 });
    const domain = `once-${Date.now()}.example`;
    const run = { attempts: [pageAttempt('scrape:a')], forcedStart: false };
    const first = await strategies.record(domain, run, Date.now(), 'scrape:a');
    const again = await strategies.record(domain, run, Date.now(), 'scrape:a');
    expect(again.tiers.http?.ok).toBe(first.tiers.http?.ok);
    // Another job counts.
    const other = await strategies.record(domain, run, Date.now(), 'scrape:b');
    expect(other.tiers.http?.ok).toBeGreaterThan(first.tiers.http?.ok ?? 0);
  });

  /** What the service logged about refused words, in order. */
  const warned: { job_id: string; reason: string; message: string }[] = [];

  /**
   * A scrape through the service whose workflow is stood in for only to control its result (the
   * fault under test): `started` runs at the start and gives the result, or nothing (never comes).
   */
  async function scrapeWith(
    started: (jobId: string) => Promise<unknown> | undefined,
    store: Pick<PageStore, 'content' | 'screenshotBase64'> = pages,
  ) {
    let jobId = '';
    const connection = {
      withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
      withAbortSignal: <T>(_signal: AbortSignal, fn: () => Promise<T>) => fn(),
    };
    const client = {
      workflow: {
        start: (_type: string, options: { workflowId: string }) => {
          jobId = options.workflowId;
          const result = started(jobId) ?? new Promise<never>(() => undefined);
          return Promise.resolve({ result: () => result, cancel: () => Promise.resolve() });
        },
      },
    };
    const jobs = new ScrapeJobs(
      {
        temporal: { client, connection },
        pages: store,
        words,
        guard: new EgressGuard({}),
        taskQueue: 'unused',
        timeoutMaxMs: 5_000,
      } as unknown as ScraperDeps,
      { warn: (fields, message) => warned.push({ ...fields, message }) },
    );
    const answer = await jobs.scrape(
      ScrapeRequest.parse({ url: 'https://example.org/', timeout_ms: 5_000 }),
      'caller',
    );
    return { jobId, answer };
  }

  /** Once the request waiting on the job has been woken by its word. */
  const heard = () => until(() => Promise.resolve(words.waiting === 0 ? true : undefined), { intervalMs: 5 });
  const ok = (attempts: TierAttempt[]) => summarize('example.org', 'default', attempts, false);

  it('answers on the word when the workflow’s own result never comes', async () => {
    const { jobId, answer } = await scrapeWith((jobId) => {
      // The tier stores the page and says so, as the worker would.
      void pages
        .putContent(jobId, 'http', '# Hello from the word')
        .then(() => pages.announce(jobId, ok([pageAttempt(jobId)])));
      return undefined;
    });
    expect(answer).toMatchObject({ job_id: jobId, content: '# Hello from the word', tier: 'http' });
    expect(words.waiting).toBe(0);
  });

  it('ignores a word whose page is not the job’s own, and waits for the workflow instead', async () => {
    const { answer } = await scrapeWith((jobId) =>
      Promise.all([
        pages.putContent('scrape:someone-else', 'http', 'not yours'),
        pages.putContent(jobId, 'http', 'yours'),
      ])
        .then(() => {
          pages.announce(jobId, ok([pageAttempt('scrape:someone-else')]));
          return heard();
        })
        .then(() => ok([pageAttempt(jobId)])),
    );
    expect(answer.content).toBe('yours');
    // Said in the log, with the job and the reason only: nothing of the word itself.
    expect(warned.at(-1)).toEqual({
      job_id: answer.job_id,
      reason: "names another job's page",
      message: "a tier's word was refused; awaiting the workflow's result",
    });
  });

  it('waits for the workflow when the word’s page is gone from the store', async () => {
    const { answer } = await scrapeWith((jobId) =>
      pages
        .putContent(jobId, Tier.httpFingerprint, 'the run’s own page')
        .then(() => {
          // The word names the job's plain-tier page, which is not (or no longer) stored.
          pages.announce(jobId, ok([pageAttempt(jobId)]));
          return heard();
        })
        .then(() => ok([pageAttempt(jobId, Tier.httpFingerprint)])),
    );
    expect(answer.content).toBe('the run’s own page');
  });

  it('waits for the workflow when the store cannot answer the word’s page read', async () => {
    // The fault: the first read (the word's) fails as a lost connection would; the next works.
    let reads = 0;
    const flaky = {
      content: (key: string) =>
        reads++ === 0 ? Promise.reject(new Error('Connection is closed.')) : pages.content(key),
      screenshotBase64: (key: string) => pages.screenshotBase64(key),
    };
    const { answer } = await scrapeWith(
      (jobId) =>
        pages
          .putContent(jobId, 'http', 'from the workflow’s result')
          .then(() => {
            pages.announce(jobId, ok([pageAttempt(jobId)]));
            return heard();
          })
          .then(() => ok([pageAttempt(jobId)])),
      flaky,
    );
    expect(answer.content).toBe('from the workflow’s result');
    expect(reads).toBe(2);
  });
});
