// Runs the scraper service alone: `npm run scraper` (workers: `npm run worker -- scraper`).
import { parseEnv } from '../../core/config/env.ts';
import { listenUntilSignal } from '../plugins/listen.ts';
import { buildScraperApp } from './app.ts';
import { ScraperApiEnv, scraperPublicUrl } from './config.ts';
import { closeScraperDeps, createScraperDeps } from './deps.ts';
import { startTracingFromEnv } from '../../clients/tracing.ts';

const env = parseEnv(ScraperApiEnv);
const tracing = startTracingFromEnv('vigil-scraper');
const deps = createScraperDeps(env);
const app = await buildScraperApp(deps, {
  publicUrl: scraperPublicUrl(env),
  logger: { level: env.LOG_LEVEL },
});

await listenUntilSignal(app, { host: env.HOST, port: env.PORT }, async () => {
  await closeScraperDeps(deps);
  await tracing?.shutdown();
});
