import { Context } from '@temporalio/activity';
import type { ScrapeJobInput, ScrapePlan, TierAttempt } from '../../core/scrape/outcome.ts';
import { type Tier, Tier as Tiers } from '../../core/scrape/tiers.ts';
import type { ScraperEngine, TierJob } from '../../scraper/engine.ts';

export interface ScraperActivityDeps {
  engine: ScraperEngine;
}

export interface RecordStrategyInput {
  domain: string;
  attempts: TierAttempt[];
  forcedStart: boolean;
}

/** Browser tiers report liveness this often; the workflow's heartbeat timeout is a few times longer. */
const HEARTBEAT_MS = 2_000;

/**
 * The scraper pool's activities: the plan, one activity per tier (so each shows in the UI under
 * its own name, with its own timeout), and the strategy update. Cancellation reaches a running
 * tier through its heartbeats and aborts its fetch or closes its browser context.
 */
export function createScraperActivities({ engine }: ScraperActivityDeps) {
  const tierActivity =
    (tier: Tier) =>
    async (job: TierJob): Promise<TierAttempt> => {
      const context = Context.current();
      // A local activity (the plain tier) has no heartbeat: the workflow task it runs in does.
      const beat = context.info.isLocal ? undefined : setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        return await engine.runTier(tier, job, context.cancellationSignal);
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
    scrapeHttp: tierActivity(Tiers.http),
    scrapeHttpFingerprint: tierActivity(Tiers.httpFingerprint),
    scrapeBrowser: tierActivity(Tiers.browser),
    scrapeBrowserStealth: tierActivity(Tiers.browserStealth),
    scrapeBrowserProxy: tierActivity(Tiers.browserProxy),
    async recordStrategy(input: RecordStrategyInput): Promise<void> {
      await engine.strategies.record(input.domain, {
        attempts: input.attempts,
        forcedStart: input.forcedStart,
      });
    },
  };
}

export type ScraperActivities = ReturnType<typeof createScraperActivities>;
