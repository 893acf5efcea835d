import { decodeAbiParameters, getAddress, type Hex, keccak256, stringToHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { creationCodeAddresses } from './analyzeBytecode.ts';
import type { DetectorLeg } from './detectorLeg.ts';
import {
  classify,
  deniedToCaller,
  type Outcome,
  type Planned,
  laterBlockPlan,
  pairPlan,
  repeatPlan,
  rescaled,
  togglePlan,
  tradedBetween,
  triplePlan,
} from './discoverPowers.ts';
import { addressesIn, storageAccounts, writtenAddress } from './privilegeCandidates.ts';
import type { CallEffect } from './probePrivileges.ts';

const leg = (overrides: Partial<DetectorLeg> = {}): DetectorLeg => ({
  attempted: true,
  ok: true,
  amountIn: 100n,
  expected: 100n,
  received: 100n,
  taxBps: 0,
  gasUsed: 50_000n,
  revertReason: null,
  revertData: null,
  ...overrides,
});

const effect = (overrides: Partial<CallEffect> = {}): CallEffect => ({
  label: 'call',
  ok: true,
  revertReason: null,
  gasUsed: 1n,
  supplyBefore: 1_000n,
  supplyAfter: 1_000n,
  victimBefore: 100n,
  victimAfter: 100n,
  ownerAfter: null,
  victimTransfer: leg(),
  victimEarlySell: leg(),
  victimSell: leg(),
  holderBuyWei: 10n ** 16n,
  around: {
    actorBefore: 10n,
    actorAfter: 10n,
    pairBefore: 400n,
    pairAfter: 400n,
    selfBefore: 0n,
    selfAfter: 0n,
    pairWethBefore: 5n,
    pairWethAfter: 5n,
  },
  ...overrides,
});
const around = (changes: Partial<CallEffect['around']>) => ({ around: { ...effect().around, ...changes } });

describe('classify: what one call did to an ordinary holder', () => {
  const baseline = effect();

  it('a mint of half the supply or more that dilutes the holder is a mint; a small one is not', () => {
    expect(classify(effect({ supplyAfter: 1_500n }), baseline)).toEqual(['mint']);
    expect(classify(effect({ supplyAfter: 1_400n }), baseline)).toEqual([]);
  });

  it('a rebase moves the holder with the supply: neither mint nor leak', () => {
    expect(classify(effect({ supplyAfter: 2_000n, victimAfter: 200n }), baseline)).toEqual([]);
    expect(classify(effect({ supplyAfter: 500n, victimAfter: 50n }), baseline)).toEqual([]);
  });

  it("a holder's share taken is a leak, whether moved or burned", () => {
    expect(classify(effect({ victimAfter: 50n }), baseline)).toEqual(['leak']);
    expect(classify(effect({ victimAfter: 0n, supplyAfter: 900n }), baseline)).toEqual(['leak']);
  });

  it("a part in a million of the holder's share taken is a leak; one unit of rounding is not", () => {
    // A holder of 4·10^23 units (the probe's size on a 10^27 supply) moved by a stale reflected
    // balance: a few parts in ten thousand.
    const holder = { supplyBefore: 10n ** 27n, supplyAfter: 10n ** 27n, victimBefore: 4n * 10n ** 23n };
    expect(classify(effect({ ...holder, victimAfter: holder.victimBefore - 10n ** 20n }), baseline)).toEqual([
      'leak',
    ]);
    expect(
      classify(
        effect({ ...holder, victimAfter: holder.victimBefore - holder.victimBefore / 1_000_000n }),
        baseline,
      ),
    ).toEqual(['leak']);
    expect(classify(effect({ ...holder, victimAfter: holder.victimBefore - 1n }), baseline)).toEqual([]);
    // The pool is measured as before: a swap's rounding and fees move it by less than 1 %.
    expect(classify(effect(around({ pairAfter: 397n, pairWethAfter: 5n })), baseline)).toEqual([]);
  });

  it('a transfer or sell that reverts, or loses > 10 % more than before, is a limit', () => {
    expect(classify(effect({ victimSell: leg({ ok: false, taxBps: null }) }), baseline)).toEqual(['limit']);
    expect(classify(effect({ victimTransfer: leg({ taxBps: 1_500 }) }), baseline)).toEqual(['limit']);
    // A fee-on-transfer token's own 3 % stays what it was.
    const taxed = effect({ victimSell: leg({ taxBps: 300 }) });
    expect(classify(effect({ victimSell: leg({ taxBps: 500 }) }), taxed)).toEqual([]);
  });

  it("a sell stopped before the holder receives anything is a limit, even where the holder's own receipt locks the later sell", () => {
    // A cooldown on wallet-to-wallet receipts: the holder's send to itself locks its later sell
    // without any call, so only the sell before the receipt can show a call that locks it.
    const receiptLocks = effect({ victimSell: leg({ ok: false, taxBps: null }) });
    expect(classify(effect({ victimSell: leg({ ok: false, taxBps: null }) }), receiptLocks)).toEqual([]);
    expect(
      classify(
        effect({
          victimEarlySell: leg({ ok: false, taxBps: null }),
          victimSell: leg({ ok: false, taxBps: null }),
        }),
        receiptLocks,
      ),
    ).toEqual(['limit']);
    expect(classify(effect({ victimEarlySell: leg({ taxBps: 1_500 }) }), baseline)).toEqual(['limit']);
  });

  it("the caller's balance written up without the supply is a (hidden) mint; a move from the contract or the pair is not", () => {
    expect(classify(effect(around({ actorAfter: 510n })), baseline)).toEqual(['mint']);
    expect(classify(effect(around({ actorAfter: 400n })), baseline)).toEqual([]);
    // The token contract's own pile handed to the caller: nothing new was written.
    expect(classify(effect(around({ selfBefore: 600n, actorAfter: 610n })), baseline)).toEqual([]);
    // A real mint to the caller counts once, as a mint.
    expect(classify(effect({ supplyAfter: 1_600n, ...around({ actorAfter: 610n }) }), baseline)).toEqual([
      'mint',
    ]);
  });

  it("the pool's tokens taken without paying it is a leak; a buyback that pays the pool is not", () => {
    expect(classify(effect(around({ pairAfter: 1n })), baseline)).toEqual(['leak']);
    expect(classify(effect(around({ pairAfter: 300n, pairWethAfter: 6n })), baseline)).toEqual([]);
    expect(classify(effect(around({ pairAfter: 398n })), baseline)).toEqual([]);
  });

  it('a reverted call shows nothing', () => {
    expect(classify(effect({ ok: false, supplyAfter: 5_000n }), baseline)).toEqual([]);
  });
});

describe('deniedToCaller: reverts no later day changes', () => {
  it('recognises missing rights, and leaves other reasons to the clock', () => {
    expect(deniedToCaller('OwnableUnauthorizedAccount(0x0000000000000000000000000000000000000001)')).toBe(
      true,
    );
    expect(deniedToCaller('Ownable: caller is not the owner')).toBe(true);
    expect(deniedToCaller('ERC20InsufficientAllowance(0x01, 0, 5)')).toBe(true);
    expect(deniedToCaller('vesting')).toBe(false);
    expect(deniedToCaller('reverted without a reason')).toBe(false);
    expect(deniedToCaller(null)).toBe(false);
  });
});

describe('addressesIn: candidate accounts in a storage word', () => {
  const keeper = '0x5eeacf441e0847d5af404170ec018dd62a815096';
  it('finds an address alone, or packed above a flag', () => {
    expect(addressesIn(`0x000000000000000000000000${keeper.slice(2)}`)).toEqual([
      '0x5eeAcF441E0847D5AF404170EC018dd62A815096',
    ]);
    const packed = `0x0000000000000000000000${keeper.slice(2)}01` as const;
    expect(addressesIn(packed)).toEqual(['0x5eeAcF441E0847D5AF404170EC018dd62A815096']);
  });

  it('reads the address packed below two flags, not its slice beside a byte of it', () => {
    // Wild tokens keep `address router; bool a; bool b` in one slot: with b set, 0x0100 lies above
    // the router, and the window one byte up (the router's first 19 bytes, 0x8d below) was read.
    const router = '7a250d5630b4cf539739df2c5dacb4c659f2488d';
    expect(addressesIn(`0x00000000000000000000${'0100'}${router}`)).toEqual([
      '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
    ]);
    const pair = '4b5c1f6693bf4cf3aeaf54228cfbf19eadc7f0db';
    expect(addressesIn(`0x00000000000000000000${'0101'}${pair}`)).toEqual([
      '0x4b5c1f6693BF4Cf3AeaF54228CFbf19eadc7f0DB',
    ]);
    // An address above a uint16 still wins over the slices beside it.
    expect(addressesIn(`0x000000000000000000${keeper.slice(2)}01f4`)).toEqual([
      '0x5eeAcF441E0847D5AF404170EC018dd62A815096',
    ]);
  });

  it('reads an account known from elsewhere where the bytes beside it cannot tell', () => {
    // `address wallet; uint8 decimals` with 18 above: the window one byte up has 0x10 below it, a
    // smaller neighbour than 18, and neither is a flag. The constructor named the wallet.
    const wallet = '9d23388ea58f91a3f29136076f87538d8f1c2610';
    const word = `0x0000000000000000000012${wallet}` as const;
    expect(addressesIn(word)).toEqual(['0x129D23388ea58f91A3F29136076f87538d8f1c26']);
    expect(storageAccounts([undefined, word], [getAddress(`0x${wallet}`)])).toEqual([
      { address: getAddress(`0x${wallet}`), source: 'slot 1' },
    ]);
  });

  it('reads no address into a short string or a small number', () => {
    const plainJane = `0x506c61696e204a616e65${'0'.repeat(42)}14` as const;
    expect(addressesIn(plainJane)).toEqual([]);
    expect(addressesIn('0x00000000000000000000000000000000000000000000000000000000000f4240')).toEqual([]);
  });
});

describe('rescaled: a stored small number again at the scales a rate is counted in', () => {
  const word = (name: string, value: bigint) => ({ name, value });
  const holder = word('holder', 0xabcn);

  it('a rate for one holder is tried as 99 % in percent, per mille and basis points', () => {
    const variants = rescaled([holder, word('1/true', 1n)]);
    expect(variants.map((words) => words.map((entry) => entry.value))).toEqual([
      [0xabcn, 99n],
      [0xabcn, 990n],
      [0xabcn, 9_900n],
    ]);
    expect(variants[2]?.[1]?.name).toBe('9900 (rescaled)');
  });

  it('a call already at 99 is not repeated as it was', () => {
    const fee = word('99', 99n);
    expect(rescaled([fee, fee, fee]).map((words) => words.map((entry) => entry.value))).toEqual([
      [990n, 990n, 990n],
      [9_900n, 9_900n, 9_900n],
    ]);
  });

  it('shapes with the caller, amounts or offsets are not rescaled', () => {
    expect(rescaled([word('caller', 0xdefn), word('1/true', 1n)])).toEqual([]);
    expect(rescaled([holder, word("half the holder's balance", 5n)])).toEqual([]);
    expect(rescaled([word('offset 32', 32n), word('1/true', 1n), holder])).toEqual([]);
    expect(rescaled([word('0', 0n)])).toEqual([]);
  });
});

/** A function selector from a number, and a first-round call of it with one of the argument shapes. */
const selector = (index: number): Hex => `0x${index.toString(16).padStart(8, '0')}`;
const planned = (sel: Hex, sequence: number): Planned => ({
  selector: sel,
  sequence,
  args: [`shape ${sequence}`],
  call: { label: sel, data: `${sel}${sequence.toString(16).padStart(64, '0')}` as Hex },
});

describe('pairPlan: which two-call sequences a cut budget keeps', () => {
  // Twenty setters that took every first call and stored it, and one function that refused every
  // call: the staged power (setter 7, then the refused one) must come before the budget of 288.
  const setters = Array.from({ length: 20 }, (_, index) => selector(index + 1));
  const refused = selector(0xbeef);
  const selectors = [...setters, refused];
  const succeeded: Outcome[] = setters.flatMap((sel) =>
    [0, 1, 2, 3, 4, 5, 6].map((sequence) => ({
      entry: planned(sel, sequence),
      effect: effect({ gasUsed: 30_000n }),
    })),
  );
  const failed = [0, 1, 2, 3, 4, 5, 6].map((sequence) => planned(refused, sequence));

  it('plans every pair, and puts each setter once before the refused function ahead of the rest', () => {
    const { planned: count, pairs: plan } = pairPlan(succeeded, failed, selectors);
    // 80 first calls (20 setters × 4 shapes), each followed by the 60 second calls (3 shapes) of
    // the 20 other functions.
    expect(count).toBe(80 * 60);
    expect(plan.length).toBe(80 * 60);
    const first = plan.slice(0, 60);
    expect(first.every((entry) => entry.selector === refused)).toBe(true);
    expect(new Set(first.map((entry) => entry.prelude?.selector)).size).toBe(20);
    const staged = plan.findIndex(
      (entry) => entry.prelude?.selector === selector(7) && entry.selector === refused,
    );
    expect(staged).toBeGreaterThanOrEqual(0);
    expect(staged).toBeLessThan(60);
  });

  it('cuts to the budget before encoding, and still counts what it planned', () => {
    const { planned: count, pairs: plan } = pairPlan(succeeded, failed, selectors, { limit: 288 });
    expect(count).toBe(80 * 60);
    expect(plan.length).toBe(288);
    expect(plan.slice(0, 60).every((entry) => entry.selector === refused)).toBe(true);
  });

  it('a year on, only first calls the clock let through', () => {
    const { pairs: plan } = pairPlan(succeeded, failed, selectors, {
      firstOnlyIf: (entry) => entry.selector === selector(3),
    });
    expect(plan.length).toBeGreaterThan(0);
    expect(new Set(plan.map((entry) => entry.prelude?.selector))).toEqual(new Set([selector(3)]));
  });
});

describe('triplePlan: a role nominated and accepted, then the function it opens', () => {
  const nominate = planned(selector(1), 0);
  const accept = planned(selector(2), 4);
  const issue = selector(3);
  const pair = (gasUsed: bigint): Outcome => ({
    entry: { ...accept, prelude: nominate, own: accept.call.data, call: { label: 'pair', data: '0x' } },
    effect: effect({ gasUsed }),
  });
  // Round one: nominate and accept worked (accept with any arguments), issue refused every call.
  const succeeded: Outcome[] = [nominate, accept].map((entry) => ({
    entry,
    effect: effect({ gasUsed: 30_000n }),
  }));
  const failed = [4, 5, 6].map((sequence) => planned(issue, sequence));

  it('follows a pair whose second call stored something with each function that refused everything', () => {
    const plan = triplePlan([pair(25_000n)], succeeded, failed);
    expect(plan.map((entry) => [entry.first?.selector, entry.prelude?.selector, entry.selector])).toEqual([
      [selector(1), selector(2), issue],
      [selector(1), selector(2), issue],
      [selector(1), selector(2), issue],
    ]);
    // The second call's own calldata is the evidence's, not the pair's sequence.
    expect(plan[0]?.prelude?.call.data).toBe(accept.call.data);
  });

  it('no third call after a second that stored nothing, or for functions that worked before', () => {
    expect(triplePlan([pair(2_000n)], succeeded, failed)).toEqual([]);
    const opened = [...succeeded, { entry: planned(issue, 0), effect: effect({ gasUsed: 30_000n }) }];
    expect(triplePlan([pair(25_000n)], opened, failed)).toEqual([]);
  });
});

describe('togglePlan: an account kept out, the market trading, the account taken back in', () => {
  const ROUTER = '0x00000000000000000000000000000000000000aa';
  const shaped = (sel: Hex, sequence: number, args: string[]): Planned => ({
    ...planned(sel, sequence),
    args,
  });
  const exclude = selector(0x10);
  const setFeeFree = selector(0x11);
  const include = selector(0x20);
  const pool = ['pair', '1/true'];
  const caller = ['caller', '1/true'];
  // Round one: the setters took the pool and the caller; taking an account back in refused them.
  const succeeded: Outcome[] = [
    { entry: shaped(exclude, 20, pool), effect: effect({ gasUsed: 30_000n }) },
    { entry: shaped(exclude, 0, caller), effect: effect({ gasUsed: 30_000n }) },
    { entry: shaped(setFeeFree, 20, pool), effect: effect({ gasUsed: 2_000n }) },
    {
      entry: shaped(selector(0x12), 4, ['caller', '1000× supply', '1/true']),
      effect: effect({ gasUsed: 30_000n }),
    },
  ];
  const failed = [shaped(include, 20, pool), shaped(include, 0, caller)];

  it("checks each setter that stored something before each refused function with the same account, the pool's first; trades between those the first opened", () => {
    const plan = togglePlan(succeeded, failed);
    expect(plan.map((entry) => [entry.prelude?.selector, entry.selector, entry.args[0]])).toEqual([
      [exclude, include, 'pair'],
      [exclude, include, 'caller'],
    ]);
    // The check is a plain sequence of the two calls, no trading.
    expect(plan[0]?.call.data.startsWith(keccak256(stringToHex('vigil.sequence')).slice(0, 10))).toBe(true);
    expect(plan[0]?.churned).toBeUndefined();
    // Only the pool's pair worked (the first opened the second): it alone is traded between.
    const traded = tradedBetween(
      [{ entry: plan[0] as Planned, effect: effect({ gasUsed: 40_000n }) }],
      ROUTER,
    );
    expect(traded).toHaveLength(1);
    const [toggle] = traded;
    expect(toggle?.churned).toBe(true);
    expect(toggle?.prelude?.selector).toBe(exclude);
    expect(toggle?.own).toBe(failed[0]?.call.data);
    // The detector's CHURN: the router, the call before the trading, the call after it.
    const churn = keccak256(stringToHex('vigil.churn')).slice(0, 10);
    expect(toggle?.call.data.startsWith(churn)).toBe(true);
    const [router, before, after] = decodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes[]' }, { type: 'bytes[]' }],
      `0x${toggle?.call.data.slice(10)}`,
    );
    expect(router.toLowerCase()).toBe(ROUTER);
    expect(before).toEqual([succeeded[0]?.entry.call.data]);
    expect(after).toEqual([failed[0]?.call.data]);
  });

  it('no toggle after a call that stored nothing, for a refusal of rights, or across shapes', () => {
    const denied = failed.map((entry) => ({ ...entry, revertReason: 'Ownable: caller is not the owner' }));
    expect(togglePlan(succeeded, denied)).toEqual([]);
    expect(togglePlan(succeeded.slice(2), failed)).toEqual([]);
    expect(togglePlan(succeeded, [shaped(include, 21, ['pair', '0'])])).toEqual([]);
  });
});

describe('writtenAddress: which PUSH20 operands name an account', () => {
  it('takes random bytes, not the address mask, small constants or mostly zero words', () => {
    expect(writtenAddress('0xED46235A07ab07BB5327c2b3216b6F900E2C8C8F')).toBe(true);
    expect(writtenAddress('0xffffffffffffffffffffffffffffffffffffffff')).toBe(false);
    expect(writtenAddress('0x000000000000000000000000000000000000dEaD')).toBe(false);
    expect(writtenAddress('0xED46235A0000000000c2b3216b6F900E2C8C8F12')).toBe(false);
  });

  it("reads a creation code's constructor, not the code it deploys or the data after it", () => {
    const keeper = 'ed46235a07ab07bb5327c2b3216b6f900e2c8c8f';
    const late = '33a117fa7c83ed5993ce8c9c0607009a57e5af21';
    const junk = 'f47a7eae2376cb5be1d072b286d1768eec60ca9e';
    // A runtime code of 64 bytes whose PUSH20 (junk) is its own, not the constructor's.
    const runtime = `73${junk}50${'5b'.repeat(42)}`;
    // PUSH20 keeper, POP, an INVALID inside the constructor (an assert before solc 0.8), PUSH20
    // late, POP, then the runtime code and a constructor argument holding 0x73 bytes.
    const code: Hex = `0x73${keeper}50fe73${late}50${runtime}${'73'.repeat(32)}`;
    expect([...creationCodeAddresses(code, `0x${runtime}`)]).toEqual([`0x${keeper}`, `0x${late}`]);
    // Without the runtime code (or when it is not found), up to the first INVALID.
    expect([...creationCodeAddresses(code)]).toEqual([`0x${keeper}`]);
    expect([...creationCodeAddresses(code, `0x${'00'.repeat(64)}`)]).toEqual([`0x${keeper}`]);
  });
});

describe('repeatPlan: a call that moved something short of a finding, made again and again', () => {
  const word = (name: string, value: bigint) => ({ name, value });
  const supply = 1_000n;
  // Shape 0: no argument that matters; shape 1: an amount of 1; shape 2: the holder and 1.
  const sequences = [[word('0', 0n)], [word('1/true', 1n)], [word('holder', 0xabcn), word('1/true', 1n)]];
  const baseline = effect({ victimSell: leg({ taxBps: 200 }) });
  const outcome = (sel: Hex, sequence: number, changes: Partial<CallEffect>): Outcome => ({
    entry: planned(sel, sequence),
    effect: effect({ victimSell: leg({ taxBps: 200 }), ...changes }),
  });
  /** The effect of a plan's call, had each repetition done what the one call did. */
  const scaled = (plan: Planned, perCall: (times: bigint) => Partial<CallEffect>) =>
    classify(effect({ victimSell: leg({ taxBps: 200 }), ...perCall(BigInt(plan.repeats ?? 1)) }), baseline);

  it('a fixed dose minted a call is made as often as half the supply takes, and then tells', () => {
    const plan = repeatPlan([outcome(selector(1), 0, { supplyAfter: 1_040n })], baseline, sequences, supply);
    expect(plan).toHaveLength(1);
    expect(plan[0]?.repeats).toBe(14);
    expect(plan[0]?.call.data.startsWith('0x')).toBe(true);
    expect(scaled(plan[0] as Planned, (n) => ({ supplyAfter: 1_000n + 40n * n }))).toEqual(['mint']);
    // One call alone does not.
    expect(classify(effect({ supplyAfter: 1_040n }), baseline)).toEqual([]);
  });

  it('a mint that took a small amount is tried at a tenth, a fortieth and a hundredth of the supply', () => {
    const plan = repeatPlan(
      [outcome(selector(2), 1, { supplyAfter: 1_001n }), outcome(selector(2), 3, { supplyAfter: 1_001n })],
      baseline,
      sequences,
      supply,
    );
    // Once per function, on its first amount.
    expect(plan.map((entry) => [entry.args, entry.repeats])).toEqual([
      [['1/10 of the supply'], 6],
      [['1/40 of the supply'], 21],
      [['1/100 of the supply'], 51],
    ]);
    for (const entry of plan) {
      const rung = BigInt(/1\/(\d+)/.exec(entry.args[0] ?? '')?.[1] ?? '0');
      expect(
        scaled(entry, (n) => ({ supplyAfter: 1_000n + (supply / rung) * n })),
        entry.args[1],
      ).toEqual(['mint']);
    }
  });

  it('a fee raised a step a call is raised until it passes the limit', () => {
    const plan = repeatPlan(
      [outcome(selector(3), 0, { victimSell: leg({ taxBps: 400 }) })],
      baseline,
      sequences,
      supply,
    );
    expect(plan.map((entry) => entry.repeats)).toEqual([7]);
    expect(
      scaled(plan[0] as Planned, (n) => ({ victimSell: leg({ taxBps: Number(200n + 200n * n) }) })),
    ).toEqual(['limit']);
  });

  it("a holder's share taken a little a call is taken until it passes a leak's threshold", () => {
    const plan = repeatPlan(
      [outcome(selector(4), 0, { victimBefore: 10_000_000n, victimAfter: 9_999_995n })],
      baseline,
      sequences,
      supply,
    );
    // Half a part in a million a call: three calls take one and a half.
    expect(plan.map((entry) => entry.repeats)).toEqual([3]);
    expect(
      scaled(plan[0] as Planned, (n) => ({ victimBefore: 10_000_000n, victimAfter: 10_000_000n - 5n * n })),
    ).toEqual(['leak']);
    expect(classify(effect({ victimBefore: 10_000_000n, victimAfter: 9_999_995n }), baseline)).toEqual([]);
  });

  it('makes one run per function, and ends each with a read so a run refused partway still counts', () => {
    const plan = repeatPlan(
      [outcome(selector(1), 0, { supplyAfter: 1_040n }), outcome(selector(1), 2, { supplyAfter: 1_040n })],
      baseline,
      sequences,
      supply,
    );
    expect(plan).toHaveLength(1);
    expect(
      plan[0]?.call.data.endsWith('18160ddd00000000000000000000000000000000000000000000000000000000'),
    ).toBe(true);
  });

  it("leaves alone a call that raised the holder's own balance, and a ladder for the holder", () => {
    const plan = repeatPlan(
      [
        outcome(selector(1), 0, { supplyAfter: 1_040n, victimAfter: 140n }),
        outcome(selector(2), 2, { supplyAfter: 1_001n }),
      ],
      baseline,
      sequences,
      supply,
    );
    expect(plan).toEqual([]);
  });

  it('leaves alone what moved nothing harmful, what would take more than 60 calls, and sequences', () => {
    const plan = repeatPlan(
      [
        outcome(selector(5), 0, {}),
        outcome(selector(6), 0, { victimSell: leg({ taxBps: 100 }) }),
        outcome(selector(7), 0, { supplyAfter: 1_001n }),
        {
          entry: { ...planned(selector(8), 0), prelude: planned(selector(9), 0) },
          effect: effect({ supplyAfter: 1_040n }),
        },
      ],
      baseline,
      sequences,
      supply,
    );
    expect(plan).toEqual([]);
  });
});

describe('laterBlockPlan: what a staging transaction is followed by in a later block', () => {
  const account = (digit: string, source: string) => ({
    address: `0x${digit.repeat(40)}` as const,
    source,
  });
  const owner = account('1', 'deployer');
  const keeper = account('2', 'slot 3');
  const stranger = account('3', 'the pair');
  const refusedWith = (entry: Planned, reason: string): Planned => ({ ...entry, revertReason: reason });
  // Twenty setters the owner stores anything with; APPLY does nothing for anyone at the block
  // (the keeper runs it without writing; the owner is told "not ready"; the stranger is refused
  // for its rights); VIEW is a getter; TOUCHED does nothing for the owner but writes for the keeper.
  const setters = Array.from({ length: 20 }, (_, index) => selector(index + 1));
  const APPLY = selector(0xa0);
  const VIEW = selector(0xb0);
  const TOUCHED = selector(0xc0);
  const all = [0, 1, 2, 3, 4, 5, 6];
  const ownerSteps = {
    candidate: owner,
    succeeded: [
      ...setters.flatMap((sel) =>
        all.map((sequence) => ({ entry: planned(sel, sequence), effect: effect({ gasUsed: 30_000n }) })),
      ),
      ...all.map((sequence) => ({ entry: planned(VIEW, sequence), effect: effect({ gasUsed: 2_000n }) })),
      ...all.map((sequence) => ({ entry: planned(TOUCHED, sequence), effect: effect({ gasUsed: 3_000n }) })),
    ],
    failed: all.map((sequence) => refusedWith(planned(APPLY, sequence), 'not ready')),
  };
  const keeperSteps = {
    candidate: keeper,
    succeeded: [
      ...all.map((sequence) => ({ entry: planned(APPLY, sequence), effect: effect({ gasUsed: 4_000n }) })),
      ...all.map((sequence) => ({ entry: planned(TOUCHED, sequence), effect: effect({ gasUsed: 25_000n }) })),
    ],
    failed: setters.flatMap((sel) =>
      all.map((sequence) => refusedWith(planned(sel, sequence), 'Unauthorized')),
    ),
  };
  const strangerSteps = {
    candidate: stranger,
    succeeded: [],
    failed: [APPLY, ...setters].flatMap((sel) =>
      all.map((sequence) => refusedWith(planned(sel, sequence), 'Ownable: caller is not the owner')),
    ),
  };

  it("stages all of an account's setters in one block, then the dormant functions, by the accounts that reach them", () => {
    const { planned: count, simulations } = laterBlockPlan([ownerSteps, keeperSteps, strangerSteps]);
    // The owner stages its twenty setters, the keeper its TOUCHED, once in the holder's shape and
    // once in the caller-and-amount shape; the stranger stages nothing and acts in nobody's
    // simulation (refused every function it could reach for its rights).
    // The owner's blocks of twenty come again in reverse, after every account's blocks.
    expect(count).toBe(12);
    expect(simulations.map(({ by, actor, staged }) => [by, actor, staged[0]?.sequence])).toEqual([
      [owner, owner, 1],
      [keeper, keeper, 1],
      [owner, keeper, 1],
      [keeper, owner, 1],
      [owner, owner, 4],
      [keeper, keeper, 4],
      [owner, keeper, 4],
      [keeper, owner, 4],
      [owner, owner, 1],
      [owner, keeper, 1],
      [owner, owner, 4],
      [owner, keeper, 4],
    ]);
    expect(simulations[8]?.staged.map((entry) => entry.selector)).toEqual([...setters].reverse());
    expect(simulations[0]?.staged.map((entry) => entry.selector)).toEqual(setters);
    expect(simulations[1]?.staged.map((entry) => entry.selector)).toEqual([TOUCHED]);
    // Second calls: APPLY (dormant) in its five shapes first (the triggers, then 0 and 1), then one
    // shape of each other function the actor reaches that is not a getter (VIEW).
    const shapes = (index: number) =>
      simulations[index]?.seconds.map((entry) => [entry.selector, entry.sequence]);
    expect(shapes(1)).toEqual([
      [APPLY, 4],
      [APPLY, 5],
      [APPLY, 6],
      [APPLY, 2],
      [APPLY, 3],
      [TOUCHED, 4],
    ]);
    expect(shapes(0)?.slice(0, 5)).toEqual(shapes(1)?.slice(0, 5));
    expect(shapes(0)?.slice(5)).toEqual([...setters, TOUCHED].map((sel) => [sel, 4]));
  });

  it("lets accounts take turns, so one account's many simulations cannot crowd out another's", () => {
    // Twenty accounts like the owner before the keeper: the keeper's own simulation still comes
    // within the budget.
    const owners = Array.from({ length: 20 }, (_, index) => ({
      ...ownerSteps,
      candidate: account(((index % 9) + 4).toString(), `slot ${index}`),
    }));
    const { simulations } = laterBlockPlan([...owners, keeperSteps]);
    expect(simulations).toHaveLength(16);
    expect(simulations.slice(0, 16).every(({ by, actor }) => by === actor)).toBe(true);
  });

  it("with no dormant function, still has each account's staging blocks followed by the holder's trade and the functions others reach", () => {
    const busy = {
      ...keeperSteps,
      succeeded: keeperSteps.succeeded.map((outcome) => ({
        ...outcome,
        effect: effect({ gasUsed: 25_000n }),
      })),
    };
    const { simulations } = laterBlockPlan([ownerSteps, busy]);
    // Each account's own blocks first, then the other's calls of the functions it reaches (an
    // apply that also writes), in turns; then the same blocks in reverse.
    expect(simulations).toHaveLength(16);
    // (The keeper's block is its two writers, TOUCHED last: reversed, TOUCHED first.)
    expect(simulations.slice(8).map(({ by, staged }) => [by === owner, staged[0]?.selector])).toEqual(
      Array.from({ length: 4 }, () => [
        [true, setters[19]],
        [false, TOUCHED],
      ]).flat(),
    );
    expect(simulations.slice(0, 8).map(({ by, actor }) => [by, actor])).toEqual([
      [owner, owner],
      [keeper, keeper],
      [owner, keeper],
      [keeper, owner],
      [owner, owner],
      [keeper, keeper],
      [owner, keeper],
      [keeper, owner],
    ]);
    expect(simulations[2]?.seconds.map((entry) => entry.selector)).toEqual([APPLY, TOUCHED]);
  });
});
