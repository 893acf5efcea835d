import type { SettleResponse, VerifyResponse } from '@x402/core/types';
import { StepTimings } from '../plugins/stepTimings.ts';
import { PaymentReason } from '../../core/x402/reasons.ts';
import { isSolanaNetwork } from '../../core/x402/svmProof.ts';
import { type EvmFacilitator, SOLANA_NOT_OFFERED } from './evmFacilitator.ts';
import type { SvmFacilitator } from './svmFacilitator.ts';

/**
 * The facilitator's engine: EVM payments go to the EvmFacilitator, Solana payments to the
 * SvmFacilitator when one is configured (otherwise they are refused as not offered, as
 * /supported says).
 */
export class FacilitatorEngines {
  readonly #evm: EvmFacilitator;
  readonly #svm: SvmFacilitator | undefined;

  constructor(evm: EvmFacilitator, svm?: SvmFacilitator) {
    this.#evm = evm;
    this.#svm = svm;
  }

  verify(body: unknown, timings = new StepTimings()): Promise<VerifyResponse> {
    if (!isSolana(body)) return this.#evm.verify(body, timings);
    if (this.#svm) return this.#svm.verify(body, timings);
    return Promise.resolve({
      isValid: false,
      invalidReason: PaymentReason.invalidNetwork,
      invalidMessage: SOLANA_NOT_OFFERED,
    });
  }

  settle(body: unknown, timings = new StepTimings()): Promise<SettleResponse> {
    if (!isSolana(body)) return this.#evm.settle(body, timings);
    if (this.#svm) return this.#svm.settle(body, timings);
    return Promise.resolve({
      success: false,
      errorReason: PaymentReason.invalidNetwork,
      errorMessage: SOLANA_NOT_OFFERED,
      transaction: '',
      network: networkOf(body) as SettleResponse['network'],
    });
  }

  /** Refunds are EVM only (invoices, which alone can be refunded, are quoted on EVM). */
  refund(body: unknown, timings = new StepTimings()): Promise<SettleResponse> {
    if (!isSolana(body)) return this.#evm.refund(body, timings);
    return Promise.resolve({
      success: false,
      errorReason: PaymentReason.refundNotAllowed,
      errorMessage: 'Refunds are sent on EVM chains only.',
      transaction: '',
      network: networkOf(body) as SettleResponse['network'],
    });
  }

  supported() {
    const evm = this.#evm.supported();
    const svm = this.#svm;
    if (!svm) return evm;
    const sdk = svm.supported();
    return {
      ...evm,
      kinds: [...evm.kinds, ...sdk.kinds],
      signers: { ...evm.signers, ...sdk.signers },
      assets: [...evm.assets, ...svm.assets],
      payees: [...evm.payees, ...svm.payees],
      limits: {
        ...evm.limits,
        min_amount_per_payment: {
          ...evm.limits.min_amount_per_payment,
          ...Object.fromEntries(svm.assets.map((asset) => [asset.address, svm.minAmount.toString()])),
        },
        max_amount_per_payment: {
          ...evm.limits.max_amount_per_payment,
          ...Object.fromEntries(svm.assets.map((asset) => [asset.address, svm.maxAmount.toString()])),
        },
      },
      unsupported: [],
    };
  }

  async health() {
    const [evm, solana] = await Promise.all([this.#evm.health(), this.#svm?.health()]);
    if (!solana) return evm;
    const rank = { ok: 0, degraded: 1, down: 2 } as const;
    const worst = rank[solana.status] > rank[evm.status] ? solana.status : evm.status;
    // One chain down leaves the other settling: the whole is degraded, not down.
    const status = worst === 'down' && (evm.status === 'ok' || solana.status === 'ok') ? 'degraded' : worst;
    return { ...evm, status, solana };
  }
}

function networkOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const requirements = (body as { paymentRequirements?: unknown }).paymentRequirements;
  if (typeof requirements !== 'object' || requirements === null) return '';
  const network = (requirements as { network?: unknown }).network;
  return typeof network === 'string' ? network : '';
}

function isSolana(body: unknown): boolean {
  return isSolanaNetwork(networkOf(body));
}
