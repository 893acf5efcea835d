import { describe, expect, it } from 'vitest';
import { nextStep, tierBudgetMs, tiersFrom } from './escalation.ts';
import type { TierAttempt } from './outcome.ts';

const all = tiersFrom('http', true);
const at = (
  tier: TierAttempt['tier'],
  outcome: TierAttempt['outcome'],
  status: number | null = 403,
): TierAttempt => ({
  tier,
  outcome,
  status,
  reason: '',
  elapsed_ms: 1,
});

describe('the escalation chain', () => {
  it('lists tiers from the start, the proxy tier only when configured', () => {
    expect(tiersFrom('http', false)).toEqual(['http', 'http_fingerprint', 'browser', 'browser_stealth']);
    expect(tiersFrom('browser', true)).toEqual(['browser', 'browser_stealth', 'browser_proxy']);
  });

  it('escalates on blocks, timeouts and missing selectors, and stops on success or terminal outcomes', () => {
    expect(nextStep(all, 0, at('http', 'blocked'))).toEqual({ done: false, index: 1 });
    expect(nextStep(all, 2, at('browser', 'selector_missing'))).toEqual({ done: false, index: 3 });
    expect(nextStep(all, 1, at('http_fingerprint', 'timeout'))).toEqual({ done: false, index: 2 });
    expect(nextStep(all, 4, at('browser_proxy', 'blocked'))).toEqual({ done: true });
    for (const outcome of ['ok', 'refused', 'failed', 'disallowed'] as const)
      expect(nextStep(all, 0, at('http', outcome))).toEqual({ done: true });
  });

  it('jumps from an empty shell straight to the browser', () => {
    expect(nextStep(all, 0, at('http', 'needs_js', 200))).toEqual({ done: false, index: 2 });
  });

  it('answers a target 429 with a new IP (the proxy tier) or stops; never escalates its own politeness limit', () => {
    expect(nextStep(all, 0, at('http', 'rate_limited', 429))).toEqual({ done: false, index: 4 });
    expect(nextStep(tiersFrom('http', false), 0, at('http', 'rate_limited', 429))).toEqual({ done: true });
    expect(nextStep(all, 0, at('http', 'rate_limited', null))).toEqual({ done: true });
  });

  it('budgets a tier within what is left of the deadline', () => {
    expect(tierBudgetMs('http', 30_000)).toBe(8_000);
    expect(tierBudgetMs('browser', 30_000)).toBe(25_000);
    expect(tierBudgetMs('browser', 1_200)).toBe(1_200);
  });
});
