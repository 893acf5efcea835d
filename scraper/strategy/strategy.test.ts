import { describe, expect, it } from 'vitest';
import type { TierAttempt } from '../../core/scrape/outcome.ts';
import { decideStart, type DecideOptions } from './decide.ts';
import { applyRun, emptyRecord } from './record.ts';

const HOUR = 3_600_000;
const options: DecideOptions = {
  decayMs: 6 * HOUR,
  recheckRatio: 0.1,
  blockMemoryMs: HOUR,
  proxyConfigured: false,
  needsBrowser: false,
};
const attempt = (tier: TierAttempt['tier'], outcome: TierAttempt['outcome']): TierAttempt => ({
  tier,
  outcome,
  status: outcome === 'ok' ? 200 : 403,
  reason: outcome,
  elapsed_ms: 10,
});
const t0 = Date.parse('2026-01-01T00:00:00Z');

describe('strategy memory', () => {
  const learned = applyRun(
    emptyRecord('example.com', t0),
    {
      attempts: [
        attempt('http', 'blocked'),
        attempt('http_fingerprint', 'blocked'),
        attempt('browser', 'ok'),
      ],
      forcedStart: false,
    },
    t0,
    6 * HOUR,
  );

  it('starts an unknown domain at plain HTTP, and a learned one where it last worked', () => {
    expect(decideStart(null, t0, 0.5, options)).toMatchObject({ start: 'http', reason: 'default' });
    expect(learned).toMatchObject({ preferred: 'browser', preferred_at: t0, requests: 1 });
    expect(decideStart(learned, t0 + HOUR, 0.5, options)).toMatchObject({
      start: 'browser',
      reason: 'learned',
    });
  });

  it('decays one tier per decay period without a success, so stale decisions heal', () => {
    expect(decideStart(learned, t0 + 6 * HOUR, 0.5, options)).toMatchObject({
      start: 'http_fingerprint',
      reason: 'decayed',
    });
    expect(decideStart(learned, t0 + 13 * HOUR, 0.5, options)).toMatchObject({
      start: 'http',
      reason: 'decayed',
    });
  });

  it('re-checks one tier cheaper now and then, but not a tier blocked within the block memory', () => {
    // The cheaper tier (http_fingerprint) was blocked at t0.
    expect(decideStart(learned, t0 + 30 * 60_000, 0.05, options).reason).toBe('learned');
    expect(decideStart(learned, t0 + 2 * HOUR, 0.05, options)).toMatchObject({
      start: 'http_fingerprint',
      reason: 'recheck',
    });
    expect(decideStart(learned, t0 + 2 * HOUR, 0.5, options).reason).toBe('learned');
  });

  it('moves the preferred tier down when a cheaper re-check succeeds', () => {
    const healed = applyRun(
      learned,
      { attempts: [attempt('http_fingerprint', 'ok')], forcedStart: false },
      t0 + 2 * HOUR,
      6 * HOUR,
    );
    expect(healed.preferred).toBe('http_fingerprint');
    expect(healed.tiers.http_fingerprint).toMatchObject({ ok: 1, last_outcome: 'ok' });
    // The earlier block has decayed by a third of a half-life.
    expect(healed.tiers.http_fingerprint?.blocked).toBeCloseTo(0.5 ** (2 / 6), 3);
  });

  it('does not learn from a start forced by wait_for or screenshot, unless lower tiers were blocked on the way', () => {
    const forced = applyRun(
      emptyRecord('example.com', t0),
      { attempts: [attempt('browser', 'ok')], forcedStart: true },
      t0,
      HOUR,
    );
    expect(forced.preferred).toBeNull();
    const escalated = applyRun(
      emptyRecord('example.com', t0),
      { attempts: [attempt('browser', 'blocked'), attempt('browser_stealth', 'ok')], forcedStart: true },
      t0,
      HOUR,
    );
    expect(escalated.preferred).toBe('browser_stealth');
    expect(decideStart(null, t0, 0.5, { ...options, needsBrowser: true })).toMatchObject({
      start: 'browser',
      reason: 'default+forced_browser',
    });
  });

  it('never starts at the proxy tier without a proxy', () => {
    const proxied = { ...learned, preferred: 'browser_proxy' as const };
    expect(decideStart(proxied, t0, 0.5, options).start).toBe('browser_stealth');
    expect(decideStart(proxied, t0, 0.5, { ...options, proxyConfigured: true }).start).toBe('browser_proxy');
  });
});
