import { type Client, type Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { HTTPFacilitatorClient } from '@x402/core/http';
import { type SettleResponse, SettleError, type VerifyResponse, VerifyError } from '@x402/core/types';
import { VigilError } from '../../../core/errors/vigilError.ts';
import type { PaymentReceipt, ReceiptStore } from '../../../core/stores/receipts.ts';
import { JobKind, SearchAttr } from '../../../core/temporal/searchAttributes.ts';
import type { StepTimings } from '../../plugins/stepTimings.ts';
import type { AnyProof } from '../../../core/x402/proof.ts';
import { PaymentReason } from '../../../core/x402/reasons.ts';
import { type SettlePaymentInput, settlementWorkflowId } from '../../../core/x402/settlement.ts';
import type { settlePayment } from '../../../workflows/settlePayment.ts';
import type { PaymentRequirements } from '@x402/core/types';

/** However short the configured wait, a resumed request asks the workflow this long. */
const MIN_RESUME_WAIT_MS = 1_000;

export type SettleOutcome =
  | { kind: 'settled'; transaction: string }
  /** Not final yet: the workflow goes on. `transaction` once the facilitator has broadcast it. */
  | { kind: 'pending'; transaction: string | null }
  | { kind: 'failed'; reason: string; message: string };

export interface SettlementsDeps {
  facilitator: HTTPFacilitatorClient;
  temporal: { client: Client; connection: Connection };
  paymentsTaskQueue: string;
  receipts: ReceiptStore;
  /** How long a request waits for its settlement before answering with a pending receipt. */
  settleWaitMs: number;
}

/**
 * Verifies proofs and settles payments for the gateway. Settlement is owned by the durable
 * `settlePayment` workflow (payments queue, retries, receipt record); once it is started, the
 * request asks the facilitator for the same settlement directly. The facilitator answers every
 * request for one signed payload with the same answer (and its authorization with at most one
 * transaction), so this costs no second payment, and a success comes back without waiting for a
 * worker to pick the workflow up. Anything other than a success is left to the workflow's verdict,
 * so the two can never disagree.
 */
export class Settlements {
  readonly #deps: SettlementsDeps;

  constructor(deps: SettlementsDeps) {
    this.#deps = deps;
  }

  /** The facilitator's verdict on a proof; a non-2xx verdict is still a verdict, anything else 503. */
  async verify(proof: AnyProof, requirements: PaymentRequirements): Promise<VerifyResponse> {
    try {
      return await this.#deps.facilitator.verify(proof.payload, requirements);
    } catch (error) {
      if (error instanceof VerifyError) {
        return {
          isValid: false,
          invalidReason: error.invalidReason ?? PaymentReason.unexpectedVerify,
          invalidMessage: error.invalidMessage ?? error.invalidReason ?? 'refused by the facilitator',
        };
      }
      throw new VigilError(
        'facilitator_unavailable',
        'The payment facilitator did not answer; nothing was charged.',
        { headers: { 'retry-after': '5' }, cause: error },
      );
    }
  }

  async settle(
    input: SettlePaymentInput,
    searchAttributes: { tool: string },
    timings: StepTimings,
  ): Promise<SettleOutcome> {
    const deadline = Date.now() + this.#deps.settleWaitMs;
    const { client } = this.#deps.temporal;
    const id = settlementWorkflowId(input.paymentId);
    try {
      await timings.time('settle_start', () =>
        client.workflow.start<typeof settlePayment>('settlePayment', {
          taskQueue: this.#deps.paymentsTaskQueue,
          workflowId: id,
          args: [input],
          // One settlement per signed payload: a concurrent start joins, a settled one is never redone;
          // one that failed (nothing moved) may run again when the payer presents the payload again.
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
          typedSearchAttributes: [
            { key: SearchAttr.JobKind, value: JobKind.paymentSettlement },
            { key: SearchAttr.ToolName, value: searchAttributes.tool },
            { key: SearchAttr.Payer, value: input.receipt.payer },
          ],
        }),
      );
    } catch (error) {
      if (!(error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError')) {
        // Settlement could not even be scheduled: nothing will charge the payer, so nothing is
        // delivered either; the authorization stays theirs.
        return {
          kind: 'failed',
          reason: PaymentReason.unexpectedSettle,
          message: 'the settlement engine is unreachable.',
        };
      }
    }
    const direct = await timings.time('settle_direct', () => this.#askFacilitator(input, deadline));
    let outcome: SettleOutcome;
    if (direct?.success) {
      outcome = { kind: 'settled', transaction: direct.transaction };
    } else {
      outcome = await timings.time('settle_wait', () => this.#awaitWorkflow(id, deadline));
      if (outcome.kind === 'pending' && direct?.transaction)
        outcome = { kind: 'pending', transaction: direct.transaction };
    }
    if (outcome.kind !== 'failed') {
      // The status URL answers at once; the workflow's record replaces this copy when it lands.
      await this.#deps.receipts
        .putHotIfAbsent({
          ...input.receipt,
          status: outcome.kind,
          transaction: outcome.transaction,
          settled_at: outcome.kind === 'settled' ? new Date().toISOString() : null,
        })
        .catch(() => undefined);
    }
    return outcome;
  }

  /**
   * A settlement started earlier (its payer sent the same proof again): its verdict, waiting for
   * it as long as a request would.
   */
  async outcome(paymentId: string): Promise<SettleOutcome> {
    // Recorded already (by the workflow, or by a request that saw the facilitator settle it).
    const receipt = await this.#deps.receipts.byPaymentId(paymentId).catch(() => undefined);
    if (receipt?.status === 'settled' && receipt.transaction)
      return { kind: 'settled', transaction: receipt.transaction };
    if (receipt?.status === 'failed')
      return {
        kind: 'failed',
        reason: receipt.error_reason ?? PaymentReason.unexpectedSettle,
        message: 'the settlement failed.',
      };
    const waitMs = Math.max(this.#deps.settleWaitMs, MIN_RESUME_WAIT_MS);
    return this.#awaitWorkflow(settlementWorkflowId(paymentId), Date.now() + waitMs);
  }

  /** The facilitator's answer within the deadline, or undefined when it had none by then. */
  async #askFacilitator(input: SettlePaymentInput, deadline: number): Promise<SettleResponse | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
    });
    const answer = this.#deps.facilitator
      .settle(input.paymentPayload, input.requirements)
      .catch((error: unknown): SettleResponse | undefined =>
        error instanceof SettleError
          ? {
              success: false,
              transaction: error.transaction,
              network: error.network,
              ...(error.errorReason ? { errorReason: error.errorReason } : {}),
            }
          : undefined,
      );
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #awaitWorkflow(id: string, deadline: number): Promise<SettleOutcome> {
    const { client, connection } = this.#deps.temporal;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { kind: 'pending', transaction: null };
    try {
      const receipt = await connection.withDeadline(deadline, () =>
        client.workflow.getHandle<typeof settlePayment>(id).result(),
      );
      return receipt.transaction
        ? { kind: 'settled', transaction: receipt.transaction }
        : { kind: 'pending', transaction: null };
    } catch (error) {
      if (error instanceof WorkflowFailedError) {
        const cause = error.cause;
        const reason =
          cause instanceof ApplicationFailure
            ? (cause.type ?? PaymentReason.unexpectedSettle)
            : PaymentReason.unexpectedSettle;
        return { kind: 'failed', reason, message: cause?.message ?? 'settlement failed.' };
      }
      // The deadline passed (or Temporal did not answer): the workflow finishes it.
      return { kind: 'pending', transaction: null };
    }
  }
}

/** The receipt header of a paid answer: the settlement, or `settlement_pending` while it confirms. */
export function settleResponseOf(
  outcome: Exclude<SettleOutcome, { kind: 'failed' }>,
  receipt: PaymentReceipt,
): SettleResponse {
  const network = receipt.network as SettleResponse['network'];
  return outcome.kind === 'settled'
    ? { success: true, transaction: outcome.transaction, network, payer: receipt.payer }
    : {
        success: false,
        errorReason: PaymentReason.settlementPending,
        errorMessage: 'Settlement is still confirming; the receipt is at payment.status_url.',
        transaction: outcome.transaction ?? '',
        network,
        payer: receipt.payer,
      };
}
