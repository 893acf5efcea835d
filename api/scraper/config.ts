import { z } from 'zod';
import { IntEnv } from '../../core/config/env.ts';
import { StoresEnv } from '../../core/config/stores.ts';
import { ScraperEngineEnv } from '../../scraper/config.ts';

/** The scraper service ({scraper_url}); it shares the engine's settings so both read one set of names. */
export const ScraperApiEnv = StoresEnv.extend({
  ...ScraperEngineEnv.shape,
  HOST: z.string().default('127.0.0.1'),
  PORT: IntEnv(0, 65_535).default(3005),
  PUBLIC_URL: z.url().optional(),
  /** Scrape requests per minute per caller (X-Client-ID, else the client address). */
  SCRAPER_CALLER_RATE_PER_MINUTE: IntEnv(1, 1_000_000).default(60),
  /** Upper bound of a request's timeout_ms. */
  SCRAPER_TIMEOUT_MAX_MS: IntEnv(1_000, 600_000).default(120_000),
  VIGIL_COMMIT: z.string().optional(),
});
export type ScraperApiEnv = z.infer<typeof ScraperApiEnv>;

export function scraperPublicUrl(env: ScraperApiEnv): string {
  return (env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${env.PORT}`).replace(
    /\/+$/,
    '',
  );
}
