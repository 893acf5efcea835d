import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobWords } from '../../clients/jobWords.ts';
import { createRedis } from '../../clients/redis.ts';
import { AttemptOutcome, ScrapeFormat, type TierAttempt } from '../../core/scrape/outcome.ts';
import { summarize } from '../../core/scrape/summarize.ts';
import { Tier } from '../../core/scrape/tiers.ts';
import type { TierJob } from '../../scraper/engine.ts';
import { PageStore } from '../../scraper/pageStore.ts';
import { StrategyStore } from '../../scraper/strategy/strategyStore.ts';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import { pageAttempt } from '../../test/support/scraperFixtures.ts';
import { attemptSignal, runTier } from './index.ts';

// Real Redis stores; the tier's fetch is stood in for (what is under test is whether its page is
// announced), and the fault injected is Temporal giving up on the attempt while it ran.
describe("a tier's word", () => {
  const env = isolatedEnv();
  const redis = createRedis(env.REDIS_URL ?? '', { keyPrefix: env.REDIS_KEY_PREFIX ?? '' });
  const pages = new PageStore(redis, 60);
  const strategies = new StrategyStore(redis, { ttlSeconds: 60, halfLifeMs: 60_000 });
  const words = new JobWords(redis, PageStore.doneChannel(redis));
  beforeAll(() => words.listening());
  afterAll(async () => {
    words.close();
    await redis.quit();
  });

  const job = (jobId: string): TierJob => ({
    jobId,
    url: 'https://example.org/',
    format: ScrapeFormat.markdown,
    screenshot: false,
    deadline: Date.now() + 10_000,
    startedAt: Date.now(),
    budgetMs: 5_000,
    announce: { domain: `word-${jobId}.example`, startReason: 'default', forcedStart: false, earlier: [] },
  });
  /** A tier that gets the page; `during` runs while it fetches (where Temporal may give up on it). */
  const tier = (during: () => void | Promise<void>) => ({
    runTier: async (t: Tier, { jobId }: TierJob): Promise<TierAttempt> => {
      await during();
      return pageAttempt(jobId, t);
    },
    strategies,
    pages,
  });
  /** The next word on the job (the request's side of the channel). */
  const nextWord = (jobId: string) => words.next(jobId, new AbortController().signal);

  it('announces a page the attempt got', async () => {
    const jobId = `scrape:word-${Date.now()}`;
    const heard = nextWord(jobId);
    const result = await runTier(
      tier(() => undefined),
      Tier.http,
      job(jobId),
      new AbortController().signal,
    );
    expect(result.recorded).toBe(true);
    expect(JSON.parse(await heard)).toMatchObject({ kind: 'ok', tier: Tier.http });
  });

  it('keeps back the word of an attempt Temporal gave up on while it ran', async () => {
    const jobId = `scrape:zombie-${Date.now()}`;
    const heard = nextWord(jobId);
    const cancelled = new AbortController();
    const result = await runTier(
      tier(() => cancelled.abort()),
      Tier.http,
      job(jobId),
      cancelled.signal,
    );
    expect(result.outcome).toBe(AttemptOutcome.ok);
    expect(result.recorded).toBeUndefined();
    // A word sent after the attempt, on the same connection (so published after anything the
    // attempt sent), is the first the request hears: the attempt sent none.
    pages.announce(jobId, summarize('example.org', 'default', [pageAttempt(jobId, Tier.browser)], false));
    expect(JSON.parse(await heard)).toMatchObject({ tier: Tier.browser });
  });

  it('keeps back the word of an attempt past its own deadline, though nobody told it', async () => {
    const jobId = `scrape:overrun-${Date.now()}`;
    const heard = nextWord(jobId);
    // Temporal's cancellation never comes (the timeout is the server's, told at a heartbeat).
    const signal = attemptSignal(
      { startToCloseTimeoutMs: 30, scheduleToCloseTimeoutMs: 0, scheduledTimestampMs: 0 },
      new AbortController().signal,
      Date.now(),
    );
    // The fetch outlives the attempt's start-to-close.
    const overrun = () => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    const result = await runTier(tier(overrun), Tier.http, job(jobId), signal);
    expect(result.outcome).toBe(AttemptOutcome.ok);
    expect(result.recorded).toBeUndefined();
    pages.announce(jobId, summarize('example.org', 'default', [pageAttempt(jobId, Tier.browser)], false));
    expect(JSON.parse(await heard)).toMatchObject({ tier: Tier.browser });
  });
});

describe("an attempt's signal", () => {
  const never = new AbortController().signal;

  it('is aborted at once past the schedule-to-close, whatever the start-to-close left', () => {
    const signal = attemptSignal(
      {
        startToCloseTimeoutMs: 60_000,
        scheduleToCloseTimeoutMs: 1_000,
        scheduledTimestampMs: Date.now() - 5_000,
      },
      never,
      Date.now(),
    );
    expect(signal.aborted).toBe(true);
  });

  it("follows Temporal's cancellation before its deadline, and is the cancellation itself without one", () => {
    const cancelled = new AbortController();
    const signal = attemptSignal(
      { startToCloseTimeoutMs: 60_000, scheduleToCloseTimeoutMs: 0, scheduledTimestampMs: 0 },
      cancelled.signal,
      Date.now(),
    );
    expect(signal.aborted).toBe(false);
    cancelled.abort();
    expect(signal.aborted).toBe(true);
    const none = { startToCloseTimeoutMs: 0, scheduleToCloseTimeoutMs: 0, scheduledTimestampMs: 0 };
    expect(attemptSignal(none, never, Date.now())).toBe(never);
  });
});
