import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { PaymentReceipt } from '../stores/receipts.ts';

/** What the refund workflow gets: the settled payment to send back. */
export interface RefundPaymentInput {
  paymentId: string;
  receipt: PaymentReceipt;
  requestedAt: string;
}

/** The refund as an x402 payment from the payee back to the payer, ready for the facilitator. */
export interface SignedRefund {
  paymentPayload: PaymentPayload;
  requirements: PaymentRequirements;
}

/** One refund per payment, ever. */
export function refundWorkflowId(paymentId: string): string {
  return `refund:${paymentId}`;
}

/** How long a signed refund authorization stays valid; a refund that outlives it is signed again. */
export const REFUND_AUTHORIZATION_SECONDS = 600;
