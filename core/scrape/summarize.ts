import {
  AttemptOutcome,
  type ScrapeOutcome,
  ScrapeOutcomeKind,
  type ScrapePlan,
  type TierAttempt,
} from './outcome.ts';

/**
 * What a scrape's attempts come to: the page of the last attempt when it got one, else the
 * verdict that ended the chain. The workflow's result, and the word a tier that got the page
 * sends the waiting request ahead of it (the same function, so the two cannot differ).
 */
export function summarize(
  domain: string,
  startReason: string,
  attempts: TierAttempt[],
  outOfTime: boolean,
): ScrapeOutcome {
  const base = { domain, startReason, attempts };
  const last = attempts.at(-1);
  if (last?.outcome === AttemptOutcome.ok && last.page) {
    return {
      ...base,
      kind: ScrapeOutcomeKind.ok,
      page: last.page,
      tier: last.tier,
      ...(last.status !== null ? { status: last.status } : {}),
    };
  }
  const terminal: Partial<Record<AttemptOutcome, ScrapeOutcomeKind>> = {
    refused: ScrapeOutcomeKind.refused,
    failed: ScrapeOutcomeKind.failed,
    disallowed: ScrapeOutcomeKind.disallowed,
  };
  const kind = last ? terminal[last.outcome] : undefined;
  if (last && kind) return { ...base, kind, reason: last.reason };
  if (last?.outcome === AttemptOutcome.rateLimited) {
    const retryAfterS = Math.max(...attempts.map((attempt) => attempt.retry_after_s ?? 0), 1);
    return { ...base, kind: ScrapeOutcomeKind.rateLimited, retryAfterS, reason: last.reason };
  }
  if (attempts.length > 0 && attempts.every((attempt) => attempt.outcome === AttemptOutcome.error)) {
    return { ...base, kind: ScrapeOutcomeKind.error, reason: 'every tier failed to run' };
  }
  if (outOfTime || attempts.every((attempt) => attempt.outcome === AttemptOutcome.timeout)) {
    return {
      ...base,
      kind: ScrapeOutcomeKind.timeout,
      reason: 'timeout_ms ran out before a tier got the page',
    };
  }
  return {
    ...base,
    kind: ScrapeOutcomeKind.blocked,
    reason: 'every tier of the escalation chain was blocked',
  };
}

/** The attempts a domain's strategy learns from: Vigil's own politeness limit says nothing about the target. */
export function observedAttempts(attempts: readonly TierAttempt[]): TierAttempt[] {
  return attempts.filter(
    (attempt) => !(attempt.outcome === AttemptOutcome.rateLimited && attempt.status === null),
  );
}

/**
 * What a tier needs to tell the waiting request the whole answer, should it get the page: the
 * plan's domain and start, and the attempts before it.
 */
export function announcement(plan: Pick<ScrapePlan, 'domain' | 'startReason'>, earlier: TierAttempt[]) {
  return {
    domain: plan.domain,
    startReason: plan.startReason,
    forcedStart: plan.startReason.includes('forced_browser'),
    earlier,
  };
}
