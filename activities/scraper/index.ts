import { Context, type Info } from '@temporalio/activity';
import { TIER_MIN_MS, tierBudgetMs } from '../../core/scrape/escalation.ts';
import {
  AttemptOutcome,
  type ScrapeJobInput,
  type ScrapePlan,
  type TierAttempt,
} from '../../core/scrape/outcome.ts';
import { announcement, observedAttempts, summarize } from '../../core/scrape/summarize.ts';
import { type Tier, Tier as Tiers } from '../../core/scrape/tiers.ts';
import type { ScraperEngine, TierJob } from '../../scraper/engine.ts';

export interface ScraperActivityDeps {
  engine: ScraperEngine;
}

export interface RecordStrategyInput {
  domain: string;
  attempts: TierAttempt[];
  forcedStart: boolean;
  /** Recorded once per job (histories from before it have none, and record as they did). */
  jobId?: string;
}

/** A tier's attempt, and whether the tier recorded the domain's strategy itself (it got the page). */
export type TierResult = TierAttempt & { recorded?: true };

/**
 * The first step of a scrape: its plan and, when the plan starts on the plain tier, that tier's
 * attempt (absent when it did not run or broke: the workflow then runs it as a step of its own).
 */
export interface FirstStep {
  plan: ScrapePlan;
  first?: TierResult;
}

/** Browser tiers report liveness this often; the workflow's heartbeat timeout is a few times longer. */
const HEARTBEAT_MS = 2_000;

/**
 * One tier's attempt. A page ends the chain: the waiting request hears the answer now (the page
 * is stored), ahead of the workflow's completion. What the domain taught is recorded first
 * (once per job), so the answer never runs ahead of it, and the workflow need not record it
 * again. A retried tier may say it twice; the request takes the first. An attempt Temporal has
 * given up on (cancelled, or past its deadline: `signal` aborted, see attemptSignal) sends no
 * word: the workflow has moved on, and its own result answers.
 */
export async function runTier(
  engine: Pick<ScraperEngine, 'runTier' | 'strategies' | 'pages'>,
  tier: Tier,
  job: TierJob,
  signal: AbortSignal,
): Promise<TierResult> {
  const attempt = await engine.runTier(tier, job, signal);
  const announce = job.announce;
  if (attempt.outcome !== AttemptOutcome.ok || !announce || signal.aborted) return attempt;
  const attempts = [...announce.earlier, attempt];
  // Best effort: a record that fails sends no word, and the workflow's own record and result
  // carry on as before; the page already got is never thrown away for it.
  const recorded = await engine.strategies
    .record(
      announce.domain,
      { attempts: observedAttempts(attempts), forcedStart: announce.forcedStart },
      Date.now(),
      job.jobId,
    )
    .then(
      () => true,
      () => false,
    );
  if (!recorded || signal.aborted) return attempt;
  engine.pages.announce(job.jobId, summarize(announce.domain, announce.startReason, attempts, false));
  return { ...attempt, recorded: true };
}

/**
 * An attempt's signal: Temporal's cancellation, or the attempt's own deadline (its start-to-close
 * from when it started here, and its schedule-to-close), whichever comes first. Temporal times an
 * attempt out on its server, and a dispatched attempt hears of it only at its next heartbeat (up
 * to HEARTBEAT_MS later): in between, the workflow has moved on to a retry or the next tier, and
 * this attempt's page must not answer the request. Its fetch stops then too. A timeout of zero is
 * none.
 */
export function attemptSignal(
  info: Pick<Info, 'startToCloseTimeoutMs' | 'scheduleToCloseTimeoutMs' | 'scheduledTimestampMs'>,
  cancellation: AbortSignal,
  startedAt: number,
): AbortSignal {
  const deadlines = [
    info.startToCloseTimeoutMs > 0 ? startedAt + info.startToCloseTimeoutMs : Infinity,
    info.scheduleToCloseTimeoutMs > 0 ? info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs : Infinity,
  ];
  const deadline = Math.min(...deadlines);
  if (!Number.isFinite(deadline)) return cancellation;
  const left = deadline - Date.now();
  return AbortSignal.any([
    cancellation,
    left > 0
      ? AbortSignal.timeout(left)
      : AbortSignal.abort(new DOMException('past its deadline', 'TimeoutError')),
  ]);
}

/**
 * The scraper pool's activities: the plan, one activity per tier (so each shows in the UI under
 * its own name, with its own timeout), and the strategy update. Cancellation reaches a running
 * tier through its heartbeats and aborts its fetch or closes its browser context (and keeps its
 * word back: see runTier).
 */
export function createScraperActivities({ engine }: ScraperActivityDeps) {
  const tierActivity =
    (tier: Tier) =>
    async (job: TierJob): Promise<TierResult> => {
      const context = Context.current();
      const signal = attemptSignal(context.info, context.cancellationSignal, Date.now());
      // A local activity (the plain tier) has no heartbeat: the workflow task it runs in does.
      const beat = context.info.isLocal ? undefined : setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        return await runTier(engine, tier, job, signal);
      } finally {
        clearInterval(beat);
      }
    };
  return {
    /** Prints a rendered report to PDF in this pool's browser (the reports pool has none). */
    async printReportPdf(html: string): Promise<Uint8Array> {
      return engine.printPdf(html, Context.current().cancellationSignal);
    },
    /** Checks the URL, the domain's back-off and robots, and picks the start tier. */
    async planScrape(job: ScrapeJobInput): Promise<ScrapePlan> {
      return engine.plan(job, Context.current().cancellationSignal);
    },
    /**
     * The plan and, when it starts on the plain tier, that tier in the same local activity: a page
     * the plain tier gets is then one step of one workflow task (docs/benchmarks.md). A tier that
     * breaks is left to the workflow, which runs it again as its own step with its own retries.
     */
    async scrapeFirst(job: ScrapeJobInput): Promise<FirstStep> {
      const context = Context.current();
      const signal = attemptSignal(context.info, context.cancellationSignal, Date.now());
      const plan = await engine.plan(job, signal);
      const remaining = job.deadline - Date.now();
      if (plan.stop || plan.tiers[0] !== Tiers.http || remaining < TIER_MIN_MS.http) return { plan };
      const announce = announcement(plan, []);
      try {
        const budgetMs = tierBudgetMs(Tiers.http, remaining);
        return { plan, first: await runTier(engine, Tiers.http, { ...job, budgetMs, announce }, signal) };
      } catch (error) {
        signal.throwIfAborted();
        context.log.warn('the plain tier broke in the first step; the workflow runs it again', {
          // The error's kind only: a message may quote the requested URL.
          domain: plan.domain,
          error: error instanceof Error ? error.name : 'unknown',
        });
        return { plan };
      }
    },
    scrapeHttp: tierActivity(Tiers.http),
    scrapeHttpFingerprint: tierActivity(Tiers.httpFingerprint),
    scrapeBrowser: tierActivity(Tiers.browser),
    scrapeBrowserStealth: tierActivity(Tiers.browserStealth),
    scrapeBrowserProxy: tierActivity(Tiers.browserProxy),
    async recordStrategy(input: RecordStrategyInput): Promise<void> {
      await engine.strategies.record(
        input.domain,
        { attempts: input.attempts, forcedStart: input.forcedStart },
        Date.now(),
        input.jobId,
      );
    },
  };
}

export type ScraperActivities = ReturnType<typeof createScraperActivities>;
