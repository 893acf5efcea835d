import { createHash } from 'node:crypto';
import { isGrpcDeadlineError, WorkflowFailedError, type Client, type Connection } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  type HTTPFacilitatorClient,
} from '@x402/core/http';
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { findTool, isPaid, type ToolDefinition } from '../../../core/catalog/index.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import type { PaymentReceipt } from '../../../core/stores/receipts.ts';
import { JobKind, SearchAttr } from '../../../core/temporal/searchAttributes.ts';
import { StepTimings } from '../../../core/timing/stepTimings.ts';
import { formatAtomic } from '../../../core/x402/amounts.ts';
import {
  authorizationKey,
  type DecodedProof,
  PaymentProofError,
  readPaymentProof,
} from '../../../core/x402/proof.ts';
import { PaymentReason } from '../../../core/x402/reasons.ts';
import { type SettlePaymentInput, settlementWorkflowId } from '../../../core/x402/settlement.ts';
import type { settlePayment } from '../../../workflows/settlePayment.ts';
import type { PaymentOptions } from './paymentOptions.ts';
import type { PaymentReservations, Reservation, StoredAnswer } from './reservations.ts';
import type { ToolOutcome, ToolRunner } from './toolRunner.ts';
import { type TrialGrant, type TrialIdentity, trialIdentityOf, type Trials } from './trials.ts';

export interface GatewayDeps {
  options: PaymentOptions;
  trials: Trials;
  reservations: PaymentReservations;
  runner: ToolRunner;
  facilitator: HTTPFacilitatorClient;
  resourceServer: x402ResourceServer;
  temporal: { client: Client; connection: Connection };
  paymentsTaskQueue: string;
  settleWaitMs: number;
  publicUrl: string;
}

export interface ToolCall {
  toolName: string;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  apiKeyId: string | null;
}

/** What the route sends: a status, a JSON body and headers. Problems are thrown as VigilErrors. */
export type GatewayAnswer = StoredAnswer;

/** Reservations outlive the authorization they hold by this much. */
const RESERVATION_GRACE_MS = 10 * 60_000;

/**
 * One paid or trial tool call, framework-free: validate → trial or payment → run → settle →
 * answer. A proof runs the tool at most once (its authorization is reserved first), is charged
 * only when the tool returned data, and a slow settlement answers with a pending receipt rather
 * than a new quote.
 */
export class X402Gateway {
  readonly #deps: GatewayDeps;

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
  }

  async call(call: ToolCall): Promise<GatewayAnswer> {
    const tool = findTool(call.toolName);
    if (!tool) {
      throw new VigilError('unknown_tool', `No tool is named "${call.toolName.slice(0, 64)}".`, {
        extensions: { catalog: '/api/v1/x402-tools/discovery' },
      });
    }
    const input = validate(tool, call.body);
    if (!isPaid(tool)) return this.#answer(tool, await this.#deps.runner.run(tool, input), null, null);

    let proof: DecodedProof | undefined;
    try {
      proof = readPaymentProof(call.headers);
    } catch (error) {
      if (error instanceof PaymentProofError)
        throw await this.paymentRequired(tool, error.reason, error.message);
      throw error;
    }
    if (proof) {
      const timings = new StepTimings();
      const answer = await this.#paid(tool, input, proof, call, timings);
      answer.headers['server-timing'] = timings.header();
      return answer;
    }

    const identity = trialIdentityOf(call.headers);
    if (!identity) {
      throw await this.paymentRequired(
        tool,
        PaymentReason.missingPayment,
        'Pay with an x402 proof (X-PAYMENT or PAYMENT-SIGNATURE), or send X-Client-ID for the free trial.',
      );
    }
    const grant = await this.#deps.trials.consume(identity, tool);
    if (!grant.granted) {
      throw await this.paymentRequired(
        tool,
        PaymentReason.missingPayment,
        `The free trial of ${tool.name} is used up (${grant.limit} per ${this.#deps.trials.windowSeconds} s); pay with x402.`,
        grant.resetAt === null ? {} : { trial_resets_at: new Date(grant.resetAt).toISOString() },
      );
    }
    return this.#trial(tool, input, identity, grant);
  }

  /** The 402 problem: a v2 PaymentRequired in the body and in PAYMENT-REQUIRED. */
  async paymentRequired(
    tool: ToolDefinition,
    reason: string,
    detail: string,
    extra: Record<string, unknown> = {},
  ): Promise<VigilError> {
    const requirements = await this.#deps.options.requirementsFor(tool);
    const required = await this.#deps.resourceServer.createPaymentRequiredResponse(
      [requirements],
      {
        url: `${this.#deps.publicUrl}/api/v1/x402-tools/${tool.name}`,
        description: tool.title,
        mimeType: 'application/json',
      },
      reason,
    );
    return new VigilError('payment_required', detail, {
      extensions: { ...extra, ...required, reason, price_usd: tool.priceUsd },
      headers: { 'payment-required': encodePaymentRequiredHeader(required), 'cache-control': 'no-store' },
    });
  }

  async #trial(
    tool: ToolDefinition,
    input: unknown,
    identity: TrialIdentity,
    grant: TrialGrant,
  ): Promise<GatewayAnswer> {
    let outcome: ToolOutcome;
    try {
      outcome = await this.#deps.runner.run(tool, input);
    } catch (error) {
      await this.#deps.trials.release(identity, tool, grant.callId).catch(() => undefined);
      throw error;
    }
    // An empty result costs nothing, trial calls included.
    const remaining = outcome.kind === 'empty' ? grant.remaining + 1 : grant.remaining;
    if (outcome.kind === 'empty')
      await this.#deps.trials.release(identity, tool, grant.callId).catch(() => undefined);
    const answer = this.#answer(tool, outcome, null, {
      identity: identity.kind,
      limit: grant.limit,
      remaining,
    });
    answer.headers['x-trial-limit'] = String(grant.limit);
    answer.headers['x-trial-remaining'] = String(remaining);
    return answer;
  }

  async #paid(
    tool: ToolDefinition,
    input: unknown,
    proof: DecodedProof,
    call: ToolCall,
    timings: StepTimings,
  ): Promise<GatewayAnswer> {
    const requirements = await timings.time('quote', () => this.#deps.options.requirementsFor(tool));
    const { authorization } = proof;
    const key = authorizationKey(
      requirements.network,
      requirements.asset,
      authorization.from,
      authorization.nonce,
    );
    const paymentId = `pay_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
    const fingerprint = createHash('sha256')
      .update(`${tool.name}\n${canonicalJson(input)}`)
      .digest('hex');
    // A proof that already answered: the same request gets that answer again (no second run or
    // charge, even though the chain now reports the authorization used); any other is refused.
    const held = await timings.time('peek', () => this.#deps.reservations.peek(key));
    if (held) return this.#heldBy(tool, held, fingerprint, paymentId);
    const verified = await timings.time('verify', () => this.#verify(proof, requirements));
    if (!verified.isValid) {
      throw await this.paymentRequired(
        tool,
        verified.invalidReason ?? PaymentReason.unexpectedVerify,
        `The payment was refused: ${verified.invalidMessage ?? verified.invalidReason ?? 'invalid'}.`,
      );
    }
    const ttlMs =
      Math.max(60_000, Number(authorization.validBefore) * 1000 - Date.now()) + RESERVATION_GRACE_MS;
    const reserved = await timings.time('reserve', () =>
      this.#deps.reservations.reserve(key, { state: 'running', fingerprint, payment_id: paymentId }, ttlMs),
    );
    if (!reserved.reserved) return this.#heldBy(tool, reserved.holder, fingerprint, paymentId);

    let outcome: ToolOutcome;
    try {
      outcome = await timings.time('tool', () => this.#deps.runner.run(tool, input));
    } catch (error) {
      await this.#deps.reservations.release(key).catch(() => undefined);
      throw error;
    }
    if (outcome.kind === 'empty') {
      // Not charged: the authorization stays unused and may pay for another call.
      await this.#deps.reservations.release(key).catch(() => undefined);
      return this.#answer(tool, outcome, null, null);
    }
    await timings.time('reserve', () =>
      this.#deps.reservations.update(key, { state: 'settling', fingerprint, payment_id: paymentId }),
    );

    const receipt: PaymentReceipt = {
      payment_id: paymentId,
      status: 'pending',
      transaction: null,
      network: requirements.network,
      asset: requirements.asset,
      amount: requirements.amount,
      amount_usd: tool.priceUsd,
      payer: authorization.from,
      pay_to: requirements.payTo,
      tool: tool.name,
      request_id: call.requestId,
      api_key_id: call.apiKeyId,
      created_at: new Date().toISOString(),
      settled_at: null,
      error_reason: null,
      empty_result: false,
      refund: null,
    };
    const settled = await this.#settle(
      { paymentId, paymentPayload: proof.payload, requirements, receipt },
      tool,
      timings,
    );
    if (settled.kind === 'failed') {
      await this.#deps.reservations.release(key).catch(() => undefined);
      throw await this.paymentRequired(
        tool,
        settled.reason,
        `The payment could not be settled: ${settled.message}`,
      );
    }
    const settleResponse: SettleResponse =
      settled.kind === 'settled'
        ? {
            success: true,
            transaction: settled.receipt.transaction ?? '',
            network: requirements.network,
            payer: authorization.from,
          }
        : {
            success: false,
            errorReason: PaymentReason.settlementPending,
            errorMessage: 'Settlement is still confirming; the receipt is at payment.status_url.',
            transaction: '',
            network: requirements.network,
            payer: authorization.from,
          };
    const payment = {
      payment_id: paymentId,
      status: settled.kind === 'settled' ? 'settled' : 'pending',
      transaction: settled.kind === 'settled' ? settled.receipt.transaction : null,
      network: requirements.network,
      asset: requirements.asset,
      amount: requirements.amount,
      amount_display: `${formatAtomic(BigInt(requirements.amount), 6)}`,
      payer: authorization.from,
      status_url: `/api/v1/x402/payments/${paymentId}`,
    };
    const answer = this.#answer(tool, outcome, payment, null);
    const header = encodePaymentResponseHeader(settleResponse);
    answer.headers['payment-response'] = header;
    answer.headers['x-payment-response'] = header;
    await timings.time('reserve', () =>
      this.#deps.reservations
        .update(key, { state: 'done', fingerprint, payment_id: paymentId, answer })
        .catch(() => undefined),
    );
    return answer;
  }

  async #heldBy(
    tool: ToolDefinition,
    holder: Reservation,
    fingerprint: string,
    paymentId: string,
  ): Promise<GatewayAnswer> {
    if (holder.fingerprint !== fingerprint) {
      throw await this.paymentRequired(
        tool,
        PaymentReason.proofUsedElsewhere,
        'This payment proof already paid for another request.',
      );
    }
    if (holder.state === 'done' && holder.answer) return holder.answer;
    throw new VigilError(
      'payment_in_progress',
      'A request with this payment proof is still running; retry shortly.',
      {
        headers: { 'retry-after': '1' },
        extensions: { payment_id: paymentId },
      },
    );
  }

  async #verify(proof: DecodedProof, requirements: PaymentRequirements): Promise<VerifyResponse> {
    try {
      return await this.#deps.facilitator.verify(proof.payload, requirements);
    } catch (error) {
      // A VerifyError is the facilitator's answer in a non-2xx response; anything else means it
      // could not be asked.
      if (
        typeof error === 'object' &&
        error !== null &&
        'invalidReason' in error &&
        typeof error.invalidReason === 'string'
      ) {
        const message =
          'invalidMessage' in error && typeof error.invalidMessage === 'string'
            ? error.invalidMessage
            : error.invalidReason;
        return { isValid: false, invalidReason: error.invalidReason, invalidMessage: message };
      }
      throw new VigilError(
        'facilitator_unavailable',
        'The payment facilitator did not answer; nothing was charged.',
        {
          headers: { 'retry-after': '5' },
          cause: error,
        },
      );
    }
  }

  /** Starts (or joins) the settlement workflow and waits a bounded time for its receipt. */
  async #settle(
    input: SettlePaymentInput,
    tool: ToolDefinition,
    timings: StepTimings,
  ): Promise<
    | { kind: 'settled'; receipt: PaymentReceipt }
    | { kind: 'pending' }
    | { kind: 'failed'; reason: string; message: string }
  > {
    const { client, connection } = this.#deps.temporal;
    let handle;
    const started = performance.now();
    try {
      handle = await client.workflow.start<typeof settlePayment>('settlePayment', {
        taskQueue: this.#deps.paymentsTaskQueue,
        workflowId: settlementWorkflowId(input.paymentId),
        args: [input],
        // One settlement per authorization, ever: a concurrent start joins, a finished one is not redone.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        typedSearchAttributes: [
          { key: SearchAttr.JobKind, value: JobKind.paymentSettlement },
          { key: SearchAttr.ToolName, value: tool.name },
          { key: SearchAttr.Payer, value: input.receipt.payer },
        ],
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError') {
        handle = client.workflow.getHandle<typeof settlePayment>(settlementWorkflowId(input.paymentId));
      } else {
        // The data was produced but settlement could not even be scheduled: answer pending would
        // be a lie, so withhold nothing and charge nothing; the payer keeps the authorization.
        return {
          kind: 'failed',
          reason: PaymentReason.unexpectedSettle,
          message: 'the settlement engine is unreachable.',
        };
      }
    }
    timings.add('settle_start', performance.now() - started);
    try {
      const receipt = await timings.time('settle_wait', () =>
        connection.withDeadline(Date.now() + this.#deps.settleWaitMs, () => handle.result()),
      );
      return { kind: 'settled', receipt };
    } catch (error) {
      if (error instanceof WorkflowFailedError) {
        const cause = error.cause;
        const reason =
          cause instanceof ApplicationFailure
            ? (cause.type ?? PaymentReason.unexpectedSettle)
            : PaymentReason.unexpectedSettle;
        return { kind: 'failed', reason, message: cause?.message ?? 'settlement failed.' };
      }
      if (isGrpcDeadlineError(error)) return { kind: 'pending' };
      return { kind: 'pending' };
    }
  }

  #answer(
    tool: ToolDefinition,
    outcome: ToolOutcome,
    payment: Record<string, unknown> | null,
    trial: Record<string, unknown> | null,
  ): GatewayAnswer {
    const body =
      outcome.kind === 'data'
        ? { tool: tool.name, data: outcome.data, payment, trial }
        : {
            tool: tool.name,
            data: null,
            reason: 'no_data',
            sources_tried: outcome.sourcesTried,
            charged: false,
            payment: null,
            trial,
          };
    return { status: 200, body, headers: {} };
  }
}

function validate(tool: ToolDefinition, body: unknown): unknown {
  const parsed = tool.input.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    loc: ['body', ...issue.path.map(String)],
    msg: issue.message,
    type: issue.code,
  }));
  throw new VigilError(
    'validation_failed',
    `Invalid ${errors.map((error) => error.loc.join('.')).join(', ')}: ${errors.map((error) => error.msg).join('; ')}`,
    { extensions: { errors } },
  );
}

/** JSON with sorted keys, so the same input always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
