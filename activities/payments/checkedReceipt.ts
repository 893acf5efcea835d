import { ApplicationFailure } from '@temporalio/common';
import type { PaymentReceipt } from '../../core/stores/receipts.ts';
import { paymentDigest, paymentIdOf } from '../../core/x402/digest.ts';
import { PaymentProofError, proofOfPayload } from '../../core/x402/proof.ts';
import type { SettlePaymentInput } from '../../core/x402/settlement.ts';

/**
 * The receipt a settlement workflow records, with what it says about money taken from the
 * settled payload itself: its id is the payload's, its payer the payload's signer, its network,
 * asset, amount and payee the requirements the payload was settled against. A workflow started
 * with a receipt that says anything else (another payer, a bigger amount) records nothing.
 */
export function checkedReceipt(input: SettlePaymentInput): PaymentReceipt {
  const { paymentPayload, requirements, receipt } = input;
  const refuse = (why: string) =>
    ApplicationFailure.nonRetryable(
      `The settlement's receipt does not match its payment: ${why}.`,
      'receipt_mismatch',
    );
  let payer: string;
  try {
    payer = proofOfPayload(paymentPayload).payer;
  } catch (error) {
    if (error instanceof PaymentProofError) throw refuse('the payload carries no payment');
    throw error;
  }
  const id = paymentIdOf(paymentDigest(paymentPayload, requirements));
  if (input.paymentId !== id || receipt.payment_id !== id) throw refuse('payment id');
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (!same(receipt.payer, payer)) throw refuse('payer');
  if (receipt.network !== requirements.network || !same(receipt.asset, requirements.asset))
    throw refuse('asset');
  if (receipt.amount !== requirements.amount) throw refuse('amount');
  if (!same(receipt.pay_to, requirements.payTo)) throw refuse('payee');
  return receipt;
}
