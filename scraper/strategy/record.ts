import { z } from 'zod';
import { AttemptOutcome, type TierAttempt } from '../../core/scrape/outcome.ts';
import { type Tier, TIER_VALUES } from '../../core/scrape/tiers.ts';

const TierStats = z.object({
  /** Successes and blocks, decayed: each halves every `halfLifeMs` without news. */
  ok: z.number(),
  blocked: z.number(),
  last_outcome: z.string(),
  last_reason: z.string(),
  last_at: z.number(),
  last_blocked_at: z.number().nullable(),
  last_elapsed_ms: z.number(),
});
type TierStats = z.infer<typeof TierStats>;

/** What Vigil remembers about one domain (host[:port]). */
export const StrategyRecord = z.object({
  domain: z.string(),
  /** The tier that last worked, and when. */
  preferred: z.enum(TIER_VALUES).nullable(),
  preferred_at: z.number().nullable(),
  tiers: z.partialRecord(z.enum(TIER_VALUES), TierStats),
  requests: z.number(),
  updated_at: z.number(),
});
export type StrategyRecord = z.infer<typeof StrategyRecord>;

export function emptyRecord(domain: string, now: number): StrategyRecord {
  return { domain, preferred: null, preferred_at: null, tiers: {}, requests: 0, updated_at: now };
}

export interface RecordedRun {
  attempts: readonly TierAttempt[];
  /** The start was raised by the request's shape (wait_for or screenshot), not by the domain. */
  forcedStart: boolean;
}

/**
 * Folds one request's attempts into the record. The preferred tier moves to the tier that
 * succeeded, unless the request's shape forced that tier and nothing below it was tried and
 * blocked (a wait_for request succeeding in the browser says nothing about plain HTTP).
 */
export function applyRun(
  record: StrategyRecord,
  run: RecordedRun,
  now: number,
  halfLifeMs: number,
): StrategyRecord {
  const tiers = { ...record.tiers };
  for (const attempt of run.attempts) {
    const previous = tiers[attempt.tier];
    const decay = previous ? 0.5 ** ((now - previous.last_at) / halfLifeMs) : 0;
    const blocked = attempt.outcome !== AttemptOutcome.ok;
    tiers[attempt.tier] = {
      ok: round((previous?.ok ?? 0) * decay + (blocked ? 0 : 1)),
      blocked: round((previous?.blocked ?? 0) * decay + (blocked ? 1 : 0)),
      last_outcome: attempt.outcome,
      last_reason: attempt.reason,
      last_at: now,
      last_blocked_at: attempt.outcome === AttemptOutcome.blocked ? now : (previous?.last_blocked_at ?? null),
      last_elapsed_ms: attempt.elapsed_ms,
    };
  }
  const winner = run.attempts.find((attempt) => attempt.outcome === AttemptOutcome.ok);
  const escalated = run.attempts.some((attempt) => attempt.outcome !== AttemptOutcome.ok);
  const learned: Tier | null = winner && (!run.forcedStart || escalated) ? winner.tier : null;
  return {
    domain: record.domain,
    preferred: learned ?? record.preferred,
    preferred_at: learned ? now : record.preferred_at,
    tiers,
    requests: record.requests + 1,
    updated_at: now,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
