import { describe, expect, it } from 'vitest';
import { makeCheck } from '../core/checks.ts';
import { type Check, CheckStatus } from '../core/schema.ts';
import { type DiscoveryResult, emptyDiscovery, type PowerFinding } from '../evm/discoverPowers.ts';
import { applyDiscovery } from './discoveredPowers.ts';

// How discovery's result decides the class checks when some of its probes did not run (a node's
// refusal, or the time budget spent): what it demonstrated stands, and nothing it did not try is
// passed (vigil-risk/55).

const BLOCK = '0x10';
const OUT_OF_TIME =
  'out of time: discovery stopped after 1204 ms (budget 1000 ms), 40 planned calls not made';

const result = (changes: Partial<DiscoveryResult> = {}): DiscoveryResult => ({
  ...emptyDiscovery(4),
  calls: 12,
  roundTrips: 3,
  holderTraded: true,
  ...changes,
});

const mint: PowerFinding = {
  class: 'mint',
  selector: '0x0962ef79',
  target: null,
  signature: null,
  caller: '0x00000000000000000000000000000000000000a1',
  callerSource: 'owner()',
  origin: null,
  args: ['large amount'],
  prelude: null,
  first: null,
  repeats: 1,
  repeatedCall: null,
  calldata: '0x0962ef79',
  timeOffsetSeconds: 0,
  diff: {
    supply_before: '1000',
    supply_after: '3000',
    holder_balance_before: '10',
    holder_balance_after: '10',
    holder_transfer: 'ok',
    holder_sell_before_receipt: 'ok',
    holder_sell: 'ok',
    holder_buy_wei: '0',
    caller_balance_before: '0',
    caller_balance_after: '2000',
    pair_balance_before: '500',
    pair_balance_after: '500',
  },
};

/** What the dispatcher alone says of a plain token: no known function for any power. */
const fromSelectors = (): Check[] =>
  (['is_mintable', 'owner_change_balance', 'transfer_pausable'] as const).map((id) =>
    makeCheck(id, { status: 'pass', detail: 'No known function in the dispatcher.', evidence: [] }),
  );
const statusOf = (checks: Check[]) => Object.fromEntries(checks.map((check) => [check.id, check.status]));

describe('applyDiscovery', () => {
  it('vouches for every class when every probe ran and none showed a power', () => {
    const checks = applyDiscovery(fromSelectors(), { result: result(), holderFunded: true, block: BLOCK });
    expect(statusOf(checks)).toMatchObject({
      is_mintable: CheckStatus.pass,
      owner_change_balance: CheckStatus.pass,
      sells_blockable: CheckStatus.pass,
      discovery_incomplete: CheckStatus.pass,
    });
  });

  it('passes no class when some probes did not run: each is unknown, with the first failure', () => {
    const checks = applyDiscovery(fromSelectors(), {
      result: result({ failures: [OUT_OF_TIME, 'another'] }),
      holderFunded: true,
      block: BLOCK,
    });
    expect(statusOf(checks)).toMatchObject({
      is_mintable: CheckStatus.unknown,
      owner_change_balance: CheckStatus.unknown,
      sells_blockable: CheckStatus.unknown,
      // A capability check is the dispatcher's word, not discovery's: it keeps its pass.
      transfer_pausable: CheckStatus.pass,
      discovery_incomplete: CheckStatus.fail,
    });
    expect(
      checks.find((check) => check.id === 'discovery_incomplete')?.evidence.map((each) => each.summary),
    ).toEqual(expect.arrayContaining([OUT_OF_TIME, 'another']));
    const mintable = checks.find((check) => check.id === 'is_mintable');
    expect(mintable?.detail).toContain('No known function in the dispatcher.');
    expect(mintable?.detail).toContain(`could not run (2, the first: ${OUT_OF_TIME})`);
  });

  it('keeps what it demonstrated before the probes stopped', () => {
    const checks = applyDiscovery(fromSelectors(), {
      result: result({ findings: [mint], failures: [OUT_OF_TIME] }),
      holderFunded: true,
      block: BLOCK,
    });
    expect(statusOf(checks)).toMatchObject({
      is_mintable: CheckStatus.fail,
      owner_change_balance: CheckStatus.unknown,
      sells_blockable: CheckStatus.unknown,
      discovery_incomplete: CheckStatus.fail,
    });
    expect(checks.find((check) => check.id === 'is_mintable')?.evidence[0]).toMatchObject({
      kind: 'simulation',
      data: { selector: '0x0962ef79', class: 'mint' },
    });
  });

  it('leaves the holder classes to the dispatcher where no holder could be funded', () => {
    const checks = applyDiscovery(fromSelectors(), {
      result: result({ failures: [OUT_OF_TIME] }),
      holderFunded: false,
      block: BLOCK,
    });
    expect(statusOf(checks)).toMatchObject({
      is_mintable: CheckStatus.unknown,
      owner_change_balance: CheckStatus.pass,
      sells_blockable: CheckStatus.unknown,
    });
    expect(checks.find((check) => check.id === 'sells_blockable')?.detail).toContain('No pool to buy from');
  });
});
