import { z } from 'zod';
import { IntEnv, OptionalEnv } from '../../core/config/env.ts';
import { StoresEnv } from '../../core/config/stores.ts';
import { RetrievalEnv } from '../../retrieval/config.ts';

/** The retrieval service ({brain_url}): semantic query, asynchronous ingest, catalog and similar-token search. */
export const RetrievalApiEnv = StoresEnv.extend({
  ...RetrievalEnv.shape,
  HOST: z.string().default('127.0.0.1'),
  PORT: IntEnv(0, 65_535).default(3003),
  PUBLIC_URL: z.url().optional(),
  VIGIL_COMMIT: z.string().optional(),
  /** Addresses or CIDR ranges an ingest URL may point at although private (as for the scraper). */
  SCRAPER_ALLOWLIST: OptionalEnv,
  /** Ports an ingest URL may name besides 80 and 443 (as for the scraper). */
  SCRAPER_ALLOWED_PORTS: OptionalEnv,
});
export type RetrievalApiEnv = z.infer<typeof RetrievalApiEnv>;

export function retrievalPublicUrl(env: RetrievalApiEnv): string {
  return (env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${env.PORT}`).replace(
    /\/+$/,
    '',
  );
}
