import type { VerifyResponse } from '@x402/core/types';
import { getAddress, type Hex } from 'viem';
import { refundNonce } from '../../core/x402/refund.ts';
import { PaymentReason } from '../../core/x402/reasons.ts';
import type { FacilitatorWallet } from './chain.ts';
import { observeTransaction } from './evmTransactions.ts';
import type { FacilitatorRequest } from './requestSchema.ts';

/**
 * Why a refund may not be settled, or undefined when it may. A refund sends a payment back: the
 * payment's transaction must be a successful `transferWithAuthorization` on the same asset that
 * moved exactly the refund's amount from the refund's recipient (the payer) to its signer (the
 * payee), and the refund must use that payment's one refund nonce, so the chain lets it happen
 * once. The payee key can therefore only ever return money it was paid, to whoever paid it.
 */
export async function refundRefusal(
  wallet: FacilitatorWallet,
  { requirements, authorization }: FacilitatorRequest,
  paymentTransaction: string,
): Promise<VerifyResponse | undefined> {
  const refuse = (message: string): VerifyResponse => ({
    isValid: false,
    invalidReason: PaymentReason.refundNotAllowed,
    invalidMessage: message,
    payer: authorization.from,
  });
  if (!/^0x[0-9a-fA-F]{64}$/.test(paymentTransaction))
    return refuse('refundOf must be the transaction that settled the payment.');
  if (authorization.nonce.toLowerCase() !== refundNonce(paymentTransaction).toLowerCase())
    return refuse('A refund uses its payment’s refund nonce.');
  const payer = getAddress(authorization.to);
  const paid = await observeTransaction(
    wallet,
    paymentTransaction as Hex,
    getAddress(requirements.asset),
    payer,
  );
  if (typeof paid === 'string' || !paid.succeeded || !paid.call)
    return refuse('The payment transaction is not a settled transferWithAuthorization on this asset.');
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const recipients = Object.entries(paid.moved);
  const exact =
    same(paid.call.from, payer) &&
    same(paid.call.to, authorization.from) &&
    paid.call.value === BigInt(authorization.value).toString() &&
    recipients.length === 1 &&
    recipients[0] !== undefined &&
    same(recipients[0][0], authorization.from) &&
    recipients[0][1] === BigInt(authorization.value).toString();
  if (!exact)
    return refuse('The refund does not send that payment’s amount back from its payee to its payer.');
  return undefined;
}
