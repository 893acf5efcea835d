import { z } from 'zod';
import { BoolEnv, IntEnv, OptionalEnv } from '../../core/config/env.ts';

/** The embedded stack's ports and folder; every store given by URL in the env is used instead. */
export const StackEnv = z.object({
  VIGIL_DATA_DIR: OptionalEnv,
  PORT: IntEnv(1, 65_535).default(3000),
  VIGIL_TEMPORAL_PORT: IntEnv(1, 65_535).default(7233),
  VIGIL_TEMPORAL_UI_PORT: IntEnv(1, 65_535).default(8233),
  VIGIL_REDIS_PORT: IntEnv(1, 65_535).default(6379),
  VIGIL_MONGO_PORT: IntEnv(1, 65_535).default(27017),
  VIGIL_ANVIL_PORT: IntEnv(1, 65_535).default(8545),
  VIGIL_FACILITATOR_PORT: IntEnv(1, 65_535).default(3002),
  VIGIL_SCRAPER_PORT: IntEnv(1, 65_535).default(3005),
  VIGIL_RETRIEVAL_PORT: IntEnv(1, 65_535).default(3003),
  VIGIL_MCP_PORT: IntEnv(1, 65_535).default(3006),
  /** Ingest Vigil's docs and the check catalog into the retrieval index once the stack is up. */
  VIGIL_KNOWLEDGE: BoolEnv.default(true),
  /** The local Solana devnet's JSON-RPC front (LiteSVM, in the launcher's process). */
  VIGIL_SOLANA_PORT: IntEnv(1, 65_535).default(8899),
  /** The local news desk (RSS, Atom, JSON Feed about the devnet tokens) the news pipeline reads. */
  VIGIL_NEWS_PORT: IntEnv(1, 65_535).default(3008),
  /** Run the demo scans once the stack is up. */
  VIGIL_DEMO: BoolEnv.default(true),
  TEMPORAL_ADDRESS: OptionalEnv,
  REDIS_URL: OptionalEnv,
  MONGODB_URI: OptionalEnv,
  RPC_URLS_DEVNET: OptionalEnv,
  RPC_URLS_SOLANA_DEVNET: OptionalEnv,
  TOKEN_ALLOWLIST_DEVNET: OptionalEnv,
  NEWS_FEEDS: OptionalEnv,
});
export type StackEnv = z.infer<typeof StackEnv>;
