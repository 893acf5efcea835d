import { BoolEnv, IntEnv } from '../../core/config/env.ts';
import { ApiKeysEnv, TrustProxyEnv } from '../plugins/callerConfig.ts';

/** Who may call the backend and how much: caller identity, rate limits, trials, wallet proofs. */
export const AccessEnvShape = {
  /** Which X-Forwarded-For hops to believe for the client address (unset: none). */
  TRUST_PROXY: TrustProxyEnv,
  /** IPv6 clients are one network per prefix of this many bits. */
  RATE_LIMIT_IPV6_PREFIX: IntEnv(32, 128).default(64),
  RATE_LIMITS: BoolEnv.default(true),
  /** When Redis cannot count: true lets requests through, false (the default) refuses them (503). */
  RATE_LIMIT_FAIL_OPEN: BoolEnv.default(false),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: IntEnv(1, 1_000_000).default(10),
  /** The daily cap of one anonymous network fingerprint (address and X-Client-ID). */
  RATE_LIMIT_ANONYMOUS_PER_DAY: IntEnv(1, 100_000_000).default(100),
  /**
   * One network may use this many anonymous clients' worth of requests and free trials, however
   * many X-Client-IDs it sends (offices and carriers put many people behind one address).
   */
  RATE_LIMIT_CLIENTS_PER_NETWORK: IntEnv(1, 1_000_000).default(4),
  RATE_LIMIT_FREE_PER_MINUTE: IntEnv(1, 1_000_000).default(10),
  RATE_LIMIT_FREE_PER_DAY: IntEnv(1, 100_000_000).default(100),
  RATE_LIMIT_PRO_PER_MINUTE: IntEnv(1, 1_000_000).default(60),
  RATE_LIMIT_PRO_PER_DAY: IntEnv(1, 100_000_000).default(10_000),
  API_KEYS: ApiKeysEnv,
  /** Rolling window of the free trial allotments. */
  TRIAL_WINDOW_SECONDS: IntEnv(60, 30 * 86_400).default(86_400),
  /** The MCP door's free tier (the specification: 5 calls per day per tool, then x402). */
  MCP_FREE_CALLS_PER_DAY: IntEnv(0, 1_000).default(5),
  /** How long a wallet proof token (from a signed sign-in message) lets a wallet's trials be used. */
  WALLET_PROOF_TTL_SECONDS: IntEnv(60, 7 * 86_400).default(3_600),
  /** How long a sign-in nonce may wait for its signed message. */
  WALLET_PROOF_NONCE_TTL_SECONDS: IntEnv(30, 3_600).default(300),
};
