import { createHash } from 'node:crypto';
import type { x402ResourceServer } from '@x402/core/server';
import { findTool, isPaid, type ToolDefinition } from '../../../core/catalog/index.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { StepTimings } from '../../plugins/stepTimings.ts';
import { canonicalJson } from '../../../core/x402/canonicalJson.ts';
import { paymentDigest } from '../../../core/x402/digest.ts';
import type { PaymentRequirements } from '@x402/core/types';
import {
  type AnyProof,
  authorizationKey,
  PaymentProofError,
  readAnyPaymentProof,
} from '../../../core/x402/proof.ts';
import { PaymentReason } from '../../../core/x402/reasons.ts';
import { svmPaymentKey } from '../../../core/x402/svmProof.ts';
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
import type { SettleOutcome, Settlements } from './settlements.ts';
import type { ToolContext, ToolOutcome, ToolRunner } from './toolRunner.ts';
import { validateToolInput } from './validate.ts';
import type { TrialGrant, TrialIdentity, Trials } from './trials.ts';

export interface GatewayDeps {
  options: PaymentOptions;
  trials: Trials;
  /** The MCP door's free tier (5 calls a day per tool); without it, MCP calls get `trials`. */
  mcpTrials?: Trials;
  reservations: PaymentReservations;
  runner: ToolRunner;
  settlements: Settlements;
  resourceServer: x402ResourceServer;
  publicUrl: string;
}

export interface ToolCall {
  toolName: string;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  apiKeyId: string | null;
  /**
   * Who is buying, as far as a stored answer is concerned: the API key, or an anonymous caller's
   * network (its client address; IPv6 by prefix). Not X-Client-ID, which anyone can send.
   */
  buyer: string;
  /** The caller's id (`key:<id>` or `fp:<hash>`): a job the tool starts is theirs to read and cancel. */
  holder: string;
  /** Which door the call came through: the MCP host's calls draw on the MCP free tier. */
  door?: 'rest' | 'mcp';
  /** Who a free call is charged to (a proven wallet, or the network fingerprint); undefined: nobody. */
  trialIdentity(): Promise<TrialIdentity | undefined>;
}

/** What the route sends: a status, a JSON body and headers. Problems are thrown as VigilErrors. */
export type GatewayAnswer = StoredAnswer;

/** A paid request as its reservation sees it. */
interface HeldRequest {
  tool: ToolDefinition;
  digest: string;
  purchase: string;
  buyer: string;
  reservation: string;
  decimals: number;
}

/**
 * One paid or trial tool call, framework-free: validate → trial or payment → run → settle →
 * answer. An authorization pays for one purchase, by one signed payload (reserved before the tool
 * runs, across replicas); it is charged only when the tool returned data; the data is delivered
 * only once the payment settled on chain (a slower settlement answers 202 and keeps the data for
 * the same proof), never a new quote.
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
    const input = validateToolInput(tool, call.body);
    const context = { holder: call.holder };
    if (!isPaid(tool))
      return this.#answer(tool, await this.#deps.runner.run(tool, input, context), null, null);

    let proof: AnyProof | undefined;
    try {
      proof = readAnyPaymentProof(call.headers);
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

    const identity = await call.trialIdentity();
    if (!identity) {
      throw await this.paymentRequired(
        tool,
        PaymentReason.missingPayment,
        'Pay with an x402 proof (X-PAYMENT or PAYMENT-SIGNATURE), or send X-Client-ID for the free trial.',
      );
    }
    const trials = (call.door === 'mcp' ? this.#deps.mcpTrials : undefined) ?? this.#deps.trials;
    const grant = await trials.consume(identity, tool);
    if (!grant.granted) {
      throw await this.paymentRequired(
        tool,
        PaymentReason.missingPayment,
        `The free trial of ${tool.name} is used up (${grant.limit} per ${trials.windowSeconds} s); pay with x402.`,
        grant.resetAt === null ? {} : { trial_resets_at: new Date(grant.resetAt).toISOString() },
      );
    }
    return this.#trial(tool, input, identity, grant, trials, context);
  }

  /** The 402 problem: a v2 PaymentRequired in the body and in PAYMENT-REQUIRED. */
  async paymentRequired(
    tool: ToolDefinition,
    reason: string,
    detail: string,
    extra: Record<string, unknown> = {},
  ): Promise<VigilError> {
    return paymentRequiredProblem(this.#deps.resourceServer, {
      requirements: await this.#deps.options.acceptsForUsd(tool.priceUsd),
      resource: {
        url: `${this.#deps.publicUrl}/api/v1/x402-tools/${tool.name}`,
        description: tool.title,
        mimeType: 'application/json',
      },
      reason,
      detail,
      extensions: { ...extra, price_usd: tool.priceUsd },
    });
  }

  async #trial(
    tool: ToolDefinition,
    input: unknown,
    identity: TrialIdentity,
    grant: TrialGrant,
    trials: Trials,
    context: ToolContext,
  ): Promise<GatewayAnswer> {
    let outcome: ToolOutcome;
    try {
      outcome = await this.#deps.runner.run(tool, input, context);
    } catch (error) {
      await trials.release(identity, tool, grant.callId).catch(() => undefined);
      throw error;
    }
    // An empty result costs nothing, trial calls included.
    const remaining = outcome.kind === 'empty' ? grant.remaining + 1 : grant.remaining;
    if (outcome.kind === 'empty') await trials.release(identity, tool, grant.callId).catch(() => undefined);
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
    proof: AnyProof,
    call: ToolCall,
    timings: StepTimings,
  ): Promise<GatewayAnswer> {
    const { requirements, decimals, key, ttlMs } = await timings.time('quote', () =>
      this.#quote(tool, proof),
    );
    const digest = paymentDigest(proof.payload, requirements);
    const paymentId = paymentIdOf(digest);
    const purchase = `tool:${createHash('sha256')
      .update(`${tool.name}\n${canonicalJson(input)}`)
      .digest('hex')}`;
    const reservation = authorizationReservation(key);
    const held = { tool, digest, purchase, buyer: call.buyer, reservation, decimals };
    // An authorization already holding a purchase: the same payload for the same request gets
    // that purchase's answer (no second run or charge); anything else carrying it is refused.
    const holder = await timings.time('peek', () => this.#deps.reservations.peek(reservation));
    if (holder) return this.#heldBy(held, holder);
    const verified = await timings.time('verify', () => this.#deps.settlements.verify(proof, requirements));
    if (!verified.isValid) {
      throw await this.paymentRequired(
        tool,
        verified.invalidReason ?? PaymentReason.unexpectedVerify,
        `The payment was refused: ${verified.invalidMessage ?? verified.invalidReason ?? 'invalid'}.`,
      );
    }
    const reserved = await timings.time('reserve', () =>
      this.#deps.reservations.reserve(
        reservation,
        { state: 'running', digest, purchase, buyer: call.buyer, payment_id: paymentId },
        ttlMs,
      ),
    );
    if (!reserved.reserved) return this.#heldBy(held, reserved.holder);

    let outcome: ToolOutcome;
    try {
      outcome = await timings.time('tool', () => this.#deps.runner.run(tool, input, { holder: call.holder }));
    } catch (error) {
      await this.#deps.reservations.release(reservation, digest).catch(() => undefined);
      throw error;
    }
    if (outcome.kind === 'empty') {
      // Not charged: the authorization stays unused and may pay for another call.
      await this.#deps.reservations.release(reservation, digest).catch(() => undefined);
      return this.#answer(tool, outcome, null, null);
    }
    const receipt = newReceipt({
      paymentId,
      requirements,
      proof,
      amountUsd: tool.priceUsd,
      tool: tool.name,
      requestId: call.requestId,
      apiKeyId: call.apiKeyId,
    });
    const settling: Reservation = {
      state: 'settling',
      digest,
      purchase,
      buyer: call.buyer,
      payment_id: paymentId,
      outcome: { data: outcome.data },
      receipt,
    };
    const [settled] = await Promise.all([
      this.#deps.settlements.settle(
        { paymentId, paymentPayload: proof.payload, requirements, receipt },
        { tool: tool.name },
        timings,
      ),
      this.#deps.reservations.update(reservation, settling, SETTLING_KEEP_MS).catch(() => undefined),
    ]);
    return timings.time('reserve', () => this.#settledAnswer(held, settling, settled));
  }

  /**
   * The answer once the settlement's outcome is known: the data only when it settled (exactly
   * this payload, on chain); a 202 without the data while it confirms, the result kept for the
   * same proof to fetch; a 402 when it failed for good (the authorization is free again).
   */
  async #settledAnswer(
    held: HeldRequest,
    settling: Reservation,
    settled: SettleOutcome,
  ): Promise<GatewayAnswer> {
    const { tool, digest, reservation, decimals } = held;
    const receipt = settling.receipt;
    if (!receipt || !settling.outcome) throw new Error('a settling reservation keeps its result and receipt');
    if (settled.kind === 'failed') {
      await this.#deps.reservations.release(reservation, digest).catch(() => undefined);
      throw await this.paymentRequired(
        tool,
        settled.reason,
        `The payment could not be settled: ${settled.message}`,
      );
    }
    if (settled.kind === 'pending') {
      return {
        status: 202,
        body: {
          tool: tool.name,
          data: null,
          payment: paymentSummary(receipt, settled, decimals),
          trial: null,
          detail:
            'The payment is confirming on chain; the data is released once it has settled. Send the same ' +
            'request with the same proof again (payment.status_url says when).',
        },
        headers: { ...receiptHeaders(receipt, settled), 'retry-after': '2' },
      };
    }
    const answer = this.#answer(
      tool,
      { kind: 'data', data: settling.outcome.data },
      paymentSummary(receipt, settled, decimals),
      null,
    );
    Object.assign(answer.headers, receiptHeaders(receipt, settled));
    await this.#deps.reservations
      .update(reservation, { ...settling, state: 'done', outcome: undefined, answer })
      .catch(() => undefined);
    return answer;
  }

  /**
   * What the proof pays against: the option of its family (EVM or Solana), the asset's decimals, the key that reserves it (the EIP-3009 authorization, or the signed Solana
   * transaction) and how long it could still be presented.
   */
  async #quote(
    tool: ToolDefinition,
    proof: AnyProof,
  ): Promise<{ requirements: PaymentRequirements; decimals: number; key: string; ttlMs: number }> {
    const { options } = this.#deps;
    if (proof.family === 'evm') {
      const [requirements, asset] = await Promise.all([options.requirementsFor(tool), options.asset()]);
      const { authorization } = proof;
      return {
        requirements,
        decimals: asset.decimals,
        key: authorizationKey(
          requirements.network,
          requirements.asset,
          authorization.from,
          authorization.nonce,
        ),
        ttlMs: reservationTtlMs(authorization.validBefore),
      };
    }
    if (!options.svmConfigured)
      throw await this.paymentRequired(
        tool,
        PaymentReason.invalidNetwork,
        'This deployment takes no Solana payments; pay with an option the quote lists.',
      );
    const [requirements, asset] = await Promise.all([
      options.svmRequirementsForUsd(tool.priceUsd),
      options.svmAsset(),
    ]);
    return {
      requirements,
      decimals: asset.decimals,
      key: svmPaymentKey(requirements.network, requirements.asset, proof.payer, proof.messageHash),
      // A Solana transaction lives as long as its blockhash: at most the quoted timeout.
      ttlMs: reservationTtlMs(String(Math.floor(Date.now() / 1000) + requirements.maxTimeoutSeconds)),
    };
  }

  /** A request whose authorization is already reserved. */
  async #heldBy(held: HeldRequest, holder: Reservation): Promise<GatewayAnswer> {
    // The same payload from another caller is someone who read it off the chain (or intercepted
    // it): the purchase, its data and its pending result belong to the caller that made it.
    const otherBuyer = holder.buyer !== undefined && holder.buyer !== held.buyer;
    if (holder.digest !== held.digest || holder.purchase !== held.purchase || otherBuyer) {
      throw await this.paymentRequired(
        held.tool,
        PaymentReason.proofUsedElsewhere,
        holder.digest === held.digest
          ? 'This payment proof already paid for another request (or another caller’s).'
          : 'This payment authorization (its nonce) is already used by another payment.',
      );
    }
    if (holder.state === 'done' && holder.answer) return holder.answer;
    if (holder.state === 'settling' && holder.outcome) {
      const settled = await this.#deps.settlements.outcome(holder.payment_id);
      return this.#settledAnswer(held, holder, settled);
    }
    throw new VigilError(
      'payment_in_progress',
      'A request with this payment proof is still running; retry shortly.',
      {
        headers: { 'retry-after': '1' },
        extensions: { payment_id: holder.payment_id },
      },
    );
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
