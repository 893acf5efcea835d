import { ChainKind } from '../../core/chains/registry.ts';
import { type CheckId, makeCheck, unknownCheck } from './checks.ts';
import type { Check } from './schema.ts';

/** Scan engines; each runs as its own activity, in parallel with the others. */
export const Engine = {
  contractSafety: 'contract_safety',
  honeypot: 'honeypot',
  liquidity: 'liquidity',
  holders: 'holders',
  deployer: 'deployer',
  trading: 'trading',
  solanaMint: 'solana_mint',
  solanaHolders: 'solana_holders',
} as const;
export type Engine = (typeof Engine)[keyof typeof Engine];

/** The checks each engine decides, so a failed engine's checks are reported as unknown. */
export const ENGINE_CHECKS = {
  contract_safety: [
    'owner_not_renounced',
    'hidden_owner',
    'can_take_back_ownership',
    'owner_change_balance',
    'sells_blockable',
    'clone_of_harmful',
    'discovery_incomplete',
    'is_mintable',
    'is_blacklisted',
    'is_whitelisted',
    'transfer_pausable',
    'slippage_modifiable',
    'anti_whale_modifiable',
    'is_proxy',
    'selfdestruct',
    'external_call',
  ],
  honeypot: [
    'is_honeypot',
    'cannot_buy',
    'cannot_sell_all',
    'buy_tax',
    'sell_tax',
    'transfer_tax',
    'is_anti_whale',
    'trading_cooldown',
  ],
  liquidity: ['low_liquidity', 'lp_unlocked'],
  holders: ['low_holder_count', 'holder_concentration', 'creator_holds_supply'],
  deployer: ['deployer_rug_history', 'honeypot_with_same_creator', 'fresh_deployer'],
  trading: ['buys_without_sells', 'failed_sells', 'low_trading_activity'],
  solana_mint: [
    'is_mintable',
    'freezable',
    'balance_mutable_authority',
    'transfer_hook',
    'transfer_tax',
    'slippage_modifiable',
    'none_transferable',
    'default_account_frozen',
    'closable',
    'metadata_mutable',
  ],
  solana_holders: ['low_holder_count', 'holder_concentration'],
} as const satisfies Record<Engine, readonly CheckId[]>;

const ENGINES_BY_KIND: Partial<Record<ChainKind, readonly Engine[]>> = {
  [ChainKind.evm]: [
    Engine.contractSafety,
    Engine.honeypot,
    Engine.liquidity,
    Engine.holders,
    Engine.deployer,
    Engine.trading,
  ],
  [ChainKind.solana]: [Engine.solanaMint, Engine.solanaHolders],
};

export function enginesFor(kind: ChainKind): readonly Engine[] {
  return ENGINES_BY_KIND[kind] ?? [];
}

/** Chain kinds that have engines, for tests and docs. */
export function scannedKinds(): ChainKind[] {
  return Object.keys(ENGINES_BY_KIND) as ChainKind[];
}

/**
 * The checks of an engine that failed: unknown, but for `discovery_incomplete`, which fails: no
 * power discovery ran, so none is ruled out, and a token whose contract could not be read is not
 * left in the lowest tier on its market alone.
 */
export function failedEngineChecks(engine: Engine, message: string): Check[] {
  return ENGINE_CHECKS[engine].map((id: CheckId) =>
    id === 'discovery_incomplete'
      ? makeCheck(id, {
          status: 'fail',
          detail: `Power discovery did not run: the ${engine} engine failed (${message}). No power is ruled out.`,
          evidence: [{ kind: 'note', summary: `the ${engine} engine failed: ${message}` }],
        })
      : unknownCheck(id, `The ${engine} engine failed: ${message}`),
  );
}
