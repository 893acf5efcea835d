import { findTool } from '../../core/catalog/index.ts';
import { VigilError } from '../../core/errors/vigilError.ts';
import type { Caller } from '../plugins/caller.ts';
import { trialIdentityOf, type Trials } from './x402/trials.ts';
import type { WalletProofs } from './x402/walletProofs.ts';

/** A trial call taken for an anonymous request: give it back when the request fails. */
export interface TrialAdmission {
  headers: Record<string, string>;
  release(): Promise<void>;
}

/**
 * The v2 scanner serves what the paid tools sell, so anonymous callers are trial-gated there as
 * the API specification says: each request takes a free call of the matching tool (the same
 * allotment, window and network bound as the tool's own trials). API keys are not gated (their
 * tier's caps meter them).
 */
export class ScannerTrials {
  readonly #trials: Trials;
  readonly #proofs: WalletProofs;
  readonly #publicUrl: string;

  constructor(options: { trials: Trials; proofs: WalletProofs; publicUrl: string }) {
    this.#trials = options.trials;
    this.#proofs = options.proofs;
    this.#publicUrl = options.publicUrl;
  }

  async admit(
    caller: Caller,
    headers: Record<string, string | string[] | undefined>,
    toolName: 'token_risk' | 'deployer_reputation' | 'generate_report',
  ): Promise<TrialAdmission | null> {
    if (caller.apiKeyId) return null;
    const tool = findTool(toolName);
    if (!tool) throw new Error(`the catalog has no ${toolName}`);
    const payAt = `${this.#publicUrl}/api/v1/x402-tools/${tool.name}`;
    const identity = await trialIdentityOf(caller, headers, this.#proofs);
    if (!identity) {
      throw new VigilError(
        'trial_unavailable',
        'Anonymous use of the scanner is trial-gated: send X-Client-ID (or X-Wallet-Proof), or an X-API-Key.',
        { extensions: { reason: 'no_client_id', pay_at: payAt } },
      );
    }
    const grant = await this.#trials.consume(identity, tool);
    if (!grant.granted) {
      throw new VigilError(
        'trial_unavailable',
        `The free calls of the scanner are used up (${grant.limit} per ${this.#trials.windowSeconds} s, as for ` +
          `${tool.name}); send an X-API-Key, or pay per call at ${payAt}.`,
        {
          extensions: {
            reason: 'exhausted',
            pay_at: payAt,
            ...(grant.resetAt === null ? {} : { trial_resets_at: new Date(grant.resetAt).toISOString() }),
          },
        },
      );
    }
    return {
      headers: { 'x-trial-limit': String(grant.limit), 'x-trial-remaining': String(grant.remaining) },
      release: () => this.#trials.release(identity, tool, grant.callId).catch(() => undefined),
    };
  }
}
