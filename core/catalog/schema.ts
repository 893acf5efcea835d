import type { z } from 'zod';
import type { ChainId } from '../chains/registry.ts';

/** Price tiers of the API specification, in USD per call. */
export const PriceTier = { free: 'free', basic: 'basic', premium: 'premium', elite: 'elite' } as const;
export type PriceTier = (typeof PriceTier)[keyof typeof PriceTier];

export const PRICE_TIER_RANGES_USD = {
  free: { min: 0, max: 0 },
  basic: { min: 0.01, max: 0.02 },
  premium: { min: 0.05, max: 0.15 },
  elite: { min: 0.15, max: 0.5 },
} as const satisfies Record<PriceTier, { min: number; max: number }>;

/** Which part of a token scan a tool answers with. */
export const ScanView = { full: 'full', honeypot: 'honeypot', contractSafety: 'contract_safety' } as const;
export type ScanView = (typeof ScanView)[keyof typeof ScanView];

/** What runs a tool: a workflow (awaited), or a function in the API process. */
type ToolRun =
  | { readonly kind: 'workflow'; readonly workflow: 'scanToken'; readonly view: ScanView }
  | {
      readonly kind: 'function';
      readonly fn:
        | 'riskModel'
        | 'deployerReputation'
        | 'queryCatalog'
        | 'similarTokens'
        | 'newsSentiment'
        | 'statusCheck'
        | 'mcpDiscover';
    }
  /** A long durable job: started (or joined), answered with its id, progress and result URLs. */
  | { readonly kind: 'job'; readonly workflow: 'generateReport' }
  /** A chain-data function over the analytics engine (chaindata/tools.ts). */
  | { readonly kind: 'data'; readonly fn: 'analyticsQuery' | 'parquetQuery' | 'labelsQuery' | 'labelsStats' };

export interface ToolDefinition<Input extends z.ZodType = z.ZodType> {
  /** Path segment of POST /api/v1/x402-tools/{name}; stable. */
  readonly name: string;
  /** The name MCP clients call it by, where the API specification names it otherwise. */
  readonly mcpName?: string;
  /** Semantic version of the tool's input and answer; a breaking change bumps the major. */
  readonly version: string;
  /** Set once a tool is on its way out: since when, and what to call instead. */
  readonly deprecated?: { readonly since: string; readonly use: string };
  readonly title: string;
  readonly description: string;
  /** The single source of the input's type, its validation and its JSON Schema. */
  readonly input: Input;
  /** Chains the tool applies to (from the chain registry's capabilities). */
  readonly chains: readonly ChainId[];
  readonly tier: PriceTier;
  readonly priceUsd: number;
  /** Free calls per rolling trial window: by client fingerprint, and with a connected wallet. */
  readonly trials: { readonly fingerprint: number; readonly wallet: number };
  readonly run: ToolRun;
  /** Upstream sources the tool consults, named in an empty result's sources_tried. */
  readonly sources: string;
}
