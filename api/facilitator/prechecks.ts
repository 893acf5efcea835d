import { isDeepStrictEqual } from 'node:util';
import type { VerifyResponse } from '@x402/core/types';
import { type Address, type Hex, getAddress } from 'viem';
import { PaymentReason } from '../../core/x402/reasons.ts';
import { type FacilitatorWallet, tokenAbi } from './chain.ts';
import type { FacilitatorRequest } from './requestSchema.ts';

/** Allowed clock difference between the payer and the chain. */
const CLOCK_SKEW_SECONDS = 30n;

export interface PrecheckLimits {
  network: string;
  /** Accepted tokens with their EIP-712 domain as read from the contract at boot. */
  assets: readonly { address: Address; name: string; version: string }[];
  /** The only addresses payments may go to (and refunds come from). */
  payees: readonly Address[];
  minAmount: bigint;
  maxAmount: bigint;
  maxTimeoutSeconds: number;
}

/** A payment pays a payee; a refund sends a payee's money back to a payer. */
export type SettlePurpose = 'payment' | 'refund';

function refusal(payer: string) {
  return (invalidReason: string, invalidMessage: string): VerifyResponse => ({
    isValid: false,
    invalidReason,
    invalidMessage,
    payer,
  });
}

/**
 * Vigil's checks the SDK does not make, without I/O: `accepted` matches the requirements field by
 * field (each mismatch with its own reason), the asset is accepted here and the requirements
 * name its real EIP-712 domain, money only ever goes to a configured payee (or, for a refund,
 * from one), and the amount and the authorization's validity are within limits.
 */
export function staticRefusal(
  { payload, requirements, authorization }: FacilitatorRequest,
  limits: PrecheckLimits,
  purpose: SettlePurpose = 'payment',
): VerifyResponse | undefined {
  const refuse = refusal(authorization.from);
  if (requirements.scheme !== 'exact' || payload.accepted.scheme !== 'exact')
    return refuse(PaymentReason.unsupportedScheme, 'Only the exact scheme is settled here.');
  if (requirements.network !== limits.network)
    return refuse(PaymentReason.invalidNetwork, `This facilitator settles on ${limits.network} only.`);
  const asset = limits.assets.find(
    (entry) => entry.address.toLowerCase() === requirements.asset.toLowerCase(),
  );
  if (!asset)
    return refuse(PaymentReason.unsupportedAsset, `${requirements.asset} is not an accepted asset.`);
  const extra = (requirements.extra ?? {}) as { name?: unknown; version?: unknown };
  if (extra.name !== asset.name || extra.version !== asset.version)
    return refuse(
      PaymentReason.domainMismatch,
      `${asset.address}'s EIP-712 domain is "${asset.name}" version "${asset.version}".`,
    );
  const isPayee = (address: string) =>
    limits.payees.some((payee) => payee.toLowerCase() === address.toLowerCase());
  if (purpose === 'payment' && (!isPayee(requirements.payTo) || isPayee(authorization.from)))
    return refuse(
      PaymentReason.recipientNotAccepted,
      'Payments settled here go to this deployment’s payees.',
    );
  if (purpose === 'refund' && (!isPayee(authorization.from) || isPayee(requirements.payTo)))
    return refuse(
      PaymentReason.refundNotAllowed,
      'A refund goes from one of this deployment’s payees to a payer.',
    );
  const accepted = payload.accepted;
  if (accepted.network !== requirements.network)
    return refuse(PaymentReason.networkMismatch, 'The payment was made for another network.');
  if (accepted.asset.toLowerCase() !== requirements.asset.toLowerCase())
    return refuse(PaymentReason.assetMismatch, 'The payment was made in another asset.');
  if (
    accepted.payTo.toLowerCase() !== requirements.payTo.toLowerCase() ||
    authorization.to.toLowerCase() !== requirements.payTo.toLowerCase()
  )
    return refuse(PaymentReason.recipientMismatch, 'The authorization pays another recipient.');
  if (accepted.amount !== requirements.amount || authorization.value !== requirements.amount)
    return refuse(
      PaymentReason.valueMismatch,
      `The authorization is not for exactly ${requirements.amount}.`,
    );
  if (!isDeepStrictEqual(normalise(accepted), normalise(requirements)))
    return refuse(
      PaymentReason.invalidRequirements,
      'The accepted requirements differ from the quoted ones.',
    );
  if (BigInt(requirements.amount) > limits.maxAmount)
    return refuse(PaymentReason.amountAboveLimit, `Payments above ${limits.maxAmount} are not settled here.`);
  if (BigInt(requirements.amount) < limits.minAmount)
    return refuse(
      PaymentReason.amountBelowMinimum,
      `Payments below ${limits.minAmount} (the smallest price) are not settled here.`,
    );
  const now = BigInt(Math.floor(Date.now() / 1000));
  const longest = BigInt(Math.min(requirements.maxTimeoutSeconds, limits.maxTimeoutSeconds));
  if (BigInt(authorization.validBefore) > now + longest + CLOCK_SKEW_SECONDS)
    return refuse(PaymentReason.validityTooLong, `The authorization stays valid longer than ${longest} s.`);
  return undefined;
}

/**
 * The authorization's nonce and the payer's balance, read at once, so a replay or an underfunded
 * payer is refused with the precise reason rather than a failed simulation.
 */
export async function chainRefusal(
  wallet: FacilitatorWallet,
  { requirements, authorization }: FacilitatorRequest,
): Promise<VerifyResponse | undefined> {
  const refuse = refusal(authorization.from);
  const asset = getAddress(requirements.asset);
  const payer = getAddress(authorization.from);
  const [used, balance] = await Promise.all([
    wallet.readContract({
      address: asset,
      abi: tokenAbi,
      functionName: 'authorizationState',
      args: [payer, authorization.nonce as Hex],
    }),
    wallet.readContract({ address: asset, abi: tokenAbi, functionName: 'balanceOf', args: [payer] }),
  ]);
  if (used) return refuse(PaymentReason.nonceUsed, 'This authorization has already been used.');
  if (balance < BigInt(authorization.value))
    return refuse(
      PaymentReason.insufficientBalance,
      `The payer holds ${balance}, less than ${authorization.value}.`,
    );
  return undefined;
}

function normalise(requirements: { extra?: unknown } & Record<string, unknown>) {
  return {
    ...requirements,
    extra: requirements.extra ?? {},
    asset: String(requirements.asset).toLowerCase(),
    payTo: String(requirements.payTo).toLowerCase(),
  };
}
