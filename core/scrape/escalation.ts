import { AttemptOutcome, type TierAttempt } from './outcome.ts';
import { isBrowserTier, type Tier, Tier as Tiers, tierIndex } from './tiers.ts';

/** Soft cap of one tier's attempt; the request's own deadline always wins. */
const TIER_BUDGET_MS: Record<Tier, number> = {
  http: 8_000,
  http_fingerprint: 8_000,
  browser: 25_000,
  browser_stealth: 25_000,
  browser_proxy: 25_000,
};

/** Not worth starting a tier with less than this left (a warm browser context alone is ~0.5 s). */
export const TIER_MIN_MS: Record<Tier, number> = {
  http: 150,
  http_fingerprint: 150,
  browser: 1_000,
  browser_stealth: 1_000,
  browser_proxy: 1_000,
};

export function tierBudgetMs(tier: Tier, remainingMs: number): number {
  return Math.max(0, Math.min(TIER_BUDGET_MS[tier], remainingMs));
}

export type Next =
  | { done: true }
  | {
      done: false;
      /** Index into the planned tiers of the tier to try next. */
      index: number;
    };

/**
 * After an attempt: stop (success or a terminal outcome) or pick the next planned tier.
 * A rendering problem (needs_js) jumps to the first browser tier; a target 429 only goes on to
 * a tier with another egress IP (the proxy tier), since a browser from the same IP changes
 * nothing; Vigil's own politeness limit never escalates.
 */
export function nextStep(tiers: readonly Tier[], index: number, attempt: TierAttempt): Next {
  switch (attempt.outcome) {
    case AttemptOutcome.ok:
    case AttemptOutcome.refused:
    case AttemptOutcome.failed:
    case AttemptOutcome.disallowed:
      return { done: true };
    case AttemptOutcome.rateLimited: {
      if (attempt.status !== 429) return { done: true };
      const proxy = tiers.indexOf(Tiers.browserProxy);
      return proxy > index ? { done: false, index: proxy } : { done: true };
    }
    case AttemptOutcome.needsJs: {
      const browser = tiers.findIndex((tier, at) => at > index && isBrowserTier(tier));
      return browser >= 0 ? { done: false, index: browser } : { done: true };
    }
    default:
      return index + 1 < tiers.length ? { done: false, index: index + 1 } : { done: true };
  }
}

/** The tiers from `start` on, cheapest first; the proxy tier only when a proxy is configured. */
export function tiersFrom(start: Tier, proxyConfigured: boolean): Tier[] {
  const from = tierIndex(start);
  return [Tiers.http, Tiers.httpFingerprint, Tiers.browser, Tiers.browserStealth, Tiers.browserProxy].filter(
    (tier) => tierIndex(tier) >= from && (proxyConfigured || tier !== Tiers.browserProxy),
  );
}
