import { type Client, type Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { VigilError } from '../../../core/errors/vigilError.ts';
import type { InvoiceStore } from '../../../core/stores/invoices.ts';
import type { PaymentReceipt, ReceiptStore } from '../../../core/stores/receipts.ts';
import { JobKind, SearchAttr } from '../../../core/temporal/searchAttributes.ts';
import { refundBlock, refundWorkflowId } from '../../../core/x402/refund.ts';
import type { refundPayment } from '../../../workflows/refundPayment.ts';
import type { StoredAnswer } from './reservations.ts';

export interface RefundsDeps {
  receipts: ReceiptStore;
  invoices: InvoiceStore;
  temporal: { client: Client; connection: Connection };
  paymentsTaskQueue: string;
  /** How long after settlement a charged empty result may be refunded. */
  windowSeconds: number;
  /** How long a request waits for the refund to land before answering 202. */
  waitMs: number;
}

/**
 * Refunds of charged empty results, by transaction hash, within the window, once: the request is
 * checked here and sent back on chain by the durable `refundPayment` workflow, which checks the
 * stored purchase again (the payee signs, the facilitator checks the payment on chain and settles;
 * the refund's nonce belongs to the payment, so it can never pay out twice). The money only ever
 * goes back to the payer, so the hash is all a request needs.
 */
export class Refunds {
  readonly #deps: RefundsDeps;

  constructor(deps: RefundsDeps) {
    this.#deps = deps;
  }

  async request(transaction: string): Promise<StoredAnswer> {
    const receipt = await this.#deps.receipts.byTransaction(transaction);
    if (!receipt)
      throw new VigilError('receipt_not_found', `No payment settled in transaction ${transaction}.`);
    // A transaction pays for one purchase; should two records ever name it, neither is refunded.
    if ((await this.#deps.receipts.countSettledByTransaction(transaction)) > 1)
      throw notAllowed(receipt, 'not_an_empty_result', 'More than one purchase names this transaction.');
    await this.#check(receipt);
    const requestedAt = new Date().toISOString();
    const { client, connection } = this.#deps.temporal;
    const id = refundWorkflowId(receipt.payment_id);
    // Recorded before the workflow starts, so its outcome is always the later write.
    await this.#deps.receipts.setRefund(receipt, {
      status: 'requested',
      transaction: null,
      requested_at: requestedAt,
      completed_at: null,
      error_reason: null,
    });
    try {
      await client.workflow.start<typeof refundPayment>('refundPayment', {
        taskQueue: this.#deps.paymentsTaskQueue,
        workflowId: id,
        args: [{ paymentId: receipt.payment_id }],
        // One refund at a time, and never a second after one succeeded; a failed one may be retried.
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        typedSearchAttributes: [
          { key: SearchAttr.JobKind, value: JobKind.paymentRefund },
          { key: SearchAttr.ToolName, value: receipt.tool },
          { key: SearchAttr.Payer, value: receipt.payer },
        ],
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError')
        throw notAllowed(receipt, 'already_requested', 'A refund of this payment was already requested.');
      await this.#deps.receipts.setRefund(receipt, receipt.refund).catch(() => undefined);
      throw new VigilError('engine_unavailable', 'The refund could not be started; retry shortly.', {
        headers: { 'retry-after': '5' },
        cause: error,
      });
    }
    try {
      const refund = await connection.withDeadline(Date.now() + this.#deps.waitMs, () =>
        client.workflow.getHandle<typeof refundPayment>(id).result(),
      );
      return { status: 200, body: { payment_id: receipt.payment_id, transaction, refund }, headers: {} };
    } catch (error) {
      if (error instanceof WorkflowFailedError) {
        const reason =
          error.cause instanceof ApplicationFailure ? (error.cause.type ?? 'unexpected') : 'unexpected';
        throw new VigilError('refund_failed', error.cause?.message ?? 'The refund failed.', {
          extensions: { reason, payment_id: receipt.payment_id },
        });
      }
      return {
        status: 202,
        body: {
          payment_id: receipt.payment_id,
          transaction,
          refund: { status: 'requested', transaction: null, requested_at: requestedAt },
          status_url: `/api/v1/x402/receipts/${transaction}`,
        },
        headers: { 'retry-after': '2' },
      };
    }
  }

  async #check(receipt: PaymentReceipt): Promise<void> {
    if (receipt.refund?.status === 'refunded')
      throw notAllowed(
        receipt,
        'already_refunded',
        `Refunded in ${receipt.refund.transaction ?? 'a transaction'}.`,
      );
    if (receipt.refund?.status === 'requested')
      throw notAllowed(receipt, 'already_requested', 'A refund of this payment is under way.');
    const invoice = receipt.invoice_id ? await this.#deps.invoices.get(receipt.invoice_id) : undefined;
    const blocked = refundBlock(receipt, invoice, this.#deps.windowSeconds, Date.now());
    if (blocked === 'not_settled')
      throw notAllowed(receipt, blocked, 'Only a settled payment can be refunded.');
    if (blocked === 'not_an_empty_result')
      throw notAllowed(
        receipt,
        blocked,
        'The purchase this payment paid for answered data; only charged empty results are refunded.',
      );
    if (blocked === 'window_passed') {
      const until = Date.parse(receipt.settled_at ?? receipt.created_at) + this.#deps.windowSeconds * 1000;
      throw notAllowed(
        receipt,
        blocked,
        `Refunds are accepted for ${this.#deps.windowSeconds / 3600} h after settlement, until ${new Date(until).toISOString()}.`,
      );
    }
  }
}

function notAllowed(receipt: PaymentReceipt, reason: string, detail: string): VigilError {
  return new VigilError('refund_not_allowed', detail, {
    extensions: { reason, payment_id: receipt.payment_id, refund: receipt.refund },
  });
}
