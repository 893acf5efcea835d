import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { type Hex, keccak256, toHex } from 'viem';
import type { Invoice } from '../stores/invoices.ts';
import type { PaymentReceipt } from '../stores/receipts.ts';

/**
 * What the refund workflow gets: which payment to send back, and nothing it could be told about
 * that payment. Its payer, amount, transaction and refundability are read from the stored receipt
 * (and the facilitator checks the transaction on chain), so whoever can start a workflow on the
 * payments queue cannot make the payee pay anyone anything that was not a refundable purchase.
 */
export interface RefundPaymentInput {
  paymentId: string;
}

/** The refund as an x402 payment from the payee back to the payer, ready for the facilitator. */
export interface SignedRefund {
  paymentPayload: PaymentPayload;
  requirements: PaymentRequirements;
  /** The transaction that settled the payment being refunded. */
  refundOf: string;
}

/** One refund per payment, ever. */
export function refundWorkflowId(paymentId: string): string {
  return `refund:${paymentId}`;
}

/** How long a signed refund authorization stays valid; a refund that outlives it is signed again. */
export const REFUND_AUTHORIZATION_SECONDS = 600;

/**
 * The one EIP-3009 nonce a refund of the payment settled in `transaction` may use: the token lets
 * a nonce pay once, so a payment is refunded at most once, however often its refund is signed,
 * retried or asked for; the facilitator refuses a refund with any other nonce.
 */
export function refundNonce(transaction: string): Hex {
  return keccak256(toHex(`vigil-refund:${transaction.toLowerCase()}`));
}

/** Why a stored payment is not refundable (the API's reasons), or undefined when it is. */
export type RefundBlock = 'not_settled' | 'not_an_empty_result' | 'window_passed';

/**
 * Refundability, decided per purchase from stored state alone: the payment settled in a
 * transaction, the purchase it paid for (its invoice, which names this very payment) answered no
 * data, and the request came within the window after settlement. A tool call's own payment is
 * never charged for an empty result, so only invoice payments qualify.
 */
export function refundBlock(
  receipt: PaymentReceipt,
  invoice: Invoice | undefined,
  windowSeconds: number,
  requestedAt: number,
): RefundBlock | undefined {
  if (receipt.status !== 'settled' || !receipt.transaction) return 'not_settled';
  const emptyPurchase =
    invoice !== undefined &&
    invoice.invoice_id === receipt.invoice_id &&
    invoice.payment_id === receipt.payment_id &&
    invoice.transaction === receipt.transaction &&
    invoice.result !== null &&
    invoice.result.data === null;
  if (!emptyPurchase) return 'not_an_empty_result';
  const settledAt = Date.parse(receipt.settled_at ?? receipt.created_at);
  if (requestedAt > settledAt + windowSeconds * 1000) return 'window_passed';
  return undefined;
}
