import { z } from 'zod';
import { IntEnv, OptionalEnv } from '../../../core/config/env.ts';

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address');
const SolanaAddress = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana address');

/** The backend's x402 gateway (trials and rate limits: ../accessConfig.ts). */
export const PaymentsEnvShape = {
  /** The x402 facilitator that verifies (here) and settles (in the payments pool). */
  FACILITATOR_URL: z.url().default('http://127.0.0.1:3002'),
  /** This service's caller token of the facilitator's FACILITATOR_CALLERS (a secret). */
  FACILITATOR_AUTH_TOKEN: OptionalEnv,
  /** CAIP-2 network payments are quoted on. */
  X402_NETWORK: z
    .string()
    .regex(/^[a-z0-9-]{3,8}:[-_a-zA-Z0-9]{1,32}$/)
    .default('eip155:31337'),
  /** The EIP-3009 token (USDC) quoted in; unset = tools answer trials only and quote nothing. */
  X402_ASSET: OptionalEnv.pipe(Address.optional()),
  /** Where payments go. */
  X402_PAY_TO: OptionalEnv.pipe(Address.optional()),
  /**
   * A Solana option offered beside the EVM one (the facilitator must settle it): the network
   * (a local runtime poses as Solana devnet's id), the SPL mint and the payee's wallet address.
   */
  X402_SVM_NETWORK: z
    .string()
    .regex(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/)
    .default('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'),
  X402_SVM_ASSET: OptionalEnv.pipe(SolanaAddress.optional()),
  X402_SVM_PAY_TO: OptionalEnv.pipe(SolanaAddress.optional()),
  /** How long a signed payment may stay valid (quoted as maxTimeoutSeconds). */
  X402_MAX_TIMEOUT_SECONDS: IntEnv(10, 3_600).default(300),
  /** How long a paid call waits for its settlement before answering with a pending receipt. */
  X402_SETTLE_WAIT_MS: IntEnv(0, 120_000).default(15_000),
  /** How long an invoice can be paid. */
  X402_INVOICE_TTL_SECONDS: IntEnv(1, 7 * 86_400).default(1_800),
  /** Invoices one caller (and one client address) may create per hour. */
  X402_INVOICES_PER_HOUR: IntEnv(1, 1_000_000).default(60),
  /** How long after settlement a charged empty result may be refunded (the API specification: 48 h). */
  X402_REFUND_WINDOW_SECONDS: IntEnv(1, 30 * 86_400).default(172_800),
  /**
   * The sandbox's test network, token, payee and facilitator. Unset, they are the main ones when
   * the main network is a test network (the devnet), and the sandbox is off otherwise.
   */
  X402_SANDBOX_NETWORK: OptionalEnv,
  X402_SANDBOX_ASSET: OptionalEnv.pipe(Address.optional()),
  X402_SANDBOX_PAY_TO: OptionalEnv.pipe(Address.optional()),
  X402_SANDBOX_FACILITATOR_URL: OptionalEnv.pipe(z.url().optional()),
  /** The caller token for the sandbox's facilitator (unset: FACILITATOR_AUTH_TOKEN when it is the main one). */
  X402_SANDBOX_FACILITATOR_AUTH_TOKEN: OptionalEnv,
  /** How long a tool call waits for its scan. */
  TOOL_WAIT_MS: IntEnv(1_000, 120_000).default(30_000),
};
