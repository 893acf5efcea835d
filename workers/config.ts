import { z } from 'zod';
import { IntEnv, OptionalEnv } from '../core/config/env.ts';
import { StoresEnv } from '../core/config/stores.ts';
import { RetrievalEnv } from '../retrieval/config.ts';
import { ScraperEngineEnv } from '../scraper/config.ts';
import { ReportsEnv } from '../reports/config.ts';
import { ChaindataEnvShape } from '../chaindata/config.ts';

/** Worker pool settings; per-queue slots are WORKER_<QUEUE>_ACTIVITIES / _WORKFLOWS. */
export const WorkerEnv = StoresEnv.extend({
  VIGIL_DATA_DIR: z.string().optional(),
  WORKER_SCANNER_ACTIVITIES: IntEnv(1, 1000).default(64),
  WORKER_SCANNER_WORKFLOWS: IntEnv(2, 1000).default(40),
  WORKER_PAYMENTS_ACTIVITIES: IntEnv(1, 1000).default(32),
  WORKER_PAYMENTS_WORKFLOWS: IntEnv(2, 1000).default(32),
  /** The x402 facilitator the payments pool settles through. */
  FACILITATOR_URL: z.url().default('http://127.0.0.1:3002'),
  /** The payments pool's caller token of the facilitator's FACILITATOR_CALLERS (a secret). */
  FACILITATOR_AUTH_TOKEN: OptionalEnv,
  /** How long after settlement a charged empty result may be refunded (as the backend allows). */
  X402_REFUND_WINDOW_SECONDS: IntEnv(1, 30 * 86_400).default(172_800),
  // Browser-bound: few slots; browser contexts are capped separately (SCRAPER_BROWSER_CONTEXTS).
  WORKER_SCRAPER_ACTIVITIES: IntEnv(1, 1000).default(16),
  WORKER_SCRAPER_WORKFLOWS: IntEnv(2, 1000).default(16),
  /** The payee's key (the account X402_PAY_TO names): signs refunds of charged empty results. */
  X402_PAYEE_PRIVATE_KEY: OptionalEnv.pipe(
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key')
      .optional(),
  ),
  // Ingest: each indexRange holds a block range in memory while it decodes and writes it, and each
  // embedding batch keeps a core busy: few activity slots.
  WORKER_INGEST_ACTIVITIES: IntEnv(1, 1000).default(4),
  WORKER_INGEST_WORKFLOWS: IntEnv(2, 1000).default(16),
  WORKER_REPORTS_ACTIVITIES: IntEnv(1, 1000).default(8),
  WORKER_REPORTS_WORKFLOWS: IntEnv(2, 1000).default(32),
  /** Root of the indexed chain data (Parquet): a folder or s3://bucket/prefix; default: <VIGIL_DATA_DIR>/chaindata. */
  CHAINDATA_DIR: z.string().optional(),
  /** Seconds in-flight activities get to finish on SIGTERM before the worker stops. */
  WORKER_SHUTDOWN_GRACE_SECONDS: IntEnv(0, 600).default(10),
  /** host:port for the worker's Prometheus metrics; unset = no metrics endpoint. */
  WORKER_METRICS_ADDRESS: z.string().optional(),
  RPC_REQUEST_TIMEOUT_MS: IntEnv(100, 60_000).default(5_000),
  /** The same for a simulation: the scanner's probes and traces, which a loaded node may queue. */
  RPC_SIMULATION_TIMEOUT_MS: IntEnv(100, 600_000).default(30_000),
  /** The scraper service that fetches documents given by URL. */
  SCRAPER_URL: z.url().default('http://127.0.0.1:3005'),
  /** This pool's key at the scraper, when the scraper asks its callers for one (SCRAPER_API_KEYS). */
  SCRAPER_API_KEY: z.string().min(1).optional(),
  ...ScraperEngineEnv.shape,
  ...RetrievalEnv.omit({ VIGIL_DATA_DIR: true }).shape,
  ...ReportsEnv.shape,
  // The analytics engine's limits: the reports pool reads the chain index through it.
  ...z.object(ChaindataEnvShape).omit({ VIGIL_DATA_DIR: true, CHAINDATA_DIR: true }).shape,
});
export type WorkerEnv = z.infer<typeof WorkerEnv>;
