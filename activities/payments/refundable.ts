import { ApplicationFailure } from '@temporalio/common';
import type { InvoiceStore } from '../../core/stores/invoices.ts';
import type { PaymentReceipt, ReceiptStore } from '../../core/stores/receipts.ts';
import { refundBlock } from '../../core/x402/refund.ts';

/**
 * The stored receipt of a payment whose refund may be signed now: settled, for a purchase that
 * answered no data, asked for within the window, with a refund the API accepted (`requested`)
 * and none completed. Anything else fails for good, so a workflow started by anyone else on the
 * payments queue, or for anything but such a purchase, moves nothing.
 */
export async function refundableReceipt(
  stores: { receipts: ReceiptStore; invoices: InvoiceStore; refundWindowSeconds: number },
  paymentId: string,
): Promise<PaymentReceipt> {
  const receipt = await stores.receipts.byPaymentId(paymentId);
  if (!receipt)
    throw ApplicationFailure.nonRetryable(`No payment ${paymentId} is stored.`, 'receipt_not_found');
  if (receipt.refund?.status !== 'requested')
    throw ApplicationFailure.nonRetryable(
      receipt.refund?.status === 'refunded'
        ? 'Already refunded.'
        : 'No refund of this payment was requested.',
      'refund_not_requested',
    );
  const invoice = receipt.invoice_id ? await stores.invoices.get(receipt.invoice_id) : undefined;
  const blocked = refundBlock(
    receipt,
    invoice,
    stores.refundWindowSeconds,
    Date.parse(receipt.refund.requested_at),
  );
  if (blocked) throw ApplicationFailure.nonRetryable(`The payment is not refundable: ${blocked}.`, blocked);
  return receipt;
}
