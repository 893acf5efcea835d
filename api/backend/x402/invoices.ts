import { randomBytes } from 'node:crypto';
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentRequirements } from '@x402/core/types';
import { findTool, isPaid, type ToolDefinition } from '../../../core/catalog/index.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import type { Invoice, InvoiceResult, InvoiceStore } from '../../../core/stores/invoices.ts';
import type { ReceiptStore } from '../../../core/stores/receipts.ts';
import { StepTimings } from '../../plugins/stepTimings.ts';
import {
  authorizationKey,
  type DecodedProof,
  PaymentProofError,
  readPaymentProof,
} from '../../../core/x402/proof.ts';
import { PaymentReason } from '../../../core/x402/reasons.ts';
import type { PaymentOptions } from './paymentOptions.ts';
import { newReceipt, paymentIdOf, paymentSummary, receiptHeaders } from './paymentRecords.ts';
import { paymentRequiredProblem } from './quotes.ts';
import {
  authorizationReservation,
  type PaymentReservations,
  type Reservation,
  reservationTtlMs,
  SETTLING_KEEP_MS,
  type StoredAnswer,
} from './reservations.ts';
import { paymentDigest } from '../../../core/x402/digest.ts';
import type { SettleOutcome, Settlements } from './settlements.ts';
import type { ToolRunner } from './toolRunner.ts';
import { type CreateInvoice, fieldError } from './invoiceRequest.ts';
import { validateToolInput } from './validate.ts';

/** Smallest invoice: the cheapest price tier's floor. */
const MIN_INVOICE_USD = 0.01;

export interface InvoicesDeps {
  store: InvoiceStore;
  receipts: ReceiptStore;
  options: PaymentOptions;
  reservations: PaymentReservations;
  settlements: Settlements;
  runner: ToolRunner;
  resourceServer: x402ResourceServer;
  publicUrl: string;
  ttlSeconds: number;
  refundWindowSeconds: number;
}

interface PayCall {
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  apiKeyId: string | null;
  /** The payer's caller id: a job the invoice's tool starts is theirs to read and cancel. */
  holder: string;
}

/**
 * Invoices: a quote with an id, an expiry and a state. Paying one settles first (through the same
 * durable settlement as a paid tool call) and then runs its tool, so the payer is charged even if
 * the tool then finds nothing: that charged empty result is what a refund sends back.
 */
export class Invoices {
  readonly #deps: InvoicesDeps;

  constructor(deps: InvoicesDeps) {
    this.#deps = deps;
  }

  async create(request: CreateInvoice, options: { sandbox?: PaymentOptions } = {}): Promise<Invoice> {
    const quoting = options.sandbox ?? this.#deps.options;
    let tool: ToolDefinition | undefined;
    let input: unknown = null;
    let usd: number;
    if (request.tool !== undefined) {
      tool = findTool(request.tool);
      if (!tool) throw new VigilError('unknown_tool', `No tool is named "${request.tool.slice(0, 64)}".`);
      if (!isPaid(tool))
        throw fieldError('tool', `${tool.name} is free: call it directly, no invoice is needed.`);
      input = validateToolInput(tool, request.input, ['body', 'input']);
      usd = tool.priceUsd;
    } else {
      usd = request.amount_usd ?? 0;
      if (usd < MIN_INVOICE_USD)
        throw fieldError('amount_usd', `The smallest invoice is ${MIN_INVOICE_USD} USD.`);
    }
    let requirements: PaymentRequirements;
    try {
      requirements = await quoting.requirementsForUsd(usd);
    } catch (error) {
      if (error instanceof Error && /micro-dollars/.test(error.message))
        throw fieldError('amount_usd', 'Amounts are whole micro-dollars (at most 6 decimals).');
      throw error;
    }
    const limit = await quoting.maxAmount();
    if (limit !== undefined && BigInt(requirements.amount) > limit)
      throw fieldError('amount_usd', `The facilitator settles at most ${limit} atomic units per payment.`);
    const now = Date.now();
    const id = `inv_${randomBytes(12).toString('hex')}`;
    const invoice: Invoice = {
      invoice_id: id,
      state: 'open',
      sandbox: options.sandbox !== undefined,
      description: request.description ?? (tool ? `One call of ${tool.name}` : 'Payment'),
      tool: tool?.name ?? null,
      input,
      amount_usd: usd,
      network: requirements.network,
      asset: requirements.asset,
      amount: requirements.amount,
      pay_to: requirements.payTo,
      accepts: [requirements],
      pay_url: `/api/v1/x402/pay/${id}`,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.#deps.ttlSeconds * 1000).toISOString(),
      paid_at: null,
      settled_at: null,
      payment_id: null,
      payer: null,
      transaction: null,
      result: null,
      refund_transaction: null,
    };
    await this.#deps.store.create(invoice);
    return invoice;
  }

  async get(id: string): Promise<Invoice> {
    const invoice = await this.#deps.store.get(id);
    if (!invoice) throw new VigilError('invoice_not_found', `No invoice ${id.slice(0, 64)}.`);
    return invoice;
  }

  async pay(id: string, call: PayCall): Promise<StoredAnswer> {
    const invoice = await this.get(id);
    if (invoice.sandbox)
      throw notPayable(invoice, 'A sandbox invoice is verified (/x402/sandbox/verify), never paid.');
    const requirements = invoice.accepts[0] as PaymentRequirements | undefined;
    if (!requirements) throw new Error(`invoice ${id} has no quote`);
    let proof: DecodedProof | undefined;
    try {
      proof = readPaymentProof(call.headers);
    } catch (error) {
      if (error instanceof PaymentProofError) throw await this.#quote(invoice, error.reason, error.message);
      throw error;
    }
    if (!proof) {
      if (invoice.state !== 'open') throw notPayable(invoice, `The invoice is ${invoice.state}.`);
      throw await this.#quote(
        invoice,
        PaymentReason.missingPayment,
        'Pay with an x402 proof (X-PAYMENT or PAYMENT-SIGNATURE) for exactly the quoted amount.',
      );
    }
    const { authorization } = proof;
    const digest = paymentDigest(proof.payload, requirements);
    const paymentId = paymentIdOf(digest);
    const purchase = `invoice:${id}`;
    // One purchase per authorization, whatever it pays for (tool calls and other invoices alike),
    // and one payment per invoice.
    const held: PaymentHold = {
      digest,
      purchase,
      claim: purchase,
      holder: call.holder,
      authorization: authorizationReservation(
        authorizationKey(requirements.network, requirements.asset, authorization.from, authorization.nonce),
      ),
    };
    const holder = await this.#deps.reservations.peek(held.authorization);
    if (holder && (holder.digest !== digest || holder.purchase !== purchase))
      throw await this.#usedElsewhere(invoice, holder.digest === digest);
    const claimed = await this.#deps.reservations.peek(held.claim);
    if (claimed) return this.#resume(invoice, claimed, held);
    if (invoice.state !== 'open') throw notPayable(invoice, `The invoice is ${invoice.state}.`);

    const verified = await this.#deps.settlements.verify(proof, requirements);
    if (!verified.isValid) {
      const reason = verified.invalidReason ?? PaymentReason.unexpectedVerify;
      throw await this.#quote(
        invoice,
        reason,
        `The payment was refused: ${verified.invalidMessage ?? reason}.`,
      );
    }
    const reservation: Reservation = { state: 'settling', digest, purchase, payment_id: paymentId };
    const ttlMs = Math.max(reservationTtlMs(authorization.validBefore), SETTLING_KEEP_MS);
    const reserved = await this.#deps.reservations.reserve(held.authorization, reservation, ttlMs);
    if (!reserved.reserved) {
      if (reserved.holder.digest !== digest || reserved.holder.purchase !== purchase)
        throw await this.#usedElsewhere(invoice, reserved.holder.digest === digest);
      const current = await this.#deps.reservations.peek(held.claim);
      if (current) return this.#resume(invoice, current, held);
      throw inProgress(invoice.invoice_id, invoice.state);
    }
    const won = await this.#deps.reservations.reserve(held.claim, reservation, ttlMs);
    if (!won.reserved) {
      await this.#deps.reservations.release(held.authorization, digest).catch(() => undefined);
      return this.#resume(invoice, won.holder, held);
    }
    const paid = await this.#deps.store.transition(id, ['open'], 'paid', {
      payment_id: paymentId,
      payer: authorization.from,
      paid_at: new Date().toISOString(),
    });
    if (!paid.moved) {
      await this.#releaseHold(held);
      throw notPayable(paid.invoice ?? invoice, `The invoice is ${paid.invoice?.state ?? 'gone'}.`);
    }
    const receipt = newReceipt({
      paymentId,
      requirements,
      proof,
      amountUsd: invoice.amount_usd,
      tool: invoice.tool ?? 'invoice',
      requestId: call.requestId,
      apiKeyId: call.apiKeyId,
      invoiceId: id,
    });
    const outcome = await this.#deps.settlements.settle(
      { paymentId, paymentPayload: proof.payload, requirements, receipt },
      { tool: invoice.tool ?? 'invoice' },
      new StepTimings(),
    );
    if (outcome.kind === 'failed') {
      await this.#deps.store.transition(id, ['paid'], 'open', {
        payment_id: null,
        payer: null,
        paid_at: null,
      });
      await this.#releaseHold(held);
      throw await this.#quote(
        invoice,
        outcome.reason,
        `The payment could not be settled: ${outcome.message}`,
      );
    }
    if (outcome.kind === 'pending') return this.#pendingAnswer(paid.invoice, outcome, receipt);
    const settled = await this.#deps.store.transition(id, ['paid'], 'settled', {
      transaction: outcome.transaction,
      settled_at: new Date().toISOString(),
    });
    return this.#deliver(settled.invoice ?? paid.invoice, held, outcome);
  }

  /** The same proof again: its answer, once the settlement it started is final. */
  async #resume(invoice: Invoice, holder: Reservation, held: PaymentHold): Promise<StoredAnswer> {
    if (holder.digest !== held.digest)
      throw notPayable(invoice, 'The invoice is being paid, or was paid, with another authorization.');
    if (holder.answer) return holder.answer;
    const current = await this.get(invoice.invoice_id);
    const receipt = current.payment_id
      ? await this.#deps.receipts.byPaymentId(current.payment_id)
      : await this.#deps.receipts.byPaymentId(holder.payment_id);
    if (current.state === 'paid' && receipt) {
      return this.#pendingAnswer(current, { kind: 'pending', transaction: receipt.transaction }, receipt);
    }
    if ((current.state === 'settled' || current.state === 'refunded') && current.transaction) {
      return this.#deliver(current, held, { kind: 'settled', transaction: current.transaction });
    }
    if (current.state === 'open' && receipt?.status === 'failed') {
      // Its settlement failed for good (the workflow reopened the invoice): nothing was charged.
      await this.#releaseHold(held);
      throw await this.#quote(
        current,
        receipt.error_reason ?? PaymentReason.unexpectedSettle,
        'The payment could not be settled; the invoice is open again.',
      );
    }
    throw inProgress(invoice.invoice_id, current.state);
  }

  async #usedElsewhere(invoice: Invoice, sameProof: boolean): Promise<VigilError> {
    return this.#quote(
      invoice,
      PaymentReason.proofUsedElsewhere,
      sameProof
        ? 'This payment proof already paid for another request.'
        : 'This payment authorization (its nonce) is already used by another payment.',
    );
  }

  async #releaseHold(held: PaymentHold): Promise<void> {
    await Promise.all([
      this.#deps.reservations.release(held.claim, held.digest).catch(() => undefined),
      this.#deps.reservations.release(held.authorization, held.digest).catch(() => undefined),
    ]);
  }

  /** Runs the invoice's tool (once, by whoever holds its run) and answers with the result. */
  async #deliver(
    invoice: Invoice,
    held: PaymentHold,
    outcome: Extract<SettleOutcome, { kind: 'settled' }>,
  ): Promise<StoredAnswer> {
    let current = invoice;
    const tool = current.tool ? findTool(current.tool) : undefined;
    if (tool && !current.result) {
      const run = `invoice-run:${current.invoice_id}`;
      const won = await this.#deps.reservations.reserve(
        run,
        {
          state: 'running',
          digest: held.digest,
          purchase: held.purchase,
          payment_id: current.payment_id ?? '',
        },
        120_000,
      );
      if (!won.reserved) {
        throw inProgress(current.invoice_id, current.state);
      }
      current =
        (await this.#deps.store.update(current.invoice_id, {
          result: await this.#run(tool, current, held.holder),
        })) ?? current;
      if (current.result?.data === null && current.payment_id)
        await this.#deps.receipts.markEmptyResult(current.payment_id);
    }
    const receipt = current.payment_id
      ? await this.#deps.receipts.byPaymentId(current.payment_id)
      : undefined;
    const decimals = await this.#decimals();
    const answer: StoredAnswer = {
      status: 200,
      body: {
        invoice: current,
        tool: current.tool,
        data: current.result?.data ?? null,
        ...(current.result && current.result.data === null
          ? {
              reason: current.result.reason,
              sources_tried: current.result.sources_tried,
              charged: true,
              refund: this.#refundLink(current),
            }
          : {}),
        payment: receipt ? paymentSummary(receipt, outcome, decimals) : null,
      },
      headers: receipt ? receiptHeaders(receipt, outcome) : {},
    };
    const done: Reservation = {
      state: 'done',
      digest: held.digest,
      purchase: held.purchase,
      payment_id: current.payment_id ?? '',
      answer,
    };
    await Promise.all([
      this.#deps.reservations.update(held.claim, done).catch(() => undefined),
      this.#deps.reservations.update(held.authorization, done).catch(() => undefined),
    ]);
    return answer;
  }

  /** The tool's answer after payment; a failure is recorded as a charged result without data. */
  async #run(tool: ToolDefinition, invoice: Invoice, holder: string): Promise<InvoiceResult> {
    const completed_at = new Date().toISOString();
    try {
      const outcome = await this.#deps.runner.run(tool, invoice.input, { holder });
      return outcome.kind === 'data'
        ? { data: outcome.data, reason: null, detail: null, sources_tried: [], completed_at }
        : { data: null, reason: 'no_data', detail: null, sources_tried: outcome.sourcesTried, completed_at };
    } catch (error) {
      const detail = error instanceof VigilError ? error.message : 'The tool failed.';
      return { data: null, reason: 'tool_failed', detail, sources_tried: [tool.sources], completed_at };
    }
  }

  async #pendingAnswer(
    invoice: Invoice,
    outcome: Extract<SettleOutcome, { kind: 'pending' }>,
    receipt: Parameters<typeof paymentSummary>[0],
  ): Promise<StoredAnswer> {
    const decimals = await this.#decimals();
    return {
      status: 202,
      body: {
        invoice,
        tool: invoice.tool,
        data: null,
        payment: paymentSummary(receipt, outcome, decimals),
        status_url: `/api/v1/x402/invoice/${invoice.invoice_id}`,
        detail:
          'The payment is confirming on chain. Send the same proof to the pay URL again for the result once it has settled.',
      },
      headers: { ...receiptHeaders(receipt, outcome), 'retry-after': '2' },
    };
  }

  /** The quoted token's decimals, for amounts shown to people (USDC's 6 if the facilitator is away). */
  async #decimals(): Promise<number> {
    return (await this.#deps.options.asset().catch(() => ({ decimals: 6 }))).decimals;
  }

  #refundLink(invoice: Invoice) {
    const settled = invoice.settled_at ? Date.parse(invoice.settled_at) : Date.now();
    return {
      url: invoice.transaction ? `/api/v1/x402/refund/${invoice.transaction}` : null,
      until: new Date(settled + this.#deps.refundWindowSeconds * 1000).toISOString(),
    };
  }

  async #quote(invoice: Invoice, reason: string, detail: string): Promise<VigilError> {
    const requirements = invoice.accepts[0] as PaymentRequirements;
    return paymentRequiredProblem(this.#deps.resourceServer, {
      requirements,
      resource: {
        url: `${this.#deps.publicUrl}${invoice.pay_url}`,
        description: invoice.description,
        mimeType: 'application/json',
      },
      reason,
      detail,
      extensions: { invoice_id: invoice.invoice_id, expires_at: invoice.expires_at },
    });
  }
}

/** Who holds an invoice payment: the payload, what it buys, and its two reservations. */
interface PaymentHold {
  digest: string;
  purchase: string;
  /** The authorization's reservation (one purchase per authorization). */
  authorization: string;
  /** The invoice's (one payment per invoice). */
  claim: string;
  /** Who a job the tool starts belongs to: the payer. */
  holder: string;
}

function inProgress(invoiceId: string, state: string): VigilError {
  return new VigilError(
    'payment_in_progress',
    'This invoice’s payment is still being processed; retry shortly.',
    {
      headers: { 'retry-after': '1' },
      extensions: { invoice_id: invoiceId, state },
    },
  );
}

function notPayable(invoice: Invoice, detail: string): VigilError {
  return new VigilError('invoice_not_payable', detail, {
    extensions: { invoice_id: invoice.invoice_id, state: invoice.state },
  });
}
