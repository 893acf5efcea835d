import type { LoggerOptions } from 'pino';
import { registerOpenApi } from '../plugins/openapi.ts';
import { callerPlugin } from '../plugins/caller.ts';
import { createService, type VigilApp } from '../plugins/service.ts';
import type { ScraperDeps } from './deps.ts';
import { healthRoutes } from './routes/health.ts';
import { scrapeRoutes } from './routes/scrape.ts';
import { strategyRoutes } from './routes/strategies.ts';
import { ScrapeJobs } from './scrapeJobs.ts';
import { refusedWordLog } from './wordLog.ts';

export interface ScraperAppOptions {
  publicUrl: string;
  logger: LoggerOptions | false;
}

/** The scraper service ({scraper_url}); server.ts only listens. */
export async function buildScraperApp(deps: ScraperDeps, options: ScraperAppOptions): Promise<VigilApp> {
  const app = await createService({
    service: 'scraper',
    publicUrl: options.publicUrl,
    logger: options.logger,
    trustProxy: deps.access.trustProxy,
  });
  // With SCRAPER_API_KEYS set, every scrape and strategy read needs a key; probes and docs stay open.
  await app.register(callerPlugin, {
    apiKeys: deps.access.apiKeys,
    ipv6Prefix: deps.access.ipv6Prefix,
    requireApiKey: deps.access.apiKeys.length > 0,
    isOpen: (path) => !path.startsWith('/v1/'),
  });
  await registerOpenApi(app, {
    title: 'Vigil scraper API',
    description:
      'Page scraping through a durable escalation chain (HTTP → browser fingerprint → headless Chromium → hardened ' +
      'Chromium → upstream proxy) with sessions and per-domain strategy memory. Errors are RFC 7807 problem documents.',
    publicUrl: options.publicUrl,
  });
  healthRoutes(app, deps);
  scrapeRoutes(app, new ScrapeJobs(deps, refusedWordLog(app)));
  strategyRoutes(app, deps);
  await app.ready();
  return app;
}
