import { ApplicationFailure } from '@temporalio/common';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import type { PaymentReceipt, ReceiptStore } from '../../core/stores/receipts.ts';
import { PaymentReason, TERMINAL_SETTLE_REASONS } from '../../core/x402/reasons.ts';
import type { SettlePaymentInput } from '../../core/x402/settlement.ts';

export interface PaymentsDeps {
  facilitatorUrl: string;
  receipts: ReceiptStore;
  /** Per settle request to the facilitator; above its own confirmation timeout. */
  facilitatorTimeoutMs?: number;
}

/** The payments pool's activities: settle through the facilitator, record the receipt. */
export function createPaymentActivities({ facilitatorUrl, receipts, facilitatorTimeoutMs }: PaymentsDeps) {
  const facilitator = new HTTPFacilitatorClient({
    url: facilitatorUrl,
    timeoutMs: facilitatorTimeoutMs ?? 60_000,
  });
  return {
    /**
     * Settles once; the facilitator is idempotent per authorization, so a retry (after a crash, a
     * timeout or `settlement_pending`) returns the first transaction instead of paying twice.
     */
    async settleWithFacilitator(input: SettlePaymentInput): Promise<SettleResponse> {
      let result: SettleResponse;
      try {
        result = await facilitator.settle(input.paymentPayload, input.requirements);
      } catch (error) {
        const answered = settleFailureOf(error);
        if (!answered) {
          throw ApplicationFailure.retryable(
            `The facilitator did not answer: ${error instanceof Error ? error.message : String(error)}`,
            'facilitator_unreachable',
          );
        }
        result = answered;
      }
      if (result.success) return result;
      const reason = result.errorReason ?? PaymentReason.unexpectedSettle;
      const message = result.errorMessage ?? `Settlement failed: ${reason}.`;
      if (TERMINAL_SETTLE_REASONS.includes(reason) || reason === PaymentReason.insufficientBalance) {
        throw ApplicationFailure.nonRetryable(message, reason, result);
      }
      // settlement_pending (broadcast, not yet confirmed) and transient failures: try again later.
      throw ApplicationFailure.retryable(message, reason, result);
    },

    async recordReceipt(receipt: PaymentReceipt): Promise<void> {
      await receipts.put(receipt);
    },
  };
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;

/** A SettleError (non-2xx with a settle body) carries the facilitator's answer. */
function settleFailureOf(error: unknown): SettleResponse | undefined {
  if (typeof error !== 'object' || error === null || !('errorReason' in error)) return undefined;
  const failure = error as {
    errorReason?: string;
    errorMessage?: string;
    transaction?: string;
    network?: string;
    payer?: string;
  };
  if (!failure.errorReason) return undefined;
  return {
    success: false,
    errorReason: failure.errorReason,
    ...(failure.errorMessage ? { errorMessage: failure.errorMessage } : {}),
    transaction: failure.transaction ?? '',
    network: (failure.network ?? '') as SettleResponse['network'],
    ...(failure.payer ? { payer: failure.payer } : {}),
  };
}
