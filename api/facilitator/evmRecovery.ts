import type { SettleResponse } from '@x402/core/types';
import { getAddress, type Hex } from 'viem';
import { timeStep } from '../plugins/stepTimings.ts';
import { PaymentReason } from '../../core/x402/reasons.ts';
import type { FacilitatorWallet } from './chain.ts';
import { findUse, normalizedSignature, observeTransaction, usePays } from './evmTransactions.ts';
import { authorizationKeyOf, failureOf, type FacilitatorRequest } from './requestSchema.ts';
import type { ObservedUse, SettlementStore } from './settlementStore.ts';

export interface RecoveryOptions {
  /** How long before its validBefore a payload can have been accepted (see findUse). */
  maxValiditySeconds: number;
  lookbackBlocks: bigint;
  confirmationTimeoutMs: number;
  receiptPollMs: number;
}

/**
 * How a settlement whose answer is not stored is found on chain, without trusting anything but
 * the exact payload: the transaction recorded for it before broadcast, or (the nonce being spent)
 * the transaction that spent it, which counts only if it is exactly this payload's transfer.
 */
export class SettlementRecovery {
  readonly #wallet: FacilitatorWallet;
  readonly #store: SettlementStore;
  readonly #options: RecoveryOptions;

  constructor(wallet: FacilitatorWallet, store: SettlementStore, options: RecoveryOptions) {
    this.#wallet = wallet;
    this.#store = store;
    this.#options = options;
  }

  /**
   * The transaction recorded for this payload: settled (exactly), still confirming (pending), or
   * undefined when it never reached the chain or reverted, so the settle goes on as if unsent.
   */
  async resume(hash: Hex, request: FacilitatorRequest, digest: string): Promise<SettleResponse | undefined> {
    const asset = getAddress(request.requirements.asset);
    const payer = getAddress(request.authorization.from);
    let observed = await observeTransaction(this.#wallet, hash, asset, payer);
    if (observed === 'pending') {
      await this.#wallet
        .waitForTransactionReceipt({
          hash,
          timeout: this.#options.confirmationTimeoutMs,
          pollingInterval: this.#options.receiptPollMs,
        })
        .catch(() => undefined);
      observed = await observeTransaction(this.#wallet, hash, asset, payer);
    }
    if (observed === 'pending') {
      return {
        ...failureOf(request)(PaymentReason.settlementPending, 'The transaction is still confirming.'),
        transaction: hash,
      };
    }
    if (observed !== 'unknown' && usePays(observed, request)) {
      await this.#store.recordUse(authorizationKeyOf(request), observed);
      return { success: true, transaction: hash, network: request.requirements.network, payer };
    }
    // Never received, or reverted: whatever the chain says about the nonce now decides.
    await this.#store.forgetSent(digest, hash);
    return undefined;
  }

  /**
   * The nonce is spent: this payload's settlement only if the transaction that spent it called
   * transferWithAuthorization with exactly this payload and paid exactly the payee; otherwise a
   * refusal. The chain is searched once per authorization; the finding is kept.
   */
  async recover(request: FacilitatorRequest): Promise<SettleResponse> {
    const key = authorizationKeyOf(request);
    const use =
      (await this.#store.observedUse(key)) ??
      (await timeStep('recover', async () => {
        const found = await findUse(this.#wallet, request, this.#options);
        await this.#store.recordUse(key, found);
        return found;
      }));
    if (use.transaction && usePays(use, request)) {
      return {
        success: true,
        transaction: use.transaction,
        network: request.requirements.network,
        payer: request.authorization.from,
      };
    }
    return failureOf(request)(PaymentReason.nonceUsed, 'This authorization has already been used.');
  }

  /**
   * What this facilitator's own settlement did with the nonce (the SDK checked its receipt's
   * transfer), so any other payload sharing the nonce is refused without a search.
   */
  async recordOwnUse(request: FacilitatorRequest, hash: Hex): Promise<void> {
    const { authorization, requirements, payload } = request;
    const use: ObservedUse = {
      transaction: hash,
      call: {
        from: authorization.from,
        to: authorization.to,
        value: BigInt(authorization.value).toString(),
        validAfter: BigInt(authorization.validAfter).toString(),
        validBefore: BigInt(authorization.validBefore).toString(),
        nonce: authorization.nonce,
        signature: normalizedSignature((payload.payload as { signature: string }).signature),
      },
      moved: { [requirements.payTo.toLowerCase()]: BigInt(requirements.amount).toString() },
      succeeded: true,
    };
    await this.#store.recordUse(authorizationKeyOf(request), use).catch(() => undefined);
  }
}
