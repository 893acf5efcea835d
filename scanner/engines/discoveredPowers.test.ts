import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { harmClasses } from '../core/risk/harm.ts';
import { Severity } from '../core/schema.ts';
import type { DiscoveryResult, PowerFinding } from '../evm/discoverPowers.ts';
import type { Timelock } from '../evm/readTimelocks.ts';
import { applyDiscovery } from './discoveredPowers.ts';

// How a demonstrated power weighs when the account that made the call is a timelock: nothing
// while every use of it still has to wait in public, in full once a call is already waiting.

const TIMELOCK: Address = '0x1111111111111111111111111111111111111111';
const WALLET: Address = '0x2222222222222222222222222222222222222222';

function mint(caller: Address): PowerFinding {
  return {
    class: 'mint',
    selector: '0x40c10f19',
    target: null,
    signature: 'mint(address,uint256)',
    caller,
    callerSource: caller === TIMELOCK ? 'owner()' : 'deployer',
    origin: null,
    args: ['caller', '1000× supply'],
    prelude: null,
    first: null,
    repeats: 1,
    repeatedCall: null,
    calldata: '0x40c10f19',
    timeOffsetSeconds: 0,
    diff: {
      supply_before: '1000',
      supply_after: '1001000',
      holder_balance_before: '0',
      holder_balance_after: '0',
      holder_transfer: 'ok',
      holder_sell_before_receipt: 'ok',
      holder_sell: 'ok',
      caller_balance_before: '0',
      caller_balance_after: '1000000',
      pair_balance_before: '0',
      pair_balance_after: '0',
    },
  };
}

function discovered(findings: PowerFinding[]): DiscoveryResult {
  return {
    findings,
    selectorsTried: 1,
    calls: 10,
    roundTrips: 1,
    failures: [],
    pairs: { tried: 0, planned: 0 },
    triples: { tried: 0, planned: 0 },
    rescaled: 0,
    repeated: 0,
    comparisons: { traced: 0, comparisons: 0, calls: 0, timed: 0, wrapped: 0, callers: 0, error: null },
  };
}

const apply = (findings: PowerFinding[], timelock?: Timelock) =>
  applyDiscovery([], {
    result: discovered(findings),
    holderFunded: true,
    block: '1',
    ...(timelock ? { timelocks: new Map([[TIMELOCK, timelock]]) } : {}),
  });
const mintable = (checks: ReturnType<typeof apply>) => checks.find((check) => check.id === 'is_mintable');

describe('a power only a timelock can use', () => {
  it('fails its check with the call shown, weighing nothing, while nothing to the token waits', () => {
    const checks = apply([mint(TIMELOCK)], { delaySeconds: 2 * 86_400, pending: 0 });
    expect(mintable(checks)).toMatchObject({ status: 'fail', severity: Severity.info, gate: false });
    expect(mintable(checks)?.downgraded?.reason).toMatch(/waits 48 h there in public/);
    expect(mintable(checks)?.evidence.some((evidence) => evidence.kind === 'simulation')).toBe(true);
    expect(harmClasses(checks).mint).toBe(false);
  });

  it('weighs in full when a call to the token already waits there, or its schedule was not read', () => {
    for (const pending of [1, null]) {
      const checks = apply([mint(TIMELOCK)], { delaySeconds: 2 * 86_400, pending });
      expect(mintable(checks)?.downgraded, String(pending)).toBeUndefined();
      expect(harmClasses(checks).mint, String(pending)).toBe(true);
    }
  });

  it('weighs in full when a wallet can do it at once too, its call shown first', () => {
    const checks = apply([mint(TIMELOCK), mint(WALLET)], { delaySeconds: 2 * 86_400, pending: 0 });
    expect(harmClasses(checks).mint).toBe(true);
    expect(mintable(checks)?.detail).toContain(WALLET);
    // Without the timelock's account known as one, its own call weighs in full.
    expect(harmClasses(apply([mint(TIMELOCK)])).mint).toBe(true);
  });
});
