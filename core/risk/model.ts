import { RiskCategory, Severity } from '../scan/schema.ts';

/**
 * Vigil's risk model in one place: category weights, severity points, tier bands, gates and
 * confidence thresholds. docs/risk-model.md explains how every point of a score arises; change
 * both together and bump MODEL_VERSION.
 */
export const MODEL_VERSION = 'vigil-risk/1';

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

/** A failed gate lifts the score to at least this (inside the critical band). */
export const GATE_FLOOR = 90;

export const Confidence = { high: 'high', medium: 'medium', low: 'low', none: 'none' } as const;
export type Confidence = (typeof Confidence)[keyof typeof Confidence];

/** Coverage (weighted share of decided checks) needed for each confidence level. */
export const CONFIDENCE_BANDS = [
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
