import { ApplicationFailure } from '@temporalio/common';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Hex } from 'viem';
import type { InvoiceStore } from '../../core/stores/invoices.ts';
import type { PaymentReceipt, ReceiptStore } from '../../core/stores/receipts.ts';
import { PaymentReason, SVM_SIMULATION_FAILED, TERMINAL_SETTLE_REASONS } from '../../core/x402/reasons.ts';
import type { SignedRefund } from '../../core/x402/refund.ts';
import { type AssetDomain, signRefund } from './signRefund.ts';

export interface PaymentsDeps {
  facilitatorUrl: string;
  receipts: ReceiptStore;
  invoices: InvoiceStore;
  /** The payee's key (X402_PAY_TO's), which signs refunds; unset = no refunds. */
  payeePrivateKey?: Hex | undefined;
  /** Per settle request to the facilitator; above its own confirmation timeout. */
  facilitatorTimeoutMs?: number;
}

export type RefundUpdate = {
  paymentId: string;
  status: 'refunded' | 'failed';
  transaction: string | null;
  reason: string | null;
};

/**
 * The payments pool's activities: settle through the facilitator, record receipts (and the
 * invoice a payment paid), sign and record refunds.
 */
export function createPaymentActivities({
  facilitatorUrl,
  receipts,
  invoices,
  payeePrivateKey,
  facilitatorTimeoutMs,
}: PaymentsDeps) {
  const facilitator = new HTTPFacilitatorClient({
    url: facilitatorUrl,
    timeoutMs: facilitatorTimeoutMs ?? 60_000,
  });
  const domains = new Map<string, AssetDomain>();
  /** The token's EIP-712 domain, as the facilitator read it from the contract. */
  const domainOf = async (network: string, asset: string): Promise<AssetDomain> => {
    const key = `${network}:${asset.toLowerCase()}`;
    const known = domains.get(key);
    if (known) return known;
    const supported = (await (await fetch(`${facilitatorUrl}/supported`)).json()) as {
      assets?: { network: string; address: string; name: string; version: string }[];
    };
    const entry = supported.assets?.find(
      (candidate) => candidate.network === network && candidate.address.toLowerCase() === asset.toLowerCase(),
    );
    if (!entry)
      throw ApplicationFailure.nonRetryable(`The facilitator does not settle ${asset}.`, 'unsupported_asset');
    domains.set(key, { name: entry.name, version: entry.version });
    return { name: entry.name, version: entry.version };
  };

  return {
    /**
     * Settles once; the facilitator is idempotent per authorization, so a retry (after a crash, a
     * timeout or `settlement_pending`) returns the first transaction instead of paying twice.
     */
    async settleWithFacilitator(input: {
      paymentPayload: PaymentPayload;
      requirements: PaymentRequirements;
    }): Promise<SettleResponse> {
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
      if (
        TERMINAL_SETTLE_REASONS.includes(reason) ||
        reason === PaymentReason.insufficientBalance ||
        reason === SVM_SIMULATION_FAILED
      ) {
        throw ApplicationFailure.nonRetryable(message, reason, result);
      }
      // settlement_pending (broadcast, not yet confirmed) and transient failures: try again later.
      throw ApplicationFailure.retryable(message, reason, result);
    },

    /** The receipt, and the invoice it paid: settled, or open again when the payment failed for good. */
    async recordReceipt(settled: PaymentReceipt): Promise<void> {
      // What the request learned meanwhile stays: when it saw the settlement (this workflow may
      // record it later), that the call answered no data, a refund.
      const known = await receipts.byPaymentId(settled.payment_id);
      const receipt: PaymentReceipt = {
        ...settled,
        settled_at:
          known?.status === 'settled' && known.transaction === settled.transaction && known.settled_at
            ? known.settled_at
            : settled.settled_at,
        empty_result: settled.empty_result || (known?.empty_result ?? false),
        refund: known?.refund ?? settled.refund,
      };
      await receipts.put(receipt);
      if (!receipt.invoice_id) return;
      if (receipt.status === 'settled') {
        await invoices.transition(receipt.invoice_id, ['paid'], 'settled', {
          transaction: receipt.transaction,
          settled_at: receipt.settled_at,
        });
      } else if (receipt.status === 'failed') {
        await invoices.transition(receipt.invoice_id, ['paid'], 'open', {
          payment_id: null,
          payer: null,
          paid_at: null,
        });
      }
    },

    async signRefund(receipt: PaymentReceipt): Promise<SignedRefund> {
      return signRefund({ payeePrivateKey, receipt, domain: await domainOf(receipt.network, receipt.asset) });
    },

    /** The refund's outcome on the receipt, and the invoice it refunds. */
    async recordRefund(update: RefundUpdate): Promise<PaymentReceipt> {
      const receipt = await receipts.byPaymentId(update.paymentId);
      if (!receipt)
        throw ApplicationFailure.nonRetryable(`No receipt ${update.paymentId}.`, 'receipt_not_found');
      const refunded: PaymentReceipt = {
        ...receipt,
        refund: {
          status: update.status,
          transaction: update.transaction,
          requested_at: receipt.refund?.requested_at ?? new Date().toISOString(),
          completed_at: new Date().toISOString(),
          error_reason: update.reason,
        },
      };
      await receipts.put(refunded);
      if (receipt.invoice_id && update.status === 'refunded') {
        await invoices.transition(receipt.invoice_id, ['settled'], 'refunded', {
          refund_transaction: update.transaction,
        });
      }
      return refunded;
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
