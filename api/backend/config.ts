import { z } from 'zod';
import { IntEnv } from '../../core/config/env.ts';
import { StoresEnv } from '../../core/config/stores.ts';
import { AccessEnvShape } from './accessConfig.ts';
import { PaymentsEnvShape } from './x402/config.ts';
import { ChaindataEnvShape } from '../../chaindata/config.ts';

export const BackendEnv = StoresEnv.extend({
  HOST: z.string().default('127.0.0.1'),
  PORT: IntEnv(0, 65_535).default(3000),
  /** The URL clients reach the backend at (problem type URLs, status URLs, OpenAPI servers). */
  PUBLIC_URL: z.url().optional(),
  /** Upper bound of a request's wait_ms. */
  SCAN_WAIT_MAX_MS: IntEnv(0, 120_000).default(30_000),
  /** How long one report event stream stays open; it then ends (`stream_expired`) and the client reconnects. */
  REPORT_EVENTS_MAX_SECONDS: IntEnv(1, 86_400).default(1_800),
  RPC_REQUEST_TIMEOUT_MS: IntEnv(100, 60_000).default(5_000),
  /** Commit the build came from, when the deployment knows it. */
  VIGIL_COMMIT: z.string().optional(),
  /** Operating entity named in the x402 discovery document. */
  VIGIL_OPERATOR: z.string().default('Vigil'),
  /** The MCP host ({mcp_url}) the discovery document points agents at. */
  MCP_PUBLIC_URL: z.url().default('http://127.0.0.1:3006'),
  /** The retrieval service: the catalog's RAG search and similar-token search. */
  RETRIEVAL_URL: z.url().default('http://127.0.0.1:3003'),
  /** The scraper service, whose health status_check reports (the reports pool calls it). */
  SCRAPER_URL: z.url().default('http://127.0.0.1:3005'),
  /** RSS, Atom or JSON feeds the news pipeline reads, comma-separated (none: no schedule). */
  NEWS_FEEDS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((feed) => feed.trim())
        .filter((feed) => feed !== ''),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ }))),
  /** How often the news schedule reads the feeds. */
  NEWS_POLL_MINUTES: IntEnv(1, 1_440).default(15),
  /** The embedded stack's supervision file (`npm start` sets it): /health then lists its children. */
  STACK_SUPERVISION_FILE: z.string().optional(),
})
  .extend(PaymentsEnvShape)
  .extend(ChaindataEnvShape)
  .extend(AccessEnvShape);
export type BackendEnv = z.infer<typeof BackendEnv>;

export function publicUrlOf(env: BackendEnv): string {
  return (env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${env.PORT}`).replace(
    /\/+$/,
    '',
  );
}
