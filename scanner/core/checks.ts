import { type Check, type CheckStatus, type Evidence, RiskCategory, Severity } from './schema.ts';

interface CheckDefinition {
  readonly category: RiskCategory;
  /** Severity of a failure unless the engine sets one from the measured value. */
  readonly severity: Severity;
  readonly title: string;
  /** A failure puts the token in the top band, unless the engine says this instance is not live. */
  readonly gate?: boolean;
  /** Shown as a green flag when it passes. */
  readonly green?: string;
}

const contract = RiskCategory.contractSafety;
const liquidity = RiskCategory.liquidity;
const holders = RiskCategory.holders;
const deployer = RiskCategory.deployerReputation;
const trading = RiskCategory.tradingActivity;

/**
 * Every check Vigil runs, by flag name (the vocabulary token-security APIs use where one exists).
 * Engines only decide status, detail, value and evidence; docs/risk-model.md documents each one.
 */
export const CHECKS = {
  // Contract safety: ownership and privileges (EVM; Solana authorities below).
  owner_not_renounced: {
    category: contract,
    severity: Severity.low,
    title: 'Contract has an active owner',
    green: 'Ownership renounced',
  },
  hidden_owner: {
    category: contract,
    severity: Severity.high,
    title: 'Hidden owner: privileges survive the renounce',
  },
  can_take_back_ownership: {
    category: contract,
    severity: Severity.high,
    title: 'Ownership can be taken back after the renounce',
  },
  owner_change_balance: {
    category: contract,
    severity: Severity.critical,
    title: "A privileged account can change holders' balances",
    gate: true,
  },
  clone_of_harmful: {
    category: contract,
    severity: Severity.high,
    title: 'Same code as a token found harmful',
  },
  sells_blockable: {
    category: contract,
    severity: Severity.critical,
    title: "An insider can stop or tax holders' transfers and sells",
    gate: true,
    green: "No insider call stopped or taxed a holder's sell",
  },
  discovery_incomplete: {
    category: contract,
    severity: Severity.medium,
    title: 'Hidden powers not ruled out: power discovery did not finish',
  },
  is_mintable: {
    category: contract,
    severity: Severity.high,
    title: 'Supply can be minted',
    gate: true,
    green: 'No mint capability',
  },
  is_blacklisted: { category: contract, severity: Severity.medium, title: 'Addresses can be blacklisted' },
  is_whitelisted: {
    category: contract,
    severity: Severity.medium,
    title: 'Whitelist: chosen addresses trade under other rules',
  },
  transfer_pausable: { category: contract, severity: Severity.medium, title: 'Transfers can be paused' },
  slippage_modifiable: {
    category: contract,
    severity: Severity.medium,
    title: 'Taxes can be changed by a privileged account',
  },
  anti_whale_modifiable: {
    category: contract,
    // A limit set to almost nothing stops every sale: the switch of a honeypot.
    severity: Severity.medium,
    title: 'Size limits can be changed by a privileged account',
  },
  is_proxy: {
    category: contract,
    severity: Severity.medium,
    title: 'Upgradeable proxy',
    green: 'Not upgradeable',
  },
  selfdestruct: { category: contract, severity: Severity.high, title: 'Contract can self-destruct' },
  external_call: { category: contract, severity: Severity.medium, title: 'Delegates calls to other code' },

  // Contract safety: behaviour in simulated trades (EVM).
  is_honeypot: {
    category: contract,
    severity: Severity.critical,
    title: 'Honeypot: sells fail',
    gate: true,
    green: 'Buy and sell succeed in simulation',
  },
  cannot_buy: { category: contract, severity: Severity.high, title: 'Buys fail in simulation' },
  cannot_sell_all: {
    category: contract,
    severity: Severity.high,
    title: 'A whole holding cannot be sold at once',
  },
  buy_tax: { category: contract, severity: Severity.medium, title: 'Buy tax', green: 'No buy tax' },
  sell_tax: { category: contract, severity: Severity.medium, title: 'Sell tax', green: 'No sell tax' },
  transfer_tax: { category: contract, severity: Severity.medium, title: 'Transfer tax' },
  is_anti_whale: { category: contract, severity: Severity.low, title: 'Max transaction / wallet limits' },
  trading_cooldown: { category: contract, severity: Severity.medium, title: 'Trading cooldown' },

  // Contract safety: Solana mint authorities and Token-2022 extensions.
  freezable: {
    category: contract,
    severity: Severity.high,
    title: 'Freeze authority can freeze holders',
    gate: true,
    green: 'No freeze authority',
  },
  balance_mutable_authority: {
    category: contract,
    severity: Severity.critical,
    title: 'Permanent delegate can move or burn any holding',
    gate: true,
  },
  transfer_hook: { category: contract, severity: Severity.medium, title: 'Transfer hook runs a program' },
  none_transferable: {
    category: contract,
    severity: Severity.critical,
    title: 'Token cannot be transferred',
  },
  default_account_frozen: {
    category: contract,
    severity: Severity.high,
    title: 'New token accounts start frozen',
  },
  closable: { category: contract, severity: Severity.medium, title: 'Mint can be closed' },
  metadata_mutable: { category: contract, severity: Severity.low, title: 'Metadata can be changed' },

  // Liquidity.
  low_liquidity: {
    category: liquidity,
    severity: Severity.medium,
    title: 'Little liquidity in the quote asset',
    green: 'Liquidity above the threshold',
  },
  lp_unlocked: {
    category: liquidity,
    severity: Severity.high,
    title: 'Liquidity can be pulled',
    green: 'Liquidity burned or locked',
  },

  // Holders.
  low_holder_count: { category: holders, severity: Severity.low, title: 'Few holders' },
  holder_concentration: {
    category: holders,
    severity: Severity.medium,
    title: 'Top holders own most of the supply',
    green: 'Supply spread out',
  },
  creator_holds_supply: {
    category: holders,
    severity: Severity.medium,
    title: 'Deployer holds a large share',
  },

  // Deployer reputation.
  deployer_rug_history: {
    category: deployer,
    severity: Severity.critical,
    title: 'Deployer pulled liquidity from earlier tokens',
    gate: true,
  },
  honeypot_with_same_creator: {
    category: deployer,
    severity: Severity.high,
    title: 'Deployer made a honeypot before',
  },
  fresh_deployer: {
    category: deployer,
    severity: Severity.low,
    title: 'Deployer wallet is new',
    green: 'Established deployer',
  },

  // Trading activity.
  buys_without_sells: { category: trading, severity: Severity.medium, title: 'Buys but no sells' },
  failed_sells: {
    category: trading,
    severity: Severity.high,
    title: 'Recent buyers cannot sell',
    green: 'Recent buyers can sell',
  },
  low_trading_activity: { category: trading, severity: Severity.low, title: 'Little trading' },
} as const satisfies Record<string, CheckDefinition>;

export type CheckId = keyof typeof CHECKS;

export interface CheckInput {
  status: CheckStatus;
  detail: string;
  evidence?: Evidence[];
  value?: string | number | boolean | null;
  severity?: Severity;
  /** Set false for a pass that is not worth a green flag (e.g. no owner getter at all). */
  green?: boolean;
  /** Set false for a failure of a gate check that is not live (a mint nobody can call). */
  gate?: boolean;
  /**
   * Why this failure weighs nothing: the capability exists but nobody can use it. The check
   * stays failed (the code has it), its severity drops to info and it gates nothing.
   */
  downgrade?: string;
}

/** Builds a check from its catalog entry and what the engine found. */
export function makeCheck(id: CheckId, input: CheckInput): Check {
  const definition: CheckDefinition = CHECKS[id];
  const severity = input.severity ?? definition.severity;
  const check: Check = {
    id,
    category: definition.category,
    status: input.status,
    severity: input.downgrade === undefined ? severity : Severity.info,
    title:
      input.status === 'pass' && definition.green && input.green !== false
        ? definition.green
        : definition.title,
    detail: input.detail,
    evidence: input.evidence ?? [],
  };
  if (input.value !== undefined) check.value = input.value;
  if (definition.gate && input.gate !== false && input.downgrade === undefined) check.gate = true;
  if (definition.green && input.green !== false) check.green = true;
  if (input.downgrade !== undefined && input.status === 'fail')
    check.downgraded = { from: severity, reason: input.downgrade };
  return check;
}

/** The check an engine could not decide, with the reason as evidence. */
export function unknownCheck(id: CheckId, reason: string): Check {
  return makeCheck(id, { status: 'unknown', detail: reason, evidence: [{ kind: 'note', summary: reason }] });
}

/**
 * A failed check whose weight is taken away after the fact (the allowlist does this): severity
 * info, no gate, and the reason recorded.
 */
export function downgradeCheck(check: Check, reason: string): Check {
  if (check.status !== 'fail' || check.severity === Severity.info) return check;
  const { gate: _gate, ...rest } = check;
  return { ...rest, severity: Severity.info, downgraded: { from: check.severity, reason } };
}
