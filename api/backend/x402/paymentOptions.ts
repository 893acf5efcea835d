import type { PaymentRequirements } from '@x402/core/types';
import { z } from 'zod';
import type { ToolDefinition } from '../../../core/catalog/index.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { usdToAtomic } from '../../../core/x402/amounts.ts';

const SupportedAssets = z.object({
  kinds: z.array(
    z.object({
      x402Version: z.number(),
      scheme: z.string(),
      network: z.string(),
      extra: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  assets: z.array(
    z.object({
      network: z.string(),
      address: z.string(),
      name: z.string(),
      /** The EIP-712 domain version (EVM); SPL mints have none. */
      version: z.string().default(''),
      decimals: z.number(),
      symbol: z.string(),
    }),
  ),
  limits: z.object({ max_amount_per_payment: z.record(z.string(), z.string()).optional() }).optional(),
});
export type SupportedAssets = z.infer<typeof SupportedAssets>;
export type AssetInfo = SupportedAssets['assets'][number];

export interface PaymentOptionsConfig {
  facilitatorUrl: string;
  network: string;
  asset: string | undefined;
  payTo: string | undefined;
  maxTimeoutSeconds: number;
  /** A Solana option quoted beside the EVM one (exact scheme, an SPL mint). */
  svm?: { network: string; asset: string; payTo: string } | undefined;
}

const CACHE_MS = 60_000;

/**
 * What a call costs, as x402 PaymentRequirements: the catalog's USD price in the configured
 * token's atomic units, with the token's EIP-712 domain as the facilitator read it from the chain.
 */
export class PaymentOptions {
  readonly #config: PaymentOptionsConfig;
  #supported: { value: SupportedAssets; at: number } | undefined;

  constructor(config: PaymentOptionsConfig) {
    this.#config = config;
  }

  get configured(): boolean {
    return this.#config.asset !== undefined && this.#config.payTo !== undefined;
  }

  get network(): string {
    return this.#config.network;
  }

  /** The facilitator's /supported, cached for a minute. */
  async supported(): Promise<SupportedAssets> {
    if (this.#supported && Date.now() - this.#supported.at < CACHE_MS) return this.#supported.value;
    let value: SupportedAssets;
    try {
      const response = await fetch(`${this.#config.facilitatorUrl}/supported`, {
        signal: AbortSignal.timeout(3_000),
      });
      value = SupportedAssets.parse(await response.json());
    } catch (error) {
      throw new VigilError(
        'facilitator_unavailable',
        'The payment facilitator did not answer; no quote can be made.',
        {
          headers: { 'retry-after': '5' },
          cause: error,
        },
      );
    }
    this.#supported = { value, at: Date.now() };
    return value;
  }

  async asset(): Promise<AssetInfo> {
    const { asset, payTo, network } = this.#config;
    if (!asset || !payTo) {
      throw new VigilError(
        'payments_not_configured',
        'This deployment takes no payments (X402_ASSET and X402_PAY_TO are unset).',
      );
    }
    const info = (await this.supported()).assets.find(
      (entry) => entry.network === network && entry.address.toLowerCase() === asset.toLowerCase(),
    );
    if (!info) {
      throw new VigilError(
        'facilitator_unavailable',
        `The facilitator does not settle ${asset} on ${network}.`,
      );
    }
    return info;
  }

  async requirementsFor(tool: ToolDefinition): Promise<PaymentRequirements> {
    return this.requirementsForUsd(tool.priceUsd);
  }

  /** The facilitator's largest payment in the quoted asset (atomic), when it states one. */
  async maxAmount(): Promise<bigint | undefined> {
    const [supported, asset] = await Promise.all([this.supported(), this.asset()]);
    const limits = supported.limits?.max_amount_per_payment ?? {};
    const limit = Object.entries(limits).find(
      ([address]) => address.toLowerCase() === asset.address.toLowerCase(),
    );
    return limit ? BigInt(limit[1]) : undefined;
  }

  get svmConfigured(): boolean {
    return this.#config.svm !== undefined;
  }

  /** Every option a call can be paid with: the EVM one, and Solana's when the facilitator settles it. */
  async acceptsForUsd(usd: number): Promise<PaymentRequirements[]> {
    const evm = await this.requirementsForUsd(usd);
    const svm = await this.svmRequirementsForUsd(usd).catch(() => undefined);
    return svm ? [evm, svm] : [evm];
  }

  /** The Solana mint as the facilitator settles it, with its fee payer (`extra.feePayer`). */
  async svmAsset(): Promise<AssetInfo & { feePayer: string }> {
    const svm = this.#config.svm;
    if (!svm)
      throw new VigilError(
        'payments_not_configured',
        'This deployment takes no Solana payments (X402_SVM_ASSET).',
      );
    const supported = await this.supported();
    const info = supported.assets.find(
      (entry) => entry.network === svm.network && entry.address === svm.asset,
    );
    const feePayer = supported.kinds.find((kind) => kind.network === svm.network && kind.scheme === 'exact')
      ?.extra?.feePayer;
    if (!info || typeof feePayer !== 'string')
      throw new VigilError(
        'facilitator_unavailable',
        `The facilitator does not settle ${svm.asset} on ${svm.network}.`,
      );
    return { ...info, feePayer };
  }

  async svmRequirementsForUsd(usd: number): Promise<PaymentRequirements> {
    const asset = await this.svmAsset();
    return {
      scheme: 'exact',
      network: asset.network as PaymentRequirements['network'],
      amount: usdToAtomic(usd, asset.decimals).toString(),
      asset: asset.address,
      payTo: this.#config.svm?.payTo ?? '',
      maxTimeoutSeconds: this.#config.maxTimeoutSeconds,
      extra: { feePayer: asset.feePayer },
    };
  }

  async requirementsForUsd(usd: number): Promise<PaymentRequirements> {
    const asset = await this.asset();
    return {
      scheme: 'exact',
      network: this.#config.network as PaymentRequirements['network'],
      amount: usdToAtomic(usd, asset.decimals).toString(),
      asset: asset.address,
      payTo: this.#config.payTo ?? '',
      maxTimeoutSeconds: this.#config.maxTimeoutSeconds,
      extra: { name: asset.name, version: asset.version },
    };
  }
}
