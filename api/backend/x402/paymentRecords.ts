import { encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import type { PaymentReceipt } from '../../../core/stores/receipts.ts';
import { formatAtomic } from '../../../core/x402/amounts.ts';
import type { AnyProof } from '../../../core/x402/proof.ts';
import { type SettleOutcome, settleResponseOf } from './settlements.ts';

export { paymentIdOf } from '../../../core/x402/digest.ts';

export function newReceipt(parameters: {
  paymentId: string;
  requirements: PaymentRequirements;
  proof: Pick<AnyProof, 'payer'>;
  amountUsd: number;
  tool: string;
  requestId: string;
  apiKeyId: string | null;
  invoiceId?: string;
}): PaymentReceipt {
  const { requirements, proof } = parameters;
  return {
    payment_id: parameters.paymentId,
    status: 'pending',
    transaction: null,
    network: requirements.network,
    asset: requirements.asset,
    amount: requirements.amount,
    amount_usd: parameters.amountUsd,
    payer: proof.payer,
    pay_to: requirements.payTo,
    tool: parameters.tool,
    request_id: parameters.requestId,
    api_key_id: parameters.apiKeyId,
    created_at: new Date().toISOString(),
    settled_at: null,
    error_reason: null,
    empty_result: false,
    invoice_id: parameters.invoiceId ?? null,
    refund: null,
  };
}

/** The `payment` object of a paid answer. */
export function paymentSummary(
  receipt: PaymentReceipt,
  outcome: Exclude<SettleOutcome, { kind: 'failed' }>,
  decimals: number,
) {
  return {
    payment_id: receipt.payment_id,
    status: outcome.kind,
    transaction: outcome.transaction,
    network: receipt.network,
    asset: receipt.asset,
    amount: receipt.amount,
    amount_display: formatAtomic(BigInt(receipt.amount), decimals),
    payer: receipt.payer,
    status_url: `/api/v1/x402/payments/${receipt.payment_id}`,
  };
}

/** The receipt headers of a paid answer: x402 v2's PAYMENT-RESPONSE and the spec's X-PAYMENT-RESPONSE. */
export function receiptHeaders(
  receipt: PaymentReceipt,
  outcome: Exclude<SettleOutcome, { kind: 'failed' }>,
): Record<string, string> {
  const header = encodePaymentResponseHeader(settleResponseOf(outcome, receipt));
  return { 'payment-response': header, 'x-payment-response': header };
}
