import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { PaymentReceipt } from '../stores/receipts.ts';

/** What the settlement workflow gets: the verified proof, what it pays for, and the receipt to complete. */
export interface SettlePaymentInput {
  paymentId: string;
  paymentPayload: PaymentPayload;
  requirements: PaymentRequirements;
  /** The receipt as it stands before settlement (status pending). */
  receipt: PaymentReceipt;
}

/** One workflow per payment: a second start for the same authorization joins the first. */
export function settlementWorkflowId(paymentId: string): string {
  return `settle:${paymentId}`;
}
