import { parsePaymentPayload, parsePaymentRequirements } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { z } from 'zod';
import { PaymentReason } from '../../core/x402/reasons.ts';
import { decodeSvmTransaction } from '../../core/x402/svmProof.ts';

export interface SvmRequest {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  /** One key per transaction (network and message hash): what settlement is idempotent on. */
  key: string;
  payer: string;
}

export interface SvmLimits {
  network: string;
  assets: readonly string[];
  /** The only wallets payments may go to. */
  payees: readonly string[];
  minAmount: bigint;
  maxAmount: bigint;
}

const ExactSvmPayload = z.object({ transaction: z.string().min(1).max(8_192) });

export type ParsedSvmRequest =
  { ok: true; request: SvmRequest } | { ok: false; reason: PaymentReason; message: string };

/**
 * The body of POST /verify and /settle for Solana: the official schemas, then what Vigil bounds
 * before the SDK looks (network, accepted mint, the amount between the smallest price and the
 * limit, a configured payee), and the transaction decoded once for its key and payer. Instruction
 * layout, amounts and destination (the payee's token account) are the SDK's checks.
 */
export function parseSvmRequest(body: unknown, limits: SvmLimits): ParsedSvmRequest {
  const value = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (value.x402Version !== 2)
    return { ok: false, reason: PaymentReason.invalidVersion, message: 'x402Version must be 2.' };
  const requirements = parsePaymentRequirements(value.paymentRequirements);
  if (!requirements.success || !('amount' in requirements.data))
    return {
      ok: false,
      reason: PaymentReason.invalidRequirements,
      message: 'paymentRequirements is not an x402 v2 PaymentRequirements object.',
    };
  const payload = parsePaymentPayload(value.paymentPayload);
  if (!payload.success || payload.data.x402Version !== 2)
    return {
      ok: false,
      reason: PaymentReason.invalidPayload,
      message: 'paymentPayload is not an x402 v2 PaymentPayload.',
    };
  const exact = ExactSvmPayload.safeParse(payload.data.payload);
  if (!exact.success)
    return {
      ok: false,
      reason: PaymentReason.invalidPayload,
      message: 'The payload carries no Solana transaction.',
    };
  const required = requirements.data as PaymentRequirements;
  if (required.network !== limits.network)
    return {
      ok: false,
      reason: PaymentReason.invalidNetwork,
      message: `This facilitator settles ${limits.network}.`,
    };
  if (!limits.assets.includes(required.asset))
    return {
      ok: false,
      reason: PaymentReason.unsupportedAsset,
      message: `${required.asset} is not settled here.`,
    };
  if (!/^\d{1,20}$/.test(required.amount) || BigInt(required.amount) > limits.maxAmount)
    return {
      ok: false,
      reason: PaymentReason.amountAboveLimit,
      message: `The amount is above this facilitator's limit of ${limits.maxAmount}.`,
    };
  if (BigInt(required.amount) < limits.minAmount)
    return {
      ok: false,
      reason: PaymentReason.amountBelowMinimum,
      message: `Payments below ${limits.minAmount} (the smallest price) are not settled here.`,
    };
  if (!limits.payees.includes(required.payTo))
    return {
      ok: false,
      reason: PaymentReason.recipientNotAccepted,
      message: 'Payments settled here go to this deployment’s payees.',
    };
  let key: string;
  let payer: string;
  try {
    const decoded = decodeSvmTransaction(exact.data.transaction);
    key = `svm:${limits.network}:${decoded.messageHash}`;
    payer = decoded.payer;
  } catch {
    return {
      ok: false,
      reason: PaymentReason.invalidPayload,
      message: 'The Solana transaction does not decode.',
    };
  }
  return {
    ok: true,
    request: { payload: payload.data as PaymentPayload, requirements: required, key, payer },
  };
}
