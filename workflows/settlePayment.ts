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

const { recordReceipt } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 30 },
});

/** Settles one x402 payment on-chain and stores its receipt; the receipt is the result. */
export async function settlePayment(input: SettlePaymentInput): Promise<PaymentReceipt> {
  try {
    const settled = await settleWithFacilitator(input);
    const receipt: PaymentReceipt = {
      ...input.receipt,
      status: 'settled',
      transaction: settled.transaction,
      settled_at: new Date().toISOString(),
      error_reason: null,
    };
    await recordReceipt(receipt);
    return receipt;
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : error;
    const reason =
      cause instanceof ApplicationFailure
        ? (cause.type ?? PaymentReason.unexpectedSettle)
        : PaymentReason.unexpectedSettle;
    await recordReceipt({ ...input.receipt, status: 'failed', error_reason: reason });
    throw ApplicationFailure.create({
      type: reason,
      message: cause instanceof Error ? cause.message : 'Settlement failed.',
      nonRetryable: true,
    });
  }
}
