import {
  type Address,
  decodeAbiParameters,
  decodeFunctionData,
  encodeErrorResult,
  encodeFunctionResult,
  type Hex,
  HttpRequestError,
  keccak256,
  type PublicClient,
  stringToHex,
  parseAbi,
  zeroAddress,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { discoverPowers } from './discoverPowers.ts';
import { honeypotDetectorAbi } from './honeypotDetector.ts';
import { EFFECT_GAS } from './probePrivileges.ts';

// How discoverPowers wires its rounds together, against a token simulated in the test (the
// detector's eth_call answered here): a dozen setters that store anything, a `wake` that works
// only a year on, and a `mint` that works only after `wake`. The pairs at the block far exceed
// their budget; the year-on pair (wake, then mint) must still be tried.

const errorAbi = parseAbi(['error Error(string)']);
const SEQUENCE = keccak256(stringToHex('vigil.sequence')).slice(0, 10);
const YEAR = 365 * 86_400;
const BLOCK_TIME = 1_700_000_000n;
const selector = (index: number): Hex => `0x${index.toString(16).padStart(8, '0')}`;
const SETTERS = Array.from({ length: 12 }, (_, index) => selector(0x100 + index));
const WAKE = selector(0xaaa);
const MINT = selector(0xbbb);

/** The calls one probe entry makes: the steps of a SEQUENCE, or the one call. */
const stepsOf = (callData: Hex): Hex[] =>
  callData.startsWith(SEQUENCE)
    ? [...decodeAbiParameters([{ type: 'bytes[]' }], `0x${callData.slice(10)}`)[0]]
    : [callData];

const leg = {
  attempted: true,
  ok: true,
  amountIn: 10n,
  expected: 10n,
  received: 10n,
  gasUsed: 1n,
  revertData: '0x' as Hex,
};
const around = {
  actorBefore: 0n,
  actorAfter: 0n,
  pairBefore: 0n,
  pairAfter: 0n,
  selfBefore: 0n,
  selfAfter: 0n,
  pairWethBefore: 0n,
  pairWethAfter: 0n,
};
const effect = (ok: boolean, minted = false) => ({
  ok,
  revertData: '0x' as Hex,
  gasUsed: ok ? 30_000n : 500n,
  supplyBefore: 1_000n,
  supplyAfter: minted ? 3_000n : 1_000n,
  victimBefore: 100n,
  victimAfter: 100n,
  ownerAfter: zeroAddress,
  victimTransfer: leg,
  victimEarlySell: { ...leg, attempted: false },
  victimSell: { ...leg, attempted: false },
  around,
});

function fakeClient(seen: { offset: number; steps: Hex[] }[]): PublicClient {
  const call = ({ data, blockOverrides }: { data: Hex; blockOverrides?: { time?: bigint } }) => {
    const offset = blockOverrides?.time === undefined ? 0 : Number(blockOverrides.time - BLOCK_TIME);
    const { args } = decodeFunctionData({ abi: honeypotDetectorAbi, data });
    const calls = (args as readonly unknown[])[5] as readonly Hex[];
    const effects = calls.map((callData) => {
      const steps = stepsOf(callData);
      seen.push({ offset, steps });
      let woken = false;
      let last = effect(false);
      for (const step of steps) {
        const sel = step.slice(0, 10) as Hex;
        if (SETTERS.includes(sel)) last = effect(true);
        else if (sel === WAKE) {
          woken = offset >= YEAR;
          last = effect(woken);
        } else if (sel === MINT) last = woken ? effect(true, true) : effect(false);
        else last = effect(false);
      }
      return last;
    });
    return Promise.resolve({
      data: encodeFunctionResult({
        abi: honeypotDetectorAbi,
        functionName: 'probe',
        result: [{ ...leg, attempted: false }, effect(true), effects, EFFECT_GAS],
      }),
    });
  };
  return { call } as unknown as PublicClient;
}

/** Discovery of the fake token's setters, wake and mint, from these accounts. */
function discoverFrom(client: PublicClient, accounts: Address[], more: { clockBlind?: boolean } = {}) {
  return discoverPowers(client, {
    ...more,
    token: '0x2222222222222222222222222222222222222222',
    selectors: new Set([...SETTERS, WAKE, MINT]),
    candidates: accounts.map((address) => ({ address, source: 'deployer' })),
    victim: '0x3333333333333333333333333333333333333333',
    router: undefined,
    pair: undefined,
    supply: 1_000n,
    blockNumber: 100n,
    blockTimestamp: BLOCK_TIME,
  });
}

describe('discoverPowers: the rounds together', () => {
  it('keeps at most six requests at the node at once, however many its rounds send together', async () => {
    const seen: { offset: number; steps: Hex[] }[] = [];
    const inner = fakeClient(seen);
    let open = 0;
    let most = 0;
    const slow = {
      call: async (args: Parameters<PublicClient['call']>[0]) => {
        open++;
        most = Math.max(most, open);
        await new Promise((resolve) => setTimeout(resolve, 2));
        open--;
        return inner.call(args);
      },
    } as unknown as PublicClient;
    const result = await discoverFrom(slow, [
      '0x1111111111111111111111111111111111111111',
      '0x4444444444444444444444444444444444444444',
    ]);
    // Three accounts, each with three rounds side by side and then six: more than six round trips
    // were ready at once.
    expect(result.roundTrips).toBeGreaterThan(12);
    expect(most).toBe(6);
    expect(result.findings.some((finding) => finding.class === 'mint')).toBe(true);
  });

  it('tries the year-on pair of a first call that waits, when the pairs at the block overflow their budget', async () => {
    const seen: { offset: number; steps: Hex[] }[] = [];
    const actor: Address = '0x1111111111111111111111111111111111111111';
    const result = await discoverFrom(fakeClient(seen), [actor]);
    // The pairs at the block alone are more than 288: the budget was cut, and yet...
    expect(result.pairs.planned).toBeGreaterThan(288);
    expect(result.pairs.tried).toBeGreaterThan(288);
    // ...wake, then mint, a year on, was tried and demonstrated the mint.
    const mint = result.findings.find((finding) => finding.class === 'mint');
    expect(mint?.selector).toBe(MINT);
    expect(mint?.prelude?.selector).toBe(WAKE);
    expect(mint?.timeOffsetSeconds).toBe(YEAR);
    // Rescaled calls and three-call sequences stay within their budgets.
    expect(result.rescaled).toBeLessThanOrEqual(96);
    expect(result.triples.tried).toBeLessThanOrEqual(96);
    // Nothing paired at the block was followed a year on: year-on pairs begin with wake.
    const yearPairs = seen.filter((entry) => entry.offset === YEAR && entry.steps.length === 2);
    expect(yearPairs.length).toBeGreaterThan(0);
    expect(yearPairs.every((entry) => entry.steps[0]?.startsWith(WAKE))).toBe(true);
  });
});

describe('discoverPowers: a token the clock cannot change', () => {
  it('makes no call a day or a year on, and makes every call at the block it made before', async () => {
    const actor: Address = '0x1111111111111111111111111111111111111111';
    const timed: { offset: number; steps: Hex[] }[] = [];
    await discoverFrom(fakeClient(timed), [actor]);
    const blind: { offset: number; steps: Hex[] }[] = [];
    const result = await discoverFrom(fakeClient(blind), [actor], { clockBlind: true });
    expect(timed.some((entry) => entry.offset === YEAR)).toBe(true);
    expect(blind.length).toBeGreaterThan(0);
    expect(blind.every((entry) => entry.offset === 0)).toBe(true);
    // The first round at the block is the same call for call (the fake's wake opens only a year
    // on, so what follows it differs).
    const firstAt = (seen: typeof timed) =>
      new Set(
        seen.filter((entry) => entry.offset === 0 && entry.steps.length === 1).map((entry) => entry.steps[0]),
      );
    expect(firstAt(blind)).toEqual(firstAt(timed));
    expect(result.findings.some((finding) => finding.timeOffsetSeconds)).toBe(false);
  });
});

describe('discoverPowers: the repeat round', () => {
  // A sell fee of 2 % that RAMP raises two points a call, for the owner only. The pair is a
  // candidate too, and its opening (the detector's code in the pair's place: no holder could
  // trade through it) answers first.
  const RAMP = selector(0xccc);
  const owner: Address = '0x1111111111111111111111111111111111111111';
  const pair: Address = '0x4444444444444444444444444444444444444444';
  const sell = (feePoints: number) => ({
    ...leg,
    amountIn: 10_000n,
    expected: 10_000n,
    received: BigInt(10_000 - feePoints * 100),
  });
  const rampEffect = (ramps: number, holderCanTrade: boolean) => ({
    ...effect(true),
    victimTransfer: holderCanTrade ? leg : { ...leg, attempted: false },
    victimEarlySell: { ...leg, attempted: false },
    victimSell: holderCanTrade ? sell(2 + 2 * ramps) : { ...leg, attempted: false },
  });

  function rampClient(seen: Hex[][]): PublicClient {
    let answerPair = () => {};
    const pairAnswered = new Promise<void>((resolve) => {
      answerPair = resolve;
    });
    const call = async ({ data, account }: { data: Hex; account: Address }) => {
      const caller = (
        typeof account === 'string' ? account : (account as { address: Address }).address
      ).toLowerCase();
      const fromPair = caller === pair.toLowerCase();
      // The owner's answers wait until the pair has been answered once.
      if (!fromPair) await pairAnswered;
      const { args } = decodeFunctionData({ abi: honeypotDetectorAbi, data });
      const calls = (args as readonly unknown[])[5] as readonly Hex[];
      const effects = calls.map((callData) => {
        const steps = stepsOf(callData);
        if (!fromPair) seen.push(steps);
        const ramps = fromPair ? 0 : steps.filter((step) => step.startsWith(RAMP)).length;
        const known = steps.every((step) => step.startsWith(RAMP) || step.startsWith('0x18160ddd'));
        return known && (ramps > 0 || steps.length > 1) ? rampEffect(ramps, !fromPair) : effect(false);
      });
      if (fromPair) answerPair();
      return {
        data: encodeFunctionResult({
          abi: honeypotDetectorAbi,
          functionName: 'probe',
          result: [{ ...leg, attempted: false }, rampEffect(0, !fromPair), effects, EFFECT_GAS],
        }),
      };
    };
    return { call } as unknown as PublicClient;
  }

  it("raises a fee a step at a time until it tells, measured against the account's own opening", async () => {
    const seen: Hex[][] = [];
    const result = await discoverPowers(rampClient(seen), {
      token: '0x2222222222222222222222222222222222222222',
      selectors: new Set([RAMP]),
      candidates: [
        { address: pair, source: 'the pair' },
        { address: owner, source: 'deployer' },
      ],
      victim: '0x3333333333333333333333333333333333333333',
      router: undefined,
      pair,
      supply: 1_000n,
      blockNumber: 100n,
      blockTimestamp: BLOCK_TIME,
    });
    const limit = result.findings.find((finding) => finding.class === 'limit');
    expect(limit?.caller).toBe(owner);
    expect(limit?.selector).toBe(RAMP);
    // 2 % → 4 % a call: seven calls in a row take it past 10 % more than before.
    expect(limit?.repeats).toBe(7);
    expect(limit?.repeatedCall?.startsWith(RAMP)).toBe(true);
    // The run ends with a read of totalSupply().
    const run = seen.find((steps) => steps.length === 8);
    expect(run?.at(-1)).toBe('0x18160ddd');
  });
});

describe('discoverPowers: the comparison round', () => {
  // GATED mints only for COMPUTED, an account no candidate source names (the trace shows the
  // caller compared with it); BOUNDED mints only when its argument is exactly the lower bound of
  // the range it accepts (1,000 to 50,000; the trace shows both comparisons).
  const GATED = selector(0xddd);
  const BOUNDED = selector(0xeee);
  const COMPUTED: Address = '0x5555555555555555555555555555555555555555';
  const deployer: Address = '0x1111111111111111111111111111111111111111';
  const token: Address = '0x2222222222222222222222222222222222222222';
  const firstWord = (data: Hex) => BigInt(`0x${data.slice(10, 74) || '0'}`);

  function comparingClient(traced: { from: Address; data: Hex }[], canTrace = true): PublicClient {
    const call = ({ data, to }: { data: Hex; to: Address }) => {
      const { args } = decodeFunctionData({ abi: honeypotDetectorAbi, data });
      const calls = (args as readonly unknown[])[5] as readonly Hex[];
      const effects = calls.map((callData) => {
        const sel = callData.slice(0, 10) as Hex;
        if (sel === GATED) return effect(to.toLowerCase() === COMPUTED.toLowerCase(), true);
        if (sel === BOUNDED) return effect(firstWord(callData) === 1_000n, true);
        return effect(false);
      });
      return Promise.resolve({
        data: encodeFunctionResult({
          abi: honeypotDetectorAbi,
          functionName: 'probe',
          result: [{ ...leg, attempted: false }, effect(true), effects, EFFECT_GAS],
        }),
      });
    };
    const request = ({ method, params }: { method: string; params: [{ from: Address; data: Hex }] }) => {
      if (method !== 'debug_traceCall' || !canTrace)
        return Promise.reject(new Error(`the method ${method} does not exist/is not available`));
      const [{ from, data }] = params;
      traced.push({ from, data });
      const hex = (value: bigint) => value.toString(16);
      const word = firstWord(data);
      const c: [string, string, string][] =
        data.slice(0, 10) === GATED
          ? [['EQ', hex(BigInt(from)), hex(BigInt(COMPUTED))]]
          : data.slice(0, 10) === BOUNDED
            ? word < 1_000n
              ? [['LT', hex(word), hex(1_000n)]]
              : [
                  ['LT', hex(word), hex(1_000n)],
                  ['GT', hex(word), hex(50_000n)],
                ]
            : [];
      return Promise.resolve({ c, h: [], s: [], a: [] });
    };
    return { call, request } as unknown as PublicClient;
  }

  const parameters = {
    token,
    selectors: new Set([GATED, BOUNDED]),
    candidates: [{ address: deployer, source: 'deployer' }],
    victim: '0x3333333333333333333333333333333333333333' as Address,
    router: undefined,
    pair: undefined,
    supply: 1_000n,
    blockNumber: 100n,
    blockTimestamp: BLOCK_TIME,
  };

  it('finds a caller computed at run time and a value a range accepts, from the refused calls', async () => {
    const traced: { from: Address; data: Hex }[] = [];
    const result = await discoverPowers(comparingClient(traced), parameters);
    const mints = result.findings.filter((finding) => finding.class === 'mint');
    const byComputed = mints.find((finding) => finding.caller === COMPUTED);
    expect(byComputed?.selector).toBe(GATED);
    expect(byComputed?.callerSource).toBe(`compared with the caller by ${GATED}`);
    const atBound = mints.find((finding) => finding.selector === BOUNDED);
    expect(atBound?.caller).toBe(deployer);
    expect(atBound?.args[0]).toBe('1000 (what the call compared it with)');
    // Three shapes of each function, from the one account: six traces, within the budget.
    expect(traced).toHaveLength(6);
    expect(traced.every((entry) => entry.from === deployer)).toBe(true);
    expect(result.comparisons).toMatchObject({ traced: 6, callers: 1, error: null });
    expect(result.comparisons.calls).toBeGreaterThan(0);
  });

  it('traces a function that refused every account for its rights once, and finds the caller it wanted', async () => {
    // DENIED mints only for KEEPER and says "Unauthorized" to everyone else, as most access checks
    // do: a reason that reads as the caller's lack of rights. OWNED says the same to the deployer
    // but works for OTHER (an ordinary owner-only setter): not refused everywhere, never traced.
    const DENIED = selector(0xfff);
    const OWNED = selector(0xf0f);
    const KEEPER: Address = '0x6666666666666666666666666666666666666666';
    const OTHER: Address = '0x7777777777777777777777777777777777777777';
    const unauthorized = encodeErrorResult({ abi: errorAbi, errorName: 'Error', args: ['Unauthorized'] });
    const traced: { from: Address; data: Hex }[] = [];
    const client = {
      call: ({ data, to }: { data: Hex; to: Address }) => {
        const { args } = decodeFunctionData({ abi: honeypotDetectorAbi, data });
        const calls = (args as readonly unknown[])[5] as readonly Hex[];
        const actor = to.toLowerCase();
        const effects = calls.map((callData) => {
          const sel = callData.slice(0, 10);
          const ok =
            (sel === DENIED && actor === KEEPER.toLowerCase()) ||
            (sel === OWNED && actor === OTHER.toLowerCase());
          if (sel !== DENIED && sel !== OWNED) return effect(false);
          return { ...effect(ok, sel === DENIED), revertData: ok ? '0x' : unauthorized };
        });
        return Promise.resolve({
          data: encodeFunctionResult({
            abi: honeypotDetectorAbi,
            functionName: 'probe',
            result: [{ ...leg, attempted: false }, effect(true), effects, EFFECT_GAS],
          }),
        });
      },
      request: ({ method, params }: { method: string; params: [{ from: Address; data: Hex }] }) => {
        if (method !== 'debug_traceCall')
          return Promise.reject(new Error(`the method ${method} does not exist/is not available`));
        traced.push(params[0]);
        const hex = (value: bigint) => value.toString(16);
        // The access check, and a later time and a bound the function also compares (which a
        // call refused for its caller's rights must not be made again with).
        return Promise.resolve({
          c: [
            ['LT', hex(BLOCK_TIME), hex(BLOCK_TIME + 7n * 86_400n)],
            ['LT', hex(BigInt(`0x${params[0].data.slice(74, 138) || '0'}`)), hex(5_000n)],
            ['EQ', hex(BigInt(params[0].from)), hex(BigInt(KEEPER))],
          ],
          t: hex(BLOCK_TIME),
          h: [],
          s: [],
          a: [],
        });
      },
    } as unknown as PublicClient;
    const result = await discoverPowers(client, {
      ...parameters,
      selectors: new Set([DENIED, OWNED]),
      candidates: [
        { address: deployer, source: 'deployer' },
        { address: OTHER, source: 'slot 1' },
      ],
    });
    // One trace, of the function refused everywhere, from the first account, with a shape that
    // does not send the caller (so the comparison with the caller names the account wanted).
    expect(traced.map((entry) => entry.data.slice(0, 10))).toEqual([DENIED]);
    expect(traced[0]?.from).toBe(deployer);
    expect(traced[0]?.data.slice(10, 74)).not.toBe(deployer.slice(2).toLowerCase().padStart(64, '0'));
    const mint = result.findings.find((finding) => finding.class === 'mint' && finding.selector === DENIED);
    expect(mint?.caller).toBe(KEEPER);
    expect(mint?.callerSource).toBe(`compared with the caller by ${DENIED}`);
    // Another caller, not other words or another time.
    expect(result.comparisons).toMatchObject({ traced: 1, calls: 0, timed: 0, callers: 1 });
  });

  it('carries on without the round when the node cannot trace, and says why', async () => {
    const traced: { from: Address; data: Hex }[] = [];
    const result = await discoverPowers(comparingClient(traced, false), parameters);
    expect(result.findings).toEqual([]);
    expect(result.comparisons).toMatchObject({ traced: 0, calls: 0, callers: 0 });
    expect(result.comparisons.error).toMatch(/does not exist/);
    expect(result.failures).toEqual([]);
  });
});

describe('discoverPowers: the later-block round', () => {
  // PROPOSE stores an amount for COUNCIL alone; EXECUTE, for the KEEPER alone, mints it, but only
  // in a block after the proposal's (it returns without doing anything otherwise, as at the
  // block, where nothing is proposed). In one simulation both calls share a block: only a
  // proposal sent as its own transaction, with the execution in a later block, shows the mint.
  // FREEZE, for the keeper, stops the holder's transfers from the next block on; HALF_A and HALF_B
  // stop them only together (which no one call demonstrates).
  const PROPOSE = selector(0x101);
  const EXECUTE = selector(0x202);
  const SETTER = selector(0x303);
  const FREEZE = selector(0x404);
  const HALF_A = selector(0x505);
  const HALF_B = selector(0x606);
  // WITHDRAW, for the council, takes its proposal back (and writes, with nothing to take back).
  const WITHDRAW = selector(0x707);
  const COUNCIL: Address = '0x1111111111111111111111111111111111111111';
  const KEEPER: Address = '0x4444444444444444444444444444444444444444';
  const token: Address = '0x2222222222222222222222222222222222222222';
  const keeperOnly = encodeErrorResult({ abi: errorAbi, errorName: 'Error', args: ['keeper'] });
  const unauthorized = encodeErrorResult({ abi: errorAbi, errorName: 'Error', args: ['Unauthorized'] });

  type Simulated = {
    staged: { from: Address; to: Address; data: Hex; gasPrice?: Hex }[];
    /** Calls in a block between the staging block and the probe's (vigil-risk/37's middle block). */
    middle: { from: Address; to: Address; data: Hex; gasPrice?: Hex }[];
    actor: Address;
    time: bigint;
    probeGasPrice?: Hex | undefined;
    senderBalance?: Hex | undefined;
  };

  /** The token's answer to one call by `actor`, after `proposed` (a proposal in an earlier block). */
  function answer(actor: Address, callData: Hex, proposed: boolean) {
    const sel = callData.slice(0, 10);
    const is = (account: Address) => actor.toLowerCase() === account.toLowerCase();
    if (sel === PROPOSE || sel === WITHDRAW)
      return is(COUNCIL)
        ? { ...effect(true), gasUsed: 25_000n }
        : { ...effect(false), revertData: unauthorized };
    if (sel === EXECUTE)
      return is(KEEPER)
        ? { ...effect(true, proposed), gasUsed: proposed ? 40_000n : 4_000n }
        : { ...effect(false), revertData: keeperOnly };
    if ([SETTER, FREEZE, HALF_A, HALF_B].includes(sel as Hex))
      return is(KEEPER)
        ? { ...effect(true), gasUsed: 22_000n }
        : { ...effect(false), revertData: unauthorized };
    return effect(false);
  }

  function blocksClient(simulated: Simulated[], canSimulate: boolean | Error = true): PublicClient {
    const probeAnswer = (actor: Address, data: Hex, proposed: boolean, frozen = false) => {
      const { args } = decodeFunctionData({ abi: honeypotDetectorAbi, data });
      const calls = (args as readonly unknown[])[5] as readonly Hex[];
      return encodeFunctionResult({
        abi: honeypotDetectorAbi,
        functionName: 'probe',
        result: [
          { ...leg, attempted: false },
          frozen ? { ...effect(true), victimTransfer: { ...leg, ok: false } } : effect(true),
          calls.map((callData) => {
            // A sequence's steps share a block: the last step's answer, never after a proposal.
            const steps = stepsOf(callData);
            return answer(actor, steps.at(-1) as Hex, proposed);
          }),
          EFFECT_GAS,
        ],
      });
    };
    return {
      call: ({ data, to }: { data: Hex; to: Address }) =>
        Promise.resolve({ data: probeAnswer(to, data, false) }),
      request: ({ method, params }: { method: string; params: unknown[] }) => {
        if (canSimulate instanceof Error) return Promise.reject(canSimulate);
        if (method !== 'eth_simulateV1' || !canSimulate)
          return Promise.reject(new Error(`the method ${method} does not exist/is not available`));
        const [{ blockStateCalls }] = params as [
          {
            blockStateCalls: {
              calls: { from: Address; to: Address; data: Hex; gasPrice?: Hex }[];
              blockOverrides?: { time: Hex };
              stateOverrides?: Record<Address, { balance?: Hex }>;
            }[];
          },
        ];
        // The staging block first, the probe's last, and a middle block between them or none.
        const [first] = blockStateCalls;
        const second = blockStateCalls.at(-1);
        const between = blockStateCalls.slice(1, -1);
        const probe = second?.calls[0];
        if (!first || !second || !probe || between.length > 1)
          return Promise.reject(new Error('two or three blocks expected'));
        // As geth: no further than 256 blocks past the base, and the numbers skipped are answered
        // as empty blocks between the two.
        const base = BigInt(params[1] as Hex);
        const number = BigInt((second.blockOverrides as { number?: Hex } | undefined)?.number ?? base + 2n);
        if (number - base > 256n) return Promise.reject(new Error('too many blocks'));
        const fillers = Array.from({ length: Number(number - base) - blockStateCalls.length }, () => ({
          calls: [],
        }));
        simulated.push({
          staged: first.calls,
          middle: between.flatMap((block) => block.calls),
          actor: probe.to,
          time: BigInt(second.blockOverrides?.time ?? 0),
          probeGasPrice: probe.gasPrice,
          senderBalance: first.calls[0] && first.stateOverrides?.[first.calls[0].from]?.balance,
        });
        const stagedOk = first.calls.map((call) => answer(call.from, call.data, false).ok);
        const done = (sel: Hex) =>
          first.calls.some(
            (call, index) => stagedOk[index] && call.data.startsWith(sel) && call.to === token,
          );
        // The council's last word stands: a proposal withdrawn after it was made is gone.
        const last = first.calls.filter(
          (call, index) =>
            stagedOk[index] && (call.data.startsWith(PROPOSE) || call.data.startsWith(WITHDRAW)),
        );
        const proposed = last.at(-1)?.data.startsWith(PROPOSE) ?? false;
        const frozen = done(FREEZE) || (done(HALF_A) && done(HALF_B));
        return Promise.resolve([
          { calls: stagedOk.map((ok) => ({ status: ok ? '0x1' : '0x0', returnData: '0x' })) },
          ...between.map((block) => ({
            calls: block.calls.map(() => ({ status: '0x1', returnData: '0x' })),
          })),
          ...fillers,
          { calls: [{ status: '0x1', returnData: probeAnswer(probe.to, probe.data, proposed, frozen) }] },
        ]);
      },
    } as unknown as PublicClient;
  }

  const parameters = {
    token,
    selectors: new Set([PROPOSE, EXECUTE, SETTER, FREEZE, HALF_A, HALF_B]),
    candidates: [
      { address: KEEPER, source: 'deployer' },
      { address: COUNCIL, source: 'slot 7' },
    ],
    victim: '0x3333333333333333333333333333333333333333' as Address,
    router: undefined,
    pair: undefined,
    supply: 1_000n,
    blockNumber: 100n,
    blockTimestamp: BLOCK_TIME,
  };

  it('finds a mint one account stages and another applies in a later block, with the staging transaction as evidence', async () => {
    const simulated: Simulated[] = [];
    const result = await discoverPowers(blocksClient(simulated), parameters);
    const mint = result.findings.find((finding) => finding.class === 'mint');
    expect(mint?.selector).toBe(EXECUTE);
    expect(mint?.caller).toBe(KEEPER);
    expect(mint?.prelude).toMatchObject({ selector: PROPOSE, caller: COUNCIL, earlierBlock: true });
    // First 254 blocks on at a chain's pace, then 23 hours on: a timelock's day of notice would
    // still hold in both.
    expect(mint?.timeOffsetSeconds).toBe(254 * 12);
    expect(new Set(simulated.map((entry) => entry.time - BLOCK_TIME))).toEqual(new Set([3_048n, 82_800n]));
    // Staged: the council's proposal in a block of its own, the keeper's four setters together in
    // another; the keeper executes after the council's.
    expect(simulated.some((entry) => entry.staged.length === 4 && entry.staged[0]?.from === KEEPER)).toBe(
      true,
    );
    expect(
      simulated.some(
        (entry) => entry.staged.length === 1 && entry.staged[0]?.from === COUNCIL && entry.actor === KEEPER,
      ),
    ).toBe(true);
    expect(result.laterBlock).toMatchObject({ error: null });
    // Each staging account's blocks (in order and reversed), then (for the mint shown) each of its
    // staging calls alone: within the budget of sixteen at each of the two later blocks, and four
    // tries of other accounts after a call a staging block opened (vigil-risk/41).
    expect(result.laterBlock.tried).toBeLessThanOrEqual(2 * (16 + 4));
    expect(simulated.length).toBeGreaterThan(result.laterBlock.tried);
    expect(result.failures).toEqual([]);
  });

  it('finds a freeze that bites from the next block, sent alone as the evidence', async () => {
    const simulated: Simulated[] = [];
    const result = await discoverPowers(blocksClient(simulated), parameters);
    const limits = result.findings.filter((finding) => finding.class === 'limit');
    expect(limits).toHaveLength(1);
    expect(limits[0]).toMatchObject({ selector: FREEZE, caller: KEEPER, measuredLater: true, prelude: null });
    expect(limits[0]?.diff.holder_transfer).toMatch(/^reverted/);
    // The keeper's block of four did it; each alone was tried, and a control block with a call
    // that changes nothing.
    const alone = simulated.filter((entry) => entry.staged.length === 1 && entry.staged[0]?.from === KEEPER);
    expect(new Set(alone.map((entry) => entry.staged[0]?.data.slice(0, 10)))).toEqual(
      new Set([SETTER, FREEZE, HALF_A, HALF_B, '0x18160ddd']),
    );
  });

  it('finds two setters that freeze only together, both sent in one block as the evidence', async () => {
    const simulated: Simulated[] = [];
    const result = await discoverPowers(blocksClient(simulated), {
      ...parameters,
      selectors: new Set([PROPOSE, EXECUTE, SETTER, HALF_A, HALF_B]),
    });
    const limits = result.findings.filter((finding) => finding.class === 'limit');
    expect(limits).toHaveLength(1);
    expect(limits[0]).toMatchObject({
      selector: HALF_B,
      caller: KEEPER,
      measuredLater: true,
      prelude: { selector: HALF_A, caller: KEEPER, earlierBlock: true },
    });
    // Each of the keeper's three staging calls was left out in turn, then the two it needs sent alone.
    const keepers = simulated.filter((entry) => entry.staged[0]?.from === KEEPER);
    const sent = (entry: Simulated) => entry.staged.map((call) => call.data.slice(0, 10)).join();
    expect(keepers.map(sent)).toEqual(
      expect.arrayContaining([`${HALF_A},${HALF_B}`, `${SETTER},${HALF_B}`, `${SETTER},${HALF_A}`]),
    );
    // The setter that does nothing is not part of it.
    expect(limits[0]?.first).toBeNull();
  });

  it('stages a block of several calls again in reverse, where a withdrawal sent after a proposal masks it', async () => {
    const simulated: Simulated[] = [];
    const result = await discoverPowers(blocksClient(simulated), {
      ...parameters,
      selectors: new Set([PROPOSE, WITHDRAW, EXECUTE]),
    });
    const mint = result.findings.find((finding) => finding.class === 'mint');
    expect(mint).toMatchObject({ selector: EXECUTE, caller: KEEPER });
    expect(mint?.prelude).toMatchObject({ selector: PROPOSE, caller: COUNCIL, earlierBlock: true });
    const councils = simulated
      .filter((entry) => entry.staged[0]?.from === COUNCIL)
      .map((entry) => entry.staged.map((call) => call.data.slice(0, 10)).join());
    expect(councils).toEqual(expect.arrayContaining([`${PROPOSE},${WITHDRAW}`, `${WITHDRAW},${PROPOSE}`]));
  });

  it("pays the chain's gas price in both blocks, from balances given to the senders", async () => {
    const simulated: Simulated[] = [];
    await discoverPowers(blocksClient(simulated), { ...parameters, gasPrice: 7n });
    expect(simulated.length).toBeGreaterThan(0);
    for (const entry of simulated) {
      expect(entry.probeGasPrice).toBe('0x7');
      expect(entry.staged.every((call) => call.gasPrice === '0x7')).toBe(true);
      expect(entry.middle.every((call) => call.gasPrice === '0x7')).toBe(true);
      // A million gas per staging call, in either staging block, at 7 wei.
      expect(BigInt(entry.senderBalance ?? 0)).toBe(
        7_000_000n * BigInt(entry.staged.length + entry.middle.length),
      );
    }
  });

  it('carries on without the round when the node cannot simulate blocks, and says why', async () => {
    const simulated: Simulated[] = [];
    const result = await discoverPowers(blocksClient(simulated, false), parameters);
    expect(result.findings.filter((finding) => finding.class === 'mint')).toEqual([]);
    expect(result.laterBlock.error).toMatch(/eth_simulateV1 does not exist/);
    // The scan's other probes stand: no failure that would make every check unknown.
    expect(result.failures).toEqual([]);
  });

  it('loses only the round when the provider refuses the simulation over HTTP, and keeps its key out of the reason', async () => {
    const refused = new HttpRequestError({
      url: 'https://rpc.example.com/v2/secret-key-123',
      status: 405,
      body: { method: 'eth_simulateV1' },
    });
    const result = await discoverPowers(blocksClient([], refused), parameters);
    expect(result.laterBlock.error).toMatch(/HTTP request failed/);
    expect(result.laterBlock.error).not.toMatch(/secret-key-123/);
    expect(result.failures).toEqual([]);
  });
});
