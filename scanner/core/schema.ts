import { z } from 'zod';

/**
 * The shapes a token scan produces. Engines emit checks; the risk model (risk/) turns them
 * into a score. Amounts and block numbers are decimal strings so they survive JSON unchanged.
 */
export const CheckStatus = { pass: 'pass', fail: 'fail', unknown: 'unknown' } as const;
export type CheckStatus = (typeof CheckStatus)[keyof typeof CheckStatus];

export const Severity = {
  info: 'info',
  low: 'low',
  medium: 'medium',
  high: 'high',
  critical: 'critical',
} as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

export const RiskCategory = {
  contractSafety: 'contract_safety',
  liquidity: 'liquidity',
  holders: 'holders',
  deployerReputation: 'deployer_reputation',
  tradingActivity: 'trading_activity',
} as const;
export type RiskCategory = (typeof RiskCategory)[keyof typeof RiskCategory];

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

export const DecimalString = z.string().regex(/^\d+$/);

/** One piece of evidence: what was read or simulated, and at which block. */
export const Evidence = z.object({
  kind: z.enum(['bytecode', 'selector', 'storage_slot', 'call', 'simulation', 'log', 'note']),
  summary: z.string(),
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  block: DecimalString.optional(),
});
export type Evidence = z.infer<typeof Evidence>;

export const Check = z.object({
  /** The flag name, in the vocabulary token-security APIs use (is_honeypot, sell_tax, ...). */
  id: z.string(),
  category: z.enum(values(RiskCategory)),
  /** fail: the risky condition holds; pass: it was checked and does not; unknown: not decidable. */
  status: z.enum(values(CheckStatus)),
  /** How much a failure weighs. */
  severity: z.enum(values(Severity)),
  title: z.string(),
  detail: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  /** A failed gate puts the token in the top band whatever the other categories say. */
  gate: z.boolean().optional(),
  /** A pass worth showing as a green flag (ownership renounced, sells work...). */
  green: z.boolean().optional(),
  /**
   * The finding stands but weighs less than its catalog severity, and why: a capability whose
   * owner is genuinely renounced, or a token on the configured allowlist.
   */
  downgraded: z.object({ from: z.enum(values(Severity)), reason: z.string() }).optional(),
  evidence: z.array(Evidence),
});
export type Check = z.infer<typeof Check>;

export const EngineStatus = { ok: 'ok', failed: 'failed' } as const;
export type EngineStatus = (typeof EngineStatus)[keyof typeof EngineStatus];

export const EngineReport = z.object({
  engine: z.string(),
  status: z.enum(values(EngineStatus)),
  block: DecimalString,
  duration_ms: z.number(),
  checks: z.array(Check),
  /** Plain facts an engine learned (token metadata, owner address...). */
  facts: z.record(z.string(), z.unknown()),
  error: z.object({ reason: z.string(), message: z.string() }).optional(),
  /** Chain providers that were skipped (dead, slow, wrong chain) while the engine ran. */
  degraded: z.array(z.string()).optional(),
});
export type EngineReport = z.infer<typeof EngineReport>;

/** Where a contract came from: its creation block and transaction, and the account that sent it. */
export const Creation = z.object({
  block: DecimalString,
  tx: z.string(),
  deployer: z.string(),
  /** How the deployer was found: it sent the creating transaction, or (factory) the first one touching the token. */
  via: z.enum(['create_tx', 'first_tx']),
});
export type Creation = z.infer<typeof Creation>;

/**
 * What a scan reads: a token on a chain, pinned at one block (a slot on Solana) so every engine
 * sees the same state, with its creation when it could be found.
 */
export const ScanTarget = z.object({
  chain: z.string(),
  address: z.string(),
  block: DecimalString,
  creation: Creation.nullable().optional(),
});
export type ScanTarget = z.infer<typeof ScanTarget>;
