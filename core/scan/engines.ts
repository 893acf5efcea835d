import { ChainKind } from '../chains/registry.ts';
import type { CheckId } from './checks.ts';

/** Scan engines; each runs as its own activity, in parallel with the others. */
export const Engine = { contractSafety: 'contract_safety', honeypot: 'honeypot' } as const;
export type Engine = (typeof Engine)[keyof typeof Engine];

/** The checks each engine decides, so a failed engine's checks are reported as unknown. */
export const ENGINE_CHECKS = {
  contract_safety: [
    'owner_not_renounced',
    'is_mintable',
    'is_blacklisted',
    'transfer_pausable',
    'slippage_modifiable',
    'is_anti_whale',
    'is_proxy',
    'selfdestruct',
    'external_call',
  ],
  honeypot: ['is_honeypot', 'cannot_buy', 'buy_tax', 'sell_tax', 'transfer_tax'],
} as const satisfies Record<Engine, readonly CheckId[]>;

const ENGINES_BY_KIND: Partial<Record<ChainKind, readonly Engine[]>> = {
  [ChainKind.evm]: [Engine.contractSafety, Engine.honeypot],
};

export function enginesFor(kind: ChainKind): readonly Engine[] {
  return ENGINES_BY_KIND[kind] ?? [];
}
