import { Context } from '@temporalio/activity';
import {
  AttemptOutcome,
  type ScrapeJobInput,
  type ScrapePlan,
  type TierAttempt,
} from '../../core/scrape/outcome.ts';
import { observedAttempts, summarize } from '../../core/scrape/summarize.ts';
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
        const attempt = await engine.runTier(tier, job, context.cancellationSignal);
        // A page ends the chain: the waiting request hears the answer now (the page is stored),
        // ahead of the workflow's completion. What the domain taught is recorded first (once per
        // job: the workflow's own record then changes nothing), so the answer never runs ahead
        // of it. A retried tier may say it twice; the request takes the first.
        const announce = job.announce;
        if (attempt.outcome === AttemptOutcome.ok && announce) {
          const attempts = [...announce.earlier, attempt];
          // Best effort: a record that fails sends no word, and the workflow's own record and
          // result carry on as before; the page already got is never thrown away for it.
          await engine.strategies
            .record(
              announce.domain,
              { attempts: observedAttempts(attempts), forcedStart: announce.forcedStart },
              Date.now(),
              job.jobId,
            )
            .then(
              () =>
                engine.pages.announce(
                  job.jobId,
                  summarize(announce.domain, announce.startReason, attempts, false),
                ),
              () => undefined,
            );
        }
        return attempt;
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
