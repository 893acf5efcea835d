import { ActivityFailure, ApplicationFailure, proxyLocalActivities } from '@temporalio/workflow';
import type { PaymentActivities } from '../activities/payments/index.ts';
import type { PaymentReceipt } from '../core/stores/receipts.ts';
import { PaymentReason, SETTLE_RETRY } from '../core/x402/reasons.ts';
import type { RefundPaymentInput } from '../core/x402/refund.ts';

// Settling a refund is settling a payment (payee → payer through the facilitator): the same
// retries; once its authorization expires the facilitator's refusal is final and it is signed again.
const { settleRefund } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '90s',
  retry: SETTLE_RETRY,
});

// Signing fails for good when the payment is not (or no longer) refundable, or no refund signer
// is configured (or it is not the payee).
const { signRefund, recordRefund } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 30,
    nonRetryableErrorTypes: [
      'refunds_not_configured',
      'refund_signer_mismatch',
      'invalid_network',
      'unsupported_asset',
      'receipt_not_found',
      'refund_not_requested',
      'not_settled',
      'not_an_empty_result',
      'window_passed',
    ],
  },
});

/** Times an expired refund authorization is signed again (with the same nonce) before giving up. */
const SIGNINGS = 4;

/** Refusals that say the stored payment is not one to refund: the receipt's refund is left as it was. */
const NOT_REFUNDABLE = [
  'receipt_not_found',
  'refund_not_requested',
  'not_settled',
  'not_an_empty_result',
  'window_passed',
];

/**
 * Sends a charged empty result's payment back to its payer, once: the payee signs a
 * transferWithAuthorization whose nonce belongs to this payment, the facilitator settles it (after
 * checking the payment on chain), and the receipt (and its invoice) record the refund. The input
 * names the payment only; everything else comes from the stored receipt. The result is the
 * receipt's refund.
 */
export async function refundPayment(input: RefundPaymentInput): Promise<PaymentReceipt['refund']> {
  let reason: string = PaymentReason.unexpectedSettle;
  let message = 'The refund failed.';
  for (let signing = 1; signing <= SIGNINGS; signing++) {
    try {
      const refund = await signRefund(input.paymentId);
      const settled = await settleRefund(refund);
      const receipt = await recordRefund({
        paymentId: input.paymentId,
        status: 'refunded',
        transaction: settled.transaction,
        reason: null,
      });
      return receipt.refund;
    } catch (error) {
      const cause = error instanceof ActivityFailure ? error.cause : error;
      reason = cause instanceof ApplicationFailure ? (cause.type ?? PaymentReason.unexpectedSettle) : reason;
      message = cause instanceof Error ? cause.message : message;
      // Expired before the facilitator could send it: sign again; the nonce is the same.
      if (reason !== PaymentReason.validBefore) break;
    }
  }
  if (!NOT_REFUNDABLE.includes(reason))
    await recordRefund({ paymentId: input.paymentId, status: 'failed', transaction: null, reason });
  throw ApplicationFailure.create({ type: reason, message, nonRetryable: true });
}
