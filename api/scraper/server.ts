// Runs the scraper service alone: `npm run scraper` (workers: `npm run worker -- scraper`).
import { parseEnv } from '../../core/config/env.ts';
import { buildScraperApp } from './app.ts';
import { ScraperApiEnv, scraperPublicUrl } from './config.ts';
import { closeScraperDeps, createScraperDeps } from './deps.ts';

const env = parseEnv(ScraperApiEnv);
const deps = createScraperDeps(env);
const app = await buildScraperApp(deps, {
  publicUrl: scraperPublicUrl(env),
  logger: { level: env.LOG_LEVEL },
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    void app
      .close()
      .then(() => closeScraperDeps(deps))
      .then(() => process.exit(0));
  });
}
await app.listen({ host: env.HOST, port: env.PORT });
