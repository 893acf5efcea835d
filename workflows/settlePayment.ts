import { ActivityFailure, ApplicationFailure, proxyLocalActivities } from '@temporalio/workflow';
import type { PaymentActivities } from '../activities/payments/index.ts';
import type { PaymentReceipt } from '../core/stores/receipts.ts';
import { PaymentReason, SETTLE_RETRY } from '../core/x402/reasons.ts';
import type { SettlePaymentInput } from '../core/x402/settlement.ts';

// Local activities: a settlement is one facilitator call and one write, run inside the workflow
// task, so it costs no extra scheduling round trips. Retried as SETTLE_RETRY says.
const { settleWithFacilitator } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '90s',
  retry: SETTLE_RETRY,
});

// A receipt that does not match its payload fails for good; a store that is down is retried.
const { recordSettlement } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 30,
    nonRetryableErrorTypes: ['receipt_mismatch'],
  },
});

/** Settles one x402 payment on-chain and stores its receipt; the receipt is the result. */
export async function settlePayment(input: SettlePaymentInput): Promise<PaymentReceipt> {
  let transaction: string;
  try {
    transaction = (await settleWithFacilitator(input)).transaction;
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : error;
    const reason =
      cause instanceof ApplicationFailure
        ? (cause.type ?? PaymentReason.unexpectedSettle)
        : PaymentReason.unexpectedSettle;
    await recordSettlement({ input, outcome: { status: 'failed', reason } });
    throw ApplicationFailure.create({
      type: reason,
      message: cause instanceof Error ? cause.message : 'Settlement failed.',
      nonRetryable: true,
    });
  }
  return recordSettlement({ input, outcome: { status: 'settled', transaction } });
}
