import {
  ActivityCancellationType,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { ScraperActivities, TierResult } from '../activities/scraper/index.ts';
import { nextStep, TIER_MIN_MS, tierBudgetMs } from '../core/scrape/escalation.ts';
import { type ScrapeProgress, scrapeProgressQuery } from '../core/scrape/messages.ts';
import {
  AttemptOutcome,
  type ScrapeJobInput,
  type ScrapeOutcome,
  type ScrapePlan,
} from '../core/scrape/outcome.ts';
import { announcement, observedAttempts, summarize } from '../core/scrape/summarize.ts';
import { isBrowserTier, type Tier } from '../core/scrape/tiers.ts';

// Planning and recording are a few Redis reads and writes (and a DNS lookup): local activities,
// no scheduling round trip, a few quick retries.
const { planScrape, recordStrategy } = proxyLocalActivities<ScraperActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumAttempts: 3 },
});

type TierActivity =
  'scrapeHttp' | 'scrapeHttpFingerprint' | 'scrapeBrowser' | 'scrapeBrowserStealth' | 'scrapeBrowserProxy';
const TIER_ACTIVITY: Record<Tier, TierActivity> = {
  http: 'scrapeHttp',
  http_fingerprint: 'scrapeHttpFingerprint',
  browser: 'scrapeBrowser',
  browser_stealth: 'scrapeBrowserStealth',
  browser_proxy: 'scrapeBrowserProxy',
};

/** The patch that moved the plain tier to a local activity. */
const PLAIN_TIER_LOCAL = 'plain-tier-local-activity';
/**
 * The patch that plans and runs the plain tier in one local activity, and leaves the strategy
 * record to a tier that got the page and recorded it.
 */
const ONE_STEP = 'scrape-one-step';

/** What planning a scrape may take: its Redis reads, a DNS lookup, a robots.txt fetch. */
const PLAN_MS = 10_000;

/** Slack beyond a tier's budget for it to return its own timeout verdict before Temporal's fires. */
const TIER_SLACK_MS = 3_000;

/**
 * A page scrape: walk the escalation chain from the domain's remembered start tier until a tier
 * gets the page, the chain ends (blocked), the target rate-limits us, or the request's deadline
 * passes; then record what happened in the domain's strategy. Blocks are results, not failures:
 * every tier answers with a verdict, and only a broken tier (a crashed browser) is retried.
 */
export async function scrapePage(input: ScrapeJobInput): Promise<ScrapeOutcome> {
  const progress: ScrapeProgress = { stage: 'planning', attempts: [] };
  setHandler(scrapeProgressQuery, () => progress);

  // Histories from before the one-step patch replay as they ran: the plan as a step of its own.
  const oneStep = patched(ONE_STEP);
  let plan: ScrapePlan;
  let first: TierResult | undefined;
  if (oneStep) {
    // The plan's own allowance (a robots.txt fetch, a DNS lookup) and the plain tier's budget, as
    // the two steps had; the tier's budget is taken from what is left of the request's time.
    const remaining = input.deadline - Date.now();
    const tierMs = tierBudgetMs('http', remaining);
    const { scrapeFirst } = proxyLocalActivities<ScraperActivities>({
      startToCloseTimeout: PLAN_MS + tierMs + TIER_SLACK_MS,
      // Retries end with the request's time (or the plan's own allowance, when that is longer).
      scheduleToCloseTimeout: Math.max(PLAN_MS, remaining) + TIER_SLACK_MS,
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumAttempts: 3 },
    });
    ({ plan, first } = await scrapeFirst(input));
  } else {
    plan = await planScrape(input);
  }
  if (plan.stop) {
    progress.stage = 'done';
    return {
      kind: plan.stop.kind,
      domain: plan.domain,
      startReason: plan.startReason,
      attempts: [],
      reason: plan.stop.reason,
      ...(plan.stop.retryAfterS ? { retryAfterS: plan.stop.retryAfterS } : {}),
    };
  }

  progress.stage = 'scraping';
  const attempts = progress.attempts;
  let index = 0;
  let outOfTime = false;
  let recorded = false;
  const take = (result: TierResult): boolean => {
    const { recorded: byTier, ...attempt } = result;
    attempts.push(attempt);
    recorded = byTier === true;
    const next = nextStep(plan.tiers, index, attempt);
    if (next.done) return true;
    index = next.index;
    return false;
  };
  let done = first !== undefined && take(first);
  while (!done) {
    const tier = plan.tiers[index];
    if (!tier) break;
    const remaining = input.deadline - Date.now();
    if (remaining < TIER_MIN_MS[tier]) {
      outOfTime = true;
      break;
    }
    progress.tier = tier;
    const budgetMs = tierBudgetMs(tier, remaining);
    const activities = proxyActivities<ScraperActivities>({
      startToCloseTimeout: budgetMs + TIER_SLACK_MS,
      // A retry of a broken tier never runs past the request's deadline.
      scheduleToCloseTimeout: remaining + TIER_SLACK_MS,
      ...(isBrowserTier(tier) ? { heartbeatTimeout: '10s' } : {}),
      // A cancelled scrape ends once its tier has stopped (fetch aborted, browser context closed),
      // not while a browser is still working for nobody.
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      retry: { initialInterval: '200ms', maximumAttempts: 2 },
    });
    // The plain tier, a single HTTP fetch and a conversion, runs as a local activity in the
    // worker that holds the workflow task: a page it gets is then one workflow task, with no
    // activity dispatch and no second task (docs/benchmarks.md). The tiers it escalates to stay
    // dispatched activities (browsers heartbeat; their slots are the pool's). Histories from
    // before this change replay as they ran (the patch).
    const runner =
      tier === 'http' && patched(PLAIN_TIER_LOCAL)
        ? proxyLocalActivities<ScraperActivities>({
            startToCloseTimeout: budgetMs + TIER_SLACK_MS,
            scheduleToCloseTimeout: remaining + TIER_SLACK_MS,
            cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
            retry: { initialInterval: '200ms', maximumAttempts: 2 },
          })
        : activities;
    let attempt: TierResult;
    try {
      // What the tier needs to tell the waiting request the whole answer, should it get the page.
      const announce = announcement(plan, [...attempts]);
      attempt = await runner[TIER_ACTIVITY[tier]]({ ...input, budgetMs, announce });
    } catch (error) {
      if (isCancellation(error)) throw error;
      attempt = {
        tier,
        outcome: AttemptOutcome.error,
        status: null,
        reason: 'the tier failed',
        elapsed_ms: 0,
      };
    }
    done = take(attempt);
  }

  const observed = observedAttempts(attempts);
  // A tier that got the page has recorded all of this already (before its word); histories from
  // before the one-step patch record again, which changes nothing (once per job).
  if (observed.length > 0 && !(oneStep && recorded)) {
    await recordStrategy({
      domain: plan.domain,
      attempts: observed,
      forcedStart: plan.startReason.includes('forced_browser'),
      jobId: input.jobId,
    });
  }
  progress.stage = 'done';
  return summarize(plan.domain, plan.startReason, attempts, outOfTime);
}
