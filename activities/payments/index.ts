import { ApplicationFailure } from '@temporalio/common';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Hex } from 'viem';
import type { InvoiceStore } from '../../core/stores/invoices.ts';
import type { PaymentReceipt, ReceiptStore } from '../../core/stores/receipts.ts';
import {
  type FacilitatorAccess,
  facilitatorClient,
  settleRefund,
} from '../../core/x402/facilitatorClient.ts';
import { PaymentReason, SVM_SIMULATION_FAILED, TERMINAL_SETTLE_REASONS } from '../../core/x402/reasons.ts';
import type { SignedRefund } from '../../core/x402/refund.ts';
import type { SettlePaymentInput } from '../../core/x402/settlement.ts';
import { checkedReceipt } from './checkedReceipt.ts';
import { type AssetDomain, signRefund } from './signRefund.ts';
import { refundableReceipt } from './refundable.ts';

export interface PaymentsDeps {
  facilitator: FacilitatorAccess;
  receipts: ReceiptStore;
  invoices: InvoiceStore;
  /** The payee's key (X402_PAY_TO's), which signs refunds; unset = no refunds. */
  payeePrivateKey?: Hex | undefined;
  /** How long after settlement a refund may be asked for (as the API allows it). */
  refundWindowSeconds: number;
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
 * invoice a payment paid), sign and record refunds. Nothing a workflow's input says is taken on
 * trust: a receipt is recorded only as the settled payload itself says (payer, amount, payee), and
 * a refund is signed only for a stored, settled, refundable purchase, to its payer.
 */
export function createPaymentActivities({
  facilitator: access,
  receipts,
  invoices,
  payeePrivateKey,
  refundWindowSeconds,
  facilitatorTimeoutMs,
}: PaymentsDeps) {
  const timeoutMs = facilitatorTimeoutMs ?? 60_000;
  const facilitator = facilitatorClient(access, timeoutMs);
  const domains = new Map<string, AssetDomain>();
  /** The token's EIP-712 domain, as the facilitator read it from the contract. */
  const domainOf = async (network: string, asset: string): Promise<AssetDomain> => {
    const key = `${network}:${asset.toLowerCase()}`;
    const known = domains.get(key);
    if (known) return known;
    const supported = (await (await fetch(`${access.url}/supported`)).json()) as {
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
     * Settles once; the facilitator is idempotent per signed payload, so a retry (after a crash, a
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
      return outcomeOf(result);
    },

    /**
     * The settlement's receipt, and the invoice it paid: settled, or open again when the payment
     * failed for good. The receipt's parties and amount are the payload's own.
     */
    async recordSettlement(settlement: {
      input: SettlePaymentInput;
      outcome: { status: 'settled'; transaction: string } | { status: 'failed'; reason: string };
    }): Promise<PaymentReceipt> {
      const checked = checkedReceipt(settlement.input);
      const settledAt = new Date().toISOString();
      // What the request learned meanwhile stays: when it saw the settlement (this workflow may
      // record it later), that the call answered no data, a refund.
      const known = await receipts.byPaymentId(checked.payment_id);
      const receipt: PaymentReceipt =
        settlement.outcome.status === 'settled'
          ? {
              ...checked,
              status: 'settled',
              transaction: settlement.outcome.transaction,
              settled_at:
                known?.status === 'settled' &&
                known.transaction === settlement.outcome.transaction &&
                known.settled_at
                  ? known.settled_at
                  : settledAt,
              error_reason: null,
              empty_result: known?.empty_result ?? false,
              refund: known?.refund ?? null,
            }
          : { ...checked, status: 'failed', error_reason: settlement.outcome.reason };
      // Only the settlement's own fields: a refund requested meanwhile (the request may answer
      // before this is recorded) stays.
      const recorded = await receipts.recordSettlement(receipt);
      if (!receipt.invoice_id) return recorded;
      // Only the invoice this very payment was accepted for.
      const invoice = await invoices.get(receipt.invoice_id);
      if (invoice?.payment_id !== receipt.payment_id) return recorded;
      if (receipt.status === 'settled') {
        await invoices.transition(receipt.invoice_id, ['paid'], 'settled', {
          transaction: receipt.transaction,
          settled_at: receipt.settled_at,
        });
      } else {
        await invoices.transition(receipt.invoice_id, ['paid'], 'open', {
          payment_id: null,
          payer: null,
          paid_at: null,
        });
      }
      return recorded;
    },

    /** Signs the refund of a stored, settled, refundable purchase whose refund the API accepted. */
    async signRefund(paymentId: string): Promise<SignedRefund> {
      const receipt = await refundableReceipt({ receipts, invoices, refundWindowSeconds }, paymentId);
      return signRefund({ payeePrivateKey, receipt, domain: await domainOf(receipt.network, receipt.asset) });
    },

    /** Settles a signed refund through the facilitator's /refund, which checks it against the chain. */
    async settleRefund(refund: SignedRefund): Promise<SettleResponse> {
      let result: SettleResponse;
      try {
        result = await settleRefund(access, refund, timeoutMs);
      } catch (error) {
        throw ApplicationFailure.retryable(
          `The facilitator did not answer: ${error instanceof Error ? error.message : String(error)}`,
          'facilitator_unreachable',
        );
      }
      return outcomeOf(result);
    },

    /** The refund's outcome on the receipt, and the invoice it refunds. */
    async recordRefund(update: RefundUpdate): Promise<PaymentReceipt> {
      const receipt = await receipts.byPaymentId(update.paymentId);
      if (!receipt)
        throw ApplicationFailure.nonRetryable(`No receipt ${update.paymentId}.`, 'receipt_not_found');
      const refunded = await receipts.setRefund(receipt, {
        status: update.status,
        transaction: update.transaction,
        requested_at: receipt.refund?.requested_at ?? new Date().toISOString(),
        completed_at: new Date().toISOString(),
        error_reason: update.reason,
      });
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

/** A success, or the failure as an ApplicationFailure: final for a refusal, retried otherwise. */
function outcomeOf(result: SettleResponse): SettleResponse {
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
}

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
