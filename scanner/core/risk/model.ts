import { RiskCategory, Severity } from '../schema.ts';

/**
 * Vigil's risk model in one place: category weights, severity points, tier bands, gates and
 * confidence thresholds. docs/risk-model.md explains how every point of a score arises; change
 * both together and bump MODEL_VERSION.
 */
export const MODEL_VERSION = 'vigil-risk/56';

/** Weights of the five categories; they sum to 1. */
export const CATEGORY_WEIGHTS = {
  [RiskCategory.contractSafety]: 0.35,
  [RiskCategory.liquidity]: 0.2,
  [RiskCategory.holders]: 0.15,
  [RiskCategory.deployerReputation]: 0.15,
  [RiskCategory.tradingActivity]: 0.15,
} as const satisfies Record<RiskCategory, number>;

/** Points a failed check adds to its category's 0-100 sub-score (capped at 100). */
export const SEVERITY_POINTS = {
  [Severity.info]: 0,
  [Severity.low]: 10,
  [Severity.medium]: 30,
  [Severity.high]: 60,
  [Severity.critical]: 100,
} as const satisfies Record<Severity, number>;

export const Tier = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  critical: 'critical',
  unknown: 'unknown',
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

/** Inclusive lower bound of each band, highest first. */
export const TIER_BANDS = [
  { tier: Tier.critical, min: 80 },
  { tier: Tier.high, min: 60 },
  { tier: Tier.medium, min: 30 },
  { tier: Tier.low, min: 0 },
] as const;

/**
 * A failed check lifts the score to at least its severity's floor, so the tier is never below
 * the band of the worst single finding: the weighted mean blends findings, it must not dilute a
 * 30 % sell tax into "low" because the other four categories are clean.
 */
export const SEVERITY_FLOOR = {
  [Severity.info]: 0,
  [Severity.low]: 0,
  [Severity.medium]: 30,
  [Severity.high]: 60,
  [Severity.critical]: 80,
} as const satisfies Record<Severity, number>;

/**
 * Launch state: market structure that changes as a token matures (and that a scammer can fake
 * cheaply), as opposed to what the contract lets its insiders do, which is hard evidence. Every
 * other check is a contract finding (code, simulations, the deployer's record).
 */
export const MARKET_STATE_CHECKS = [
  'low_liquidity',
  'lp_unlocked',
  'low_holder_count',
  'holder_concentration',
  'creator_holds_supply',
  'fresh_deployer',
  'buys_without_sells',
  'low_trading_activity',
] as const;

/**
 * Launch state alone never reaches the top band: it is where demonstrated powers (a hidden mint,
 * a balance taken, sells stopped) and failed gates sit. Market-only risk tops out in `high`.
 */
export const MARKET_ONLY_CEILING = 79;

/** A failed gate lifts the score to at least this (inside the critical band). */
export const GATE_FLOOR = 90;

export const Confidence = { high: 'high', medium: 'medium', low: 'low', none: 'none' } as const;
export type Confidence = (typeof Confidence)[keyof typeof Confidence];

/** Coverage (weighted share of decided checks) needed for each confidence level. */
const CONFIDENCE_BANDS = [
  { confidence: Confidence.high, minCoverage: 0.8 },
  { confidence: Confidence.medium, minCoverage: 0.5 },
  { confidence: Confidence.low, minCoverage: 0.000_001 },
] as const;

export function tierFor(score: number): Tier {
  return TIER_BANDS.find((band) => score >= band.min)?.tier ?? Tier.low;
}

export function confidenceFor(coverage: number): Confidence {
  return CONFIDENCE_BANDS.find((band) => coverage >= band.minCoverage)?.confidence ?? Confidence.none;
}

/**
 * Checks the allowlist neutralises: capabilities a governed blue chip has on purpose (an
 * upgradeable proxy, a blacklist, a pause, a minter). What the token does in simulated trades
 * (honeypot, taxes) still counts: configuration never hides observed behaviour.
 */
export const ALLOWLIST_NEUTRALISED = [
  'owner_not_renounced',
  'hidden_owner',
  'can_take_back_ownership',
  'owner_change_balance',
  'sells_blockable',
  'is_mintable',
  'is_blacklisted',
  'is_whitelisted',
  'transfer_pausable',
  'slippage_modifiable',
  'anti_whale_modifiable',
  'is_proxy',
  'external_call',
  'freezable',
  'balance_mutable_authority',
  'closable',
  'metadata_mutable',
  'default_account_frozen',
  'creator_holds_supply',
  'holder_concentration',
  'lp_unlocked',
] as const;

/**
 * Tax levels (percent) and the severity of a tax above each. At or below `tolerated` a tax
 * passes; a fixed low fee is normal for fee-on-transfer tokens.
 */
export const TAX_THRESHOLDS = {
  greenAtMost: 1,
  tolerated: 10,
  bands: [
    { above: 50, severity: 'critical' },
    { above: 30, severity: 'high' },
    { above: 10, severity: 'medium' },
  ],
} as const;

/** An upgrade path that waits at least this long (a timelock) weighs `low` instead of `medium`. */
export const PROXY_TIMELOCK_MIN_SECONDS = 86_400;

/**
 * Liquidity in the pool's quote asset (the chain's wrapped native asset), in whole units.
 * Below `minNative` the pool is thin (medium); below a tenth of it, high.
 */
export const LIQUIDITY_THRESHOLDS = {
  minNative: { ETH: 5, BNB: 15, POL: 20_000, AVAX: 400, FTM: 20_000, XDAI: 10_000 } as Record<string, number>,
  defaultMinNative: 5,
  /** Share of LP tokens that must be burned or held by a known locker for the pool to count as locked. */
  lockedShare: 0.95,
} as const;

/** Holder distribution. Shares are fractions of the total supply, pools, burn and lock addresses excluded. */
export const HOLDER_THRESHOLDS = {
  /** Fewer holders than this (pools and burn addresses excluded) fails low_holder_count. */
  minHolders: 10,
  concentration: [
    { above: 0.8, severity: 'high' },
    { above: 0.5, severity: 'medium' },
  ],
  /** The deployer holding more than this fails creator_holds_supply. */
  creatorShare: 0.05,
  /** Addresses that hold burned tokens. */
  burnAddresses: ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD'],
} as const;

/**
 * Deployer reputation: 100 for a clean record down to 0 for a serial rugger. Each finding takes
 * its points off; the score is exposed on its own (GET /api/v2/scanner/deployers/...).
 */
export const DEPLOYER_REPUTATION = {
  perRug: 50,
  perHoneypot: 40,
  freshWallet: 10,
  /** More tokens than this from one wallet is spam-like. */
  manyTokens: 10,
  manyTokensPenalty: 20,
  /** The wallet's first funder carries a phishing/hack, sanctions or mixer label. */
  fundedByFlagged: 30,
  /** A wallet younger than this (first funding to the token's creation) is fresh. */
  freshSeconds: 7 * 86_400,
  /** Liquidity removed within this long after it was added counts as a rug. */
  rugWindowSeconds: 30 * 86_400,
  /** Share of the added quote-asset liquidity that must have been removed. */
  rugRemovedShare: 0.8,
} as const;

/** Trading over the window the scanner reads (SCAN_TRADING_WINDOW_BLOCKS). */
export const TRADING_THRESHOLDS = {
  /** At least this many buys with no sell fails buys_without_sells. */
  minBuysForSellCheck: 2,
  /** Fewer distinct traders than this fails low_trading_activity. */
  minTraders: 2,
  /** Share of sampled recent buyers whose simulated sell fails, above which failed_sells fails. */
  failedSellShare: 0,
} as const;
