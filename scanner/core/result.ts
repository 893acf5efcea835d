import { z } from 'zod';
import { Confidence, Tier } from './risk/model.ts';
import { Check, Creation, DecimalString, EngineStatus, RiskCategory } from './schema.ts';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

const CategoryScore = z.object({
  score: z.number().int().min(0).max(100).nullable(),
  weight: z.number(),
  coverage: z.number(),
  checks: z.object({ pass: z.number().int(), fail: z.number().int(), unknown: z.number().int() }),
});

/** One side of the verdict, scored on its own (see docs/risk-model.md, "Contract findings and market state"). */
const EvidenceSide = z.object({
  score: z.number().int().min(0).max(100).nullable(),
  tier: z.enum(values(Tier)),
  flags: z.array(z.string()),
});

export const TokenFacts = z.object({
  name: z.string().nullable(),
  symbol: z.string().nullable(),
  decimals: z.number().int().nullable(),
  total_supply: DecimalString.nullable(),
});
export type TokenFacts = z.infer<typeof TokenFacts>;

const EngineOutcome = z.object({
  status: z.enum(values(EngineStatus)),
  duration_ms: z.number(),
  error: z.object({ reason: z.string(), message: z.string() }).optional(),
});

/** The answer to "is this token safe?": a score, its breakdown, and the evidence for every flag. */
export const ScanResult = z.object({
  chain: z.string(),
  address: z.string(),
  /** The block every engine read; the verdict holds as of this block. */
  block_number: DecimalString,
  scanned_at: z.iso.datetime(),
  model_version: z.string(),
  risk_score: z.number().int().min(0).max(100).nullable(),
  tier: z.enum(values(Tier)),
  confidence: z.enum(values(Confidence)),
  coverage: z.number().min(0).max(1),
  categories: z.record(z.enum(values(RiskCategory)), CategoryScore),
  gates: z.array(z.string()),
  /** On the configured allowlist: governed capabilities were downgraded (see each check's `downgraded`). */
  allowlisted: z.boolean(),
  flags: z.array(Check),
  green_flags: z.array(Check),
  checks: z.array(Check),
  explanation: z.array(z.string()),
  /** What the contract lets its insiders do (hard evidence); absent from scans before vigil-risk/3. */
  contract_findings: EvidenceSide.optional(),
  /** Launch-state signals, apart: they change as the token matures; absent before vigil-risk/3. */
  market_state: EvidenceSide.optional(),
  token: TokenFacts,
  /** Who created the token and when, when it could be found. */
  creation: Creation.nullable(),
  /** What each engine measured beyond its checks (pool, holder counts, deployer score...). */
  facts: z.record(z.string(), z.record(z.string(), z.unknown())),
  engines: z.record(z.string(), EngineOutcome),
  /** Chain providers skipped while scanning (dead, slow, wrong chain); also sent as X-Degraded-Stores. */
  degraded_providers: z.array(z.string()),
});
export type ScanResult = z.infer<typeof ScanResult>;
