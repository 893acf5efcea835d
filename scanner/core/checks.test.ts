import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from './checks.ts';
import { ENGINE_CHECKS, enginesFor, failedEngineChecks, scannedKinds } from './engines.ts';

const doc = readFileSync(new URL('../../docs/risk-model.md', import.meta.url), 'utf8');
const documented = new Map(
  [...doc.matchAll(/^\| `([a-z_]+)` \| ([a-z_]+) \|/gm)].map((match) => [match[1] ?? '', match[2] ?? '']),
);

describe('the check catalog', () => {
  it('is documented in docs/risk-model.md, with each check in its category', () => {
    for (const [id, check] of Object.entries(CHECKS)) expect(documented.get(id), id).toBe(check.category);
    expect([...documented.keys()].filter((id) => !(id in CHECKS))).toEqual([]);
  });

  it('has every check decided by some engine, and by one engine only per chain kind', () => {
    const owned = new Set(Object.values(ENGINE_CHECKS).flat());
    expect([...owned].sort()).toEqual(Object.keys(CHECKS).sort());
    for (const kind of scannedKinds()) {
      const decided = enginesFor(kind).flatMap((engine) => ENGINE_CHECKS[engine]);
      expect(new Set(decided).size, kind).toBe(decided.length);
    }
  });
});

describe("a failed engine's checks", () => {
  it('are unknown, but for discovery_incomplete, which fails: no power was ruled out', () => {
    const checks = failedEngineChecks('contract_safety', 'every provider timed out');
    expect(checks.map((check) => check.id)).toEqual([...ENGINE_CHECKS.contract_safety]);
    for (const check of checks)
      expect(check.status, check.id).toBe(check.id === 'discovery_incomplete' ? 'fail' : 'unknown');
    expect(checks.find((check) => check.id === 'discovery_incomplete')?.detail).toContain(
      'the contract_safety engine failed (every provider timed out)',
    );
    // Another engine's failure rules nothing of the contract out or in.
    expect(failedEngineChecks('holders', 'x').every((check) => check.status === 'unknown')).toBe(true);
  });
});
