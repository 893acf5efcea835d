import { describe, expect, it } from 'vitest';
import { makeCheck, unknownCheck } from '../checks.ts';
import { CATEGORY_WEIGHTS, GATE_FLOOR, SEVERITY_FLOOR, tierFor } from './model.ts';
import { scoreToken } from './score.ts';

const pass = (id: Parameters<typeof makeCheck>[0]) => makeCheck(id, { status: 'pass', detail: 'ok' });
const fail = (id: Parameters<typeof makeCheck>[0], severity?: 'low' | 'medium' | 'high' | 'critical') =>
  makeCheck(id, { status: 'fail', detail: 'bad', ...(severity ? { severity } : {}) });

describe('scoreToken', () => {
  it('gives a clean contract a low score, and green flags for what passed', () => {
    const summary = scoreToken([
      pass('owner_not_renounced'),
      pass('is_mintable'),
      pass('is_honeypot'),
      pass('sell_tax'),
    ]);
    expect(summary.risk_score).toBe(0);
    expect(summary.tier).toBe('low');
    expect(summary.flags).toEqual([]);
    expect(summary.green_flags.map((flag) => flag.id)).toEqual([
      'owner_not_renounced',
      'is_mintable',
      'is_honeypot',
      'sell_tax',
    ]);
  });

  it('puts a failed gate in the top band whatever the other checks say', () => {
    const summary = scoreToken([
      fail('is_honeypot'),
      pass('owner_not_renounced'),
      pass('is_mintable'),
      pass('is_proxy'),
    ]);
    expect(summary.gates).toEqual(['is_honeypot']);
    expect(summary.risk_score).toBeGreaterThanOrEqual(GATE_FLOOR);
    expect(summary.tier).toBe('critical');
    expect(summary.explanation.join('\n')).toContain('hard gate failed (is_honeypot)');
  });

  it('adds severity points within a category, capped at 100', () => {
    const summary = scoreToken([
      fail('is_mintable', 'high'),
      fail('is_blacklisted', 'medium'),
      fail('transfer_pausable', 'medium'),
    ]);
    expect(summary.categories.contract_safety.score).toBe(100);
    const one = scoreToken([fail('is_blacklisted', 'medium'), pass('is_mintable')]);
    expect(one.categories.contract_safety.score).toBe(30);
    expect(one.risk_score).toBe(30);
    expect(one.tier).toBe(tierFor(30));
  });

  it('counts unknown checks neither as safe nor as dangerous: they lower coverage only', () => {
    const known = scoreToken([fail('is_blacklisted', 'medium'), pass('is_mintable')]);
    const withUnknown = scoreToken([
      fail('is_blacklisted', 'medium'),
      pass('is_mintable'),
      unknownCheck('is_honeypot', 'no pool'),
    ]);
    expect(withUnknown.risk_score).toBe(known.risk_score);
    expect(withUnknown.coverage).toBeLessThan(known.coverage);
    expect(withUnknown.categories.contract_safety.checks).toEqual({ pass: 1, fail: 1, unknown: 1 });
  });

  it('reports coverage as the weighted share of decided checks, which caps confidence', () => {
    const summary = scoreToken([pass('is_mintable')]);
    // Only contract safety has checks today: coverage is that category's weight.
    expect(summary.coverage).toBeCloseTo(CATEGORY_WEIGHTS.contract_safety, 5);
    expect(summary.confidence).toBe('low');
    expect(summary.categories.liquidity.score).toBeNull();
  });

  it('has no score at all when nothing could be decided', () => {
    const summary = scoreToken([unknownCheck('is_honeypot', 'no pool'), unknownCheck('sell_tax', 'no pool')]);
    expect(summary.risk_score).toBeNull();
    expect(summary.tier).toBe('unknown');
    expect(summary.confidence).toBe('none');
  });

  it('lifts the score to the band of the worst finding, so clean categories do not dilute it', () => {
    const summary = scoreToken([
      fail('sell_tax', 'high'),
      pass('low_liquidity'),
      pass('holder_concentration'),
      pass('fresh_deployer'),
      pass('failed_sells'),
    ]);
    expect(summary.risk_score).toBe(SEVERITY_FLOOR.high);
    expect(summary.tier).toBe('high');
    expect(summary.explanation.join('\n')).toContain('worst finding sell_tax is high');
  });

  it('downgrades a capability nobody can use to info, with the reason, and it gates nothing', () => {
    const downgraded = makeCheck('is_mintable', {
      status: 'fail',
      detail: 'mint',
      downgrade: 'owner renounced',
    });
    expect(downgraded).toMatchObject({
      severity: 'info',
      downgraded: { from: 'high', reason: 'owner renounced' },
    });
    expect(downgraded.gate).toBeUndefined();
    const summary = scoreToken([downgraded, pass('is_honeypot')]);
    expect(summary.risk_score).toBe(0);
    expect(summary.gates).toEqual([]);
    expect(summary.explanation.join('\n')).toContain('was high: owner renounced');
  });

  it('neutralises governed capabilities of an allowlisted token, but never its simulated behaviour', () => {
    const checks = [
      fail('is_mintable'),
      fail('transfer_pausable', 'medium'),
      fail('is_proxy', 'medium'),
      pass('is_honeypot'),
    ];
    expect(scoreToken(checks).tier).toBe('critical');
    const listed = scoreToken(checks, { allowlist: { source: 'TOKEN_ALLOWLIST_ETHEREUM' } });
    expect(listed.allowlisted).toBe(true);
    expect(listed.tier).toBe('low');
    expect(listed.checks.every((check) => check.status !== 'fail' || check.severity === 'info')).toBe(true);
    const honeypot = scoreToken([...checks, fail('is_honeypot')], {
      allowlist: { source: 'TOKEN_ALLOWLIST_ETHEREUM' },
    });
    expect(honeypot.gates).toEqual(['is_honeypot']);
    expect(honeypot.tier).toBe('critical');
  });

  it('weights sum to one', () => {
    expect(Object.values(CATEGORY_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1, 10);
  });
});
