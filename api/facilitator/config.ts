import { z } from 'zod';
import { IntEnv, LogLevel, OptionalEnv } from '../../core/config/env.ts';
import { StoresEnv } from '../../core/config/stores.ts';

/** A comma-separated list of at least one address of the given shape. */
const addressList = (pattern: RegExp, message: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(pattern, message)).min(1));

const AddressList = addressList(/^0x[0-9a-fA-F]{40}$/, 'must be 0x-prefixed 20-byte addresses');
const SolanaAddressList = addressList(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be base58 Solana addresses');

/**
 * `name:token,...`: who may call /verify, /settle and /refund (the backend, the payments pool),
 * each with a secret token of at least 32 characters sent as `Authorization: Bearer <token>`.
 */
const CallerTokens = z
  .string({ error: 'is required: name:token,... for the backend and the payments pool' })
  .transform((value, context) => {
    const callers: { name: string; token: string }[] = [];
    for (const entry of value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const [name, token, ...rest] = entry.split(':');
      if (
        !name ||
        !/^[A-Za-z0-9_-]{1,32}$/.test(name) ||
        !token ||
        !/^[A-Za-z0-9_-]{32,256}$/.test(token) ||
        rest.length > 0
      ) {
        context.addIssue({
          code: 'custom',
          message: 'each entry must be name:token with a token of 32+ characters of A-Z a-z 0-9 _ -',
        });
        return z.NEVER;
      }
      callers.push({ name, token });
    }
    if (callers.length === 0) {
      context.addIssue({ code: 'custom', message: 'name at least one caller' });
      return z.NEVER;
    }
    return callers;
  });

/** The facilitator ({coffer_url}): one EVM chain, the EIP-3009 tokens it settles, one signer. */
export const FacilitatorEnv = StoresEnv.pick({
  REDIS_URL: true,
  REDIS_KEY_PREFIX: true,
  REDIS_TLS_CA_PATH: true,
}).extend({
  HOST: z.string().default('127.0.0.1'),
  PORT: IntEnv(0, 65_535).default(3002),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: LogLevel.default('info'),
  /** Registry slug of the chain settled on; its RPC endpoints come from RPC_URLS_<CHAIN>. */
  FACILITATOR_CHAIN: z.string().default('devnet'),
  /** The signer that submits transferWithAuthorization and pays the gas. Keep it in a secret store. */
  FACILITATOR_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key'),
  /** EIP-3009 tokens accepted (USDC); name, version and decimals are read from each contract at boot. */
  FACILITATOR_ASSETS: AddressList,
  /** The payees: the only addresses payments are settled to (and refunds from). */
  FACILITATOR_PAY_TO: AddressList,
  /** Who may ask for verification and settlement (see CallerTokens). Keep it in a secret store. */
  FACILITATOR_CALLERS: CallerTokens,
  /** Requests per minute per caller to /verify, /settle and /refund. */
  FACILITATOR_RATE_LIMIT_PER_MINUTE: IntEnv(1, 10_000_000).default(6_000),
  /** Requests per minute per client address to everything else, and refused authentications. */
  FACILITATOR_PUBLIC_RATE_LIMIT_PER_MINUTE: IntEnv(1, 10_000_000).default(120),
  /** Receipt wait per settlement; past it the answer is settlement_pending with the transaction hash. */
  FACILITATOR_CONFIRMATION_TIMEOUT_MS: IntEnv(100, 600_000).default(15_000),
  /** Largest payment accepted, in the asset's atomic units. */
  FACILITATOR_MAX_AMOUNT: z.string().regex(/^\d+$/).default('5000000'),
  /** Smallest payment accepted (atomic): the cheapest price ($0.01 in 6-decimal USDC). */
  FACILITATOR_MIN_AMOUNT: z
    .string()
    .regex(/^[1-9]\d*$/)
    .default('10000'),
  /** Longest authorization validity accepted (validBefore − now). */
  FACILITATOR_MAX_TIMEOUT_SECONDS: IntEnv(10, 86_400).default(900),
  /** /healthz reports the signer unfunded below this native balance (wei). */
  FACILITATOR_MIN_SIGNER_BALANCE_WEI: z.string().regex(/^\d+$/).default('1000000000000000'),
  /** How often a broadcast settlement polls for its receipt: a block time's fraction on a real chain. */
  FACILITATOR_RECEIPT_POLL_MS: IntEnv(1, 10_000).default(200),
  /**
   * The most blocks searched, once per spent nonce, for the transaction that spent it (only the
   * blocks of the authorization's validity window are searched within it).
   */
  FACILITATOR_RECOVERY_LOOKBACK_BLOCKS: IntEnv(1, 100_000).default(2_000),
  RPC_REQUEST_TIMEOUT_MS: IntEnv(100, 60_000).default(5_000),
  /**
   * Solana (exact scheme, @x402/svm): offered when the RPC, the fee-payer key and the mints are
   * all set. The official client takes only mainnet, devnet and testnet ids, so a local runtime
   * poses as Solana devnet's (the default) with its own RPC URL.
   */
  FACILITATOR_SVM_NETWORK: z
    .string()
    .regex(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/, 'must be a Solana CAIP-2 id')
    .default('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'),
  FACILITATOR_SVM_RPC_URL: OptionalEnv.pipe(z.url().optional()),
  /** The fee payer that signs and pays for settlements: base58 of its 64 keypair bytes. Keep it in a secret store. */
  FACILITATOR_SVM_PRIVATE_KEY: OptionalEnv.pipe(
    z
      .string()
      .regex(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/, 'must be a base58 64-byte Solana keypair')
      .optional(),
  ),
  /** SPL mints accepted (USDC); decimals are read from each mint at boot. */
  FACILITATOR_SVM_ASSETS: OptionalEnv.pipe(SolanaAddressList.optional()),
  /** The Solana payees' wallets: the only ones payments are settled to. */
  FACILITATOR_SVM_PAY_TO: OptionalEnv.pipe(SolanaAddressList.optional()),
  /** /healthz reports the fee payer unfunded below this balance (lamports). */
  FACILITATOR_SVM_MIN_FEE_PAYER_LAMPORTS: z.string().regex(/^\d+$/).default('10000000'),
});
export type FacilitatorEnv = z.infer<typeof FacilitatorEnv>;

export function facilitatorPublicUrl(env: FacilitatorEnv): string {
  return (env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${env.PORT}`).replace(
    /\/+$/,
    '',
  );
}
