import { z } from 'zod';
import { IntEnv } from '../../core/config/env.ts';
import { StoresEnv } from '../../core/config/stores.ts';
import { ScraperEngineEnv } from '../../scraper/config.ts';
import { ServiceKeysEnv, TrustProxyEnv } from '../plugins/callerConfig.ts';

/** The scraper service ({scraper_url}); it shares the engine's settings so both read one set of names. */
export const ScraperApiEnv = StoresEnv.extend({
  ...ScraperEngineEnv.shape,
  HOST: z.string().default('127.0.0.1'),
  PORT: IntEnv(0, 65_535).default(3005),
  PUBLIC_URL: z.url().optional(),
  /** Scrape requests per minute per caller (its API key, else its network). */
  SCRAPER_CALLER_RATE_PER_MINUTE: IntEnv(1, 1_000_000).default(60),
  /** `id:key,...`: set, every /v1 request needs one of these as X-API-Key (401 otherwise). */
  SCRAPER_API_KEYS: ServiceKeysEnv,
  /** Which X-Forwarded-For hops to believe for the client address (unset: none). */
  TRUST_PROXY: TrustProxyEnv,
  /** IPv6 clients are one network per prefix of this many bits. */
  RATE_LIMIT_IPV6_PREFIX: IntEnv(32, 128).default(64),
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
