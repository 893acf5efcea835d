import { buildScraperApp } from '../../api/scraper/app.ts';
import { ScraperApiEnv } from '../../api/scraper/config.ts';
import { closeScraperDeps, createScraperDeps, type ScraperDeps } from '../../api/scraper/deps.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import { parseEnv } from '../../core/config/env.ts';
import { AttemptOutcome, type TierAttempt } from '../../core/scrape/outcome.ts';
import { Tier } from '../../core/scrape/tiers.ts';

/** A tier's attempt that got the page, stored under the job's own key (as a tier stores it). */
export const pageAttempt = (jobId: string, tier: Tier = Tier.http): TierAttempt => ({
  tier,
  outcome: AttemptOutcome.ok,
  status: 200,
  reason: 'ok',
  elapsed_ms: 3,
  page: {
    finalUrl: 'https://example.org/',
    contentKey: `scraper:page:${jobId}:${tier}:content`,
    contentType: 'text/html',
    bytes: 5,
  },
});

/** Scraper settings for tests: loopback sites allowlisted, no random re-checks, no politeness waits. */
export function scraperTestEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    SCRAPER_ALLOWLIST: '127.0.0.1/32',
    // Local sites listen on high ports (production dials 80 and 443 only).
    SCRAPER_ALLOWED_PORTS: '1024-65535',
    SCRAPER_RECHECK_RATIO: '0',
    SCRAPER_DOMAIN_RATE_PER_SECOND: '1000',
    SCRAPER_DOMAIN_BURST: '1000',
    SCRAPER_CALLER_RATE_PER_MINUTE: '100000',
    ...extra,
  };
}

export interface TestScraper {
  app: VigilApp;
  deps: ScraperDeps;
  close(): Promise<void>;
}

export async function startTestScraper(env: Record<string, string>): Promise<TestScraper> {
  const deps = createScraperDeps(parseEnv(ScraperApiEnv, env));
  const app = await buildScraperApp(deps, { publicUrl: 'http://scraper.test', logger: false });
  return {
    app,
    deps,
    async close() {
      await app.close();
      await closeScraperDeps(deps);
    },
  };
}
