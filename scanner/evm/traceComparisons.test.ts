import type { Address, Hex, PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  argumentWords,
  type CallTrace,
  COMPARISON_TRACER,
  harvestComparisons,
  harvestStoredComparisons,
  harvestTimes,
  traceCalls,
  traceHolderTransfer,
} from './traceComparisons.ts';

const caller = '0xaa016ed72bd7207280b1bec96d97baef78a39376';
const hex = (value: bigint) => value.toString(16);
/** A comparison as the tracer records it: the op, then the top of the stack, then the second. */
const compare = (op: string, top: bigint, second: bigint): CallTrace['c'][number] => [
  op,
  hex(top),
  hex(second),
];
const values = (harvest: ReturnType<typeof harvestComparisons>) =>
  harvest.wanted.map(({ index, value }) => `${index}:${value}`);

describe('harvestComparisons', () => {
  it('reads the bounds a setter compared its argument with, and their neighbours, the last first', () => {
    // require(ppm >= 1_000 && ppm <= 50_000) with ppm = a large number: LT, then GT.
    const ppm = 2n ** 100n;
    const harvest = harvestComparisons([compare('LT', ppm, 1_000n), compare('GT', ppm, 50_000n)], {
      caller,
      words: [ppm, 1n],
    });
    expect(values(harvest)).toEqual(['0:49999', '0:50000', '0:50001', '0:999', '0:1000', '0:1001']);
    expect(harvest.comparisons).toBe(2);
  });

  it('takes an exact value from an equality, never a word the call already sent', () => {
    const harvest = harvestComparisons(
      [compare('EQ', 5n, 1n), compare('EQ', 1n, 2n ** 200n), compare('EQ', 7n, 1n)],
      { caller, words: [5n, 1n] },
    );
    // Last first: 7 for the 1 at index 1, then 2^200; 5 and 1 are both sent words: nothing.
    expect(harvest.wanted).toEqual([
      { index: 1, value: 7n },
      { index: 1, value: 2n ** 200n },
    ]);
  });

  it('drops neighbours a word already holds, and values past a 256-bit word', () => {
    const max = 2n ** 256n - 1n;
    const harvest = harvestComparisons([compare('GT', 3n, max - 1n), compare('LT', 3n, 5n)], {
      caller,
      words: [3n, 4n],
    });
    // 5's neighbours: 4 is sent, so 5 and 6; max - 1's: max - 2 and max - 1 (max is tried anyway).
    expect(values(harvest)).toEqual(['0:5', '0:6', `0:${max - 2n}`, `0:${max - 1n}`]);
  });

  it('takes 0, 1 and the largest word from no comparison (every call tries those), but their neighbours', () => {
    const max = 2n ** 256n - 1n;
    const harvest = harvestComparisons(
      [compare('LT', 3n, max), compare('EQ', 3n, 0n), compare('GT', 3n, 1n)],
      { caller, words: [3n] },
    );
    // x > 1 wants 2; x < max wants max - 1.
    expect(values(harvest)).toEqual(['0:2', `0:${max - 1n}`]);
  });

  it('takes 0 and 1 from a comparison in a word it is told is open (an op code no other shape fills)', () => {
    // An enum's member 1 (and 2) compared with a command's op code 0, and with another word.
    const comparisons = [compare('EQ', 0n, 1n), compare('EQ', 0n, 2n), compare('EQ', 9n, 1n)];
    const words = [0n, 9n];
    expect(values(harvestComparisons(comparisons, { caller, words }))).toEqual(['0:2']);
    expect(values(harvestComparisons(comparisons, { caller, words, open: new Set([0]) }))).toEqual([
      '0:2',
      '0:1',
    ]);
  });

  it('leaves the words it is told to skip (offsets, lengths, a placeholder) alone', () => {
    const harvest = harvestComparisons([compare('EQ', 32n, 96n), compare('EQ', 9n, 4n)], {
      caller,
      words: [32n, 9n],
      skip: new Set([0]),
    });
    expect(harvest.wanted).toEqual([{ index: 1, value: 4n }]);
  });

  it('names an account compared with the caller, not a small constant or the caller itself', () => {
    const wanted = 0x1234567890abcdef1234567890abcdef12345678n;
    const harvest = harvestComparisons(
      [
        compare('EQ', BigInt(caller), wanted),
        compare('EQ', BigInt(caller), 42n),
        compare('EQ', BigInt(caller), BigInt(caller)),
        compare('EQ', BigInt(caller), 2n ** 160n),
      ],
      { caller, words: [] },
    );
    expect(harvest.callers).toEqual(['0x1234567890AbcdEF1234567890aBcdef12345678']);
    expect(harvest.wanted).toEqual([]);
  });

  it('names, from a call that also sent its caller as a word, only the account of the last comparison, an equality with the caller (the check that refused)', () => {
    const listed = 0x1234567890abcdef1234567890abcdef12345678n;
    const guardian = 0x3a37b1a6ff68989cf86609b5c196f126c48a0748n;
    const refused = harvestComparisons(
      [compare('EQ', BigInt(caller), listed), compare('EQ', BigInt(caller), guardian)],
      { caller, words: [BigInt(caller)] },
    );
    expect(refused.callers).toEqual([]);
    expect(refused.refusedBy).toBe('0x3A37b1a6fF68989cf86609b5c196f126c48A0748');
    expect(refused.wanted).toEqual([
      { index: 0, value: guardian },
      { index: 0, value: listed },
    ]);
    // An argument compared with an account, then a later check that refused: nobody named.
    const argument = harvestComparisons([compare('EQ', BigInt(caller), listed), compare('LT', 5n, 3n)], {
      caller,
      words: [BigInt(caller), 5n],
    });
    expect(argument.refusedBy).toBeUndefined();
    expect(argument.callers).toEqual([]);
    // Not an equality: no name either.
    expect(
      harvestComparisons([compare('GT', BigInt(caller), guardian)], { caller, words: [BigInt(caller)] })
        .refusedBy,
    ).toBeUndefined();
  });

  it('names what a compiled EQ compared with the caller before what a SUB and a jump did (decoys after the real check)', () => {
    const keeper = 2n ** 150n + 7n;
    const decoys = [2n ** 151n + 1n, 2n ** 151n + 2n, 2n ** 151n + 3n];
    const harvest = harvestComparisons(
      [
        compare('EQ', BigInt(caller), keeper),
        ...decoys.map((decoy) => compare('SUB', BigInt(caller), decoy)),
        compare('LT', 5n, 9n),
      ],
      { caller, words: [5n] },
    );
    expect(harvest.callers[0]?.toLowerCase()).toBe(`0x${keeper.toString(16).padStart(40, '0')}`);
    expect(harvest.callers).toHaveLength(4);
    // A SUB's value is taken exactly, as an equality's.
    const fromSub = harvestComparisons([compare('SUB', 5n, 2n ** 70n)], { caller, words: [5n] });
    expect(fromSub.wanted).toEqual([{ index: 0, value: 2n ** 70n }]);
  });

  it('caps what one trace yields', () => {
    const steps = Array.from({ length: 20 }, (_, at) => compare('SLT', 3n, 100n + BigInt(at)));
    const harvest = harvestComparisons(steps, { caller, words: [3n] });
    expect(harvest.comparisons).toBe(20);
    expect(harvest.wanted).toHaveLength(8);
  });
});

describe('harvestTimes', () => {
  const now = { timestamp: 1_800_000_000n, number: 5_000n };
  const day = 86_400n;

  it('moves the clock one second past a time ahead the call compared its timestamp with', () => {
    // A window from two days on to thirty: the opening is what is ahead; the close is ahead too.
    const trace = {
      c: [
        compare('LT', now.timestamp, now.timestamp + 2n * day),
        compare('GT', now.timestamp, now.timestamp + 30n * day),
      ],
      t: hex(now.timestamp),
    };
    expect(harvestTimes(trace, now)).toEqual([30n * day + 1n, 2n * day + 1n]);
  });

  it('reads the clock the call read, which may differ from the pinned block’s', () => {
    // The node traced a block later than the pin: the wanted time is absolute all the same.
    const read = now.timestamp + 12n;
    const trace = { c: [compare('LT', read, now.timestamp + day * 3n)], t: hex(read) };
    expect(harvestTimes(trace, now)).toEqual([3n * day + 1n]);
  });

  it('moves the clock by twelve seconds a block for a compared block number', () => {
    const trace = { c: [compare('GT', now.number + 100n, now.number)], n: hex(now.number) };
    expect(harvestTimes(trace, now)).toEqual([101n * 12n]);
  });

  it('leaves times past, times more than ten years on, and a call that read no clock', () => {
    const trace = {
      c: [
        compare('LT', now.timestamp, now.timestamp - day),
        compare('LT', now.timestamp, now.timestamp + 11n * 365n * day),
        compare('EQ', now.timestamp, now.timestamp),
      ],
      t: hex(now.timestamp),
    };
    expect(harvestTimes(trace, now)).toEqual([]);
    expect(harvestTimes({ c: [compare('LT', now.timestamp, now.timestamp + day)] }, now)).toEqual([]);
  });
});

describe('argumentWords', () => {
  it('splits the words after the selector, leaving a partial word out', () => {
    expect(argumentWords(`0x12345678${'0'.repeat(63)}1${'0'.repeat(62)}ffab`)).toEqual([1n, 255n]);
  });
});

/** A client whose debug_traceCall answers `answer(call index)`, counting the calls made. */
function tracingClient(answer: (index: number) => unknown): { client: PublicClient; made: () => number } {
  let made = 0;
  const client = {
    request: ({ method }: { method: string }) => {
      if (method !== 'debug_traceCall') return Promise.reject(new Error(`unexpected ${method}`));
      const reply = answer(made++);
      return reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply);
    },
  } as unknown as PublicClient;
  return { client, made: () => made };
}

const call = { from: caller, to: caller, data: '0x12345678' } as const;
const trace = (extra: Partial<CallTrace> = {}): CallTrace => ({ c: [], h: [], s: [], a: [], ...extra });

describe('traceCalls', () => {
  it('answers nothing found, never an error, when the node cannot trace, and stops asking', async () => {
    const { client, made } = tracingClient(() => new Error('the method debug_traceCall does not exist'));
    const result = await traceCalls(client, {
      blockNumber: 1n,
      calls: Array.from({ length: 10 }, () => call),
    });
    expect(result.traces).toEqual(Array.from({ length: 10 }, () => null));
    expect(result.error).toMatch(/does not exist/);
    // The first batch of eight said it; the other two were never sent.
    expect(made()).toBe(8);
  });

  it('keeps the traces that came back beside the ones that failed or came back malformed', async () => {
    const { client } = tracingClient((index) =>
      index === 0
        ? trace({ c: [['EQ', '1', '2']] })
        : index === 1
          ? { structLogs: [] }
          : index === 2
            ? trace({ c: [['EQ', 'not hex', '2']] })
            : new Error('timeout'),
    );
    const result = await traceCalls(client, { blockNumber: 1n, calls: [call, call, call, call, call] });
    expect(result.traces.map((entry) => entry !== null)).toEqual([true, false, false, false, false]);
    expect(result.error).toMatch(/tracer/);
  });
});

describe('harvestStoredComparisons', () => {
  const to = 0x1234567890abcdef1234567890abcdef12345678n;
  const sent = [to, 1n];

  it("reads the level a policy compares a stored field with (`level != 4`), a flag it tests, and an order's neighbours", () => {
    // `phase > 2` (GT) first, then `level != 4` (EQ) on a field unpacked from a word shared with
    // an owner, then `flags & 8`; equalities and masks before orders, the latest first.
    const trace = {
      k: [
        compare('GT', 7n, 2n),
        compare('AND', 0xffn, 0x1234n),
        compare('EQ', 4n, 2n),
        compare('AND', 8n, 0x10n),
      ],
    };
    // 0xff cleans a packed field (no flag); 1 is every call's already.
    expect(harvestStoredComparisons(trace, sent)).toEqual([8n, 0x10n, 4n, 2n, 0x1234n, 6n]);
  });

  it('takes nothing from comparisons that are the call’s or the clock’s, nor past 2^64', () => {
    const balance = 10n ** 20n;
    const trace = {
      k: [
        // The amount sent against the holder's balance.
        compare('LT', balance, 1n),
        // The stored owner against the receiver: accounts, not levels.
        compare('EQ', to, 0xabcdef0123456789abcdef0123456789abcdef01n),
        // A stored time against the time the call read.
        compare('LT', 0x6000n, 0x6900n),
        // An address cleaned from a packed word.
        compare('AND', 2n ** 160n - 1n, 2n ** 100n),
      ],
      t: '6900',
    };
    expect(harvestStoredComparisons(trace, sent)).toEqual([]);
  });

  it('keeps six at most, and nothing from a trace without the list', () => {
    const trace = { k: [2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n].map((value) => compare('EQ', value, 0n)) };
    expect(harvestStoredComparisons(trace, sent)).toEqual([11n, 10n, 9n, 8n, 7n, 6n]);
    expect(harvestStoredComparisons({}, sent)).toEqual([]);
  });
});

describe('traceHolderTransfer', () => {
  /** The holder's send traced, every account the same one. */
  const holderTransfer = (client: PublicClient, storage?: Record<Address, Record<Hex, Hex>>) =>
    traceHolderTransfer(client, {
      token: caller,
      holder: caller,
      to: caller,
      blockNumber: 1n,
      ...(storage ? { storage } : {}),
    });

  it('keeps the hashes not read as a slot themselves, and the contracts called (not precompiles)', async () => {
    const { client } = tracingClient(() =>
      trace({
        h: ['beef', 'cafe', 'beef'],
        s: ['cafe'],
        a: [
          '1234567890abcdef1234567890abcdef12345678',
          '4',
          'ff00001234567890abcdef1234567890abcdef12345678',
        ],
      }),
    );
    const result = await holderTransfer(client);
    expect(result.hashes).toEqual([0xbeefn]);
    // Masked to 160 bits: the upper bytes of a word are not part of an address.
    expect(result.callees).toEqual(['0x1234567890AbcdEF1234567890aBcdef12345678']);
    expect(result.readsCodeHash).toBe(false);
    expect(result.error).toBeNull();
  });

  it('keeps the small values the transfer compared a stored word with, not the amount it sent', async () => {
    const { client } = tracingClient(() =>
      trace({
        k: [
          ['EQ', '0X4', '0'],
          ['LT', 'de0b6b3a7640000', '1'],
        ],
      }),
    );
    const result = await holderTransfer(client);
    expect(result.compared).toEqual([4n]);
  });

  it('drops a malformed list of what storage reads were compared with, and keeps the rest', async () => {
    const { client } = tracingClient(() => trace({ h: ['beef'], k: [['EQ', 'not hex', '4']] as never }));
    const result = await holderTransfer(client);
    expect(result.hashes).toEqual([0xbeefn]);
    expect(result.compared).toEqual([]);
    expect(result.error).toBeNull();
  });

  it('sets the storage it is given first, as the node’s state overrides', async () => {
    let params: unknown[] = [];
    const client = {
      request: ({ params: sent }: { params: unknown[] }) => {
        params = sent;
        // The balance it was given, compared with the amount: the call's, no field's.
        return Promise.resolve(
          trace({
            k: [
              ['LT', '1', '7'],
              ['EQ', '4', '0'],
            ],
          }),
        );
      },
    } as unknown as PublicClient;
    const slot = `0x${'ab'.repeat(32)}` as const;
    const word = `0x${'0'.repeat(63)}7` as const;
    const result = await holderTransfer(client, { [caller]: { [slot]: word } });
    expect(result.compared).toEqual([4n]);
    expect(result.funded).toBe(true);
    expect(params[2]).toMatchObject({ stateOverrides: { [caller]: { stateDiff: { [slot]: word } } } });
  });

  it('asks again without the storage when the node takes no state overrides', async () => {
    const asked: unknown[] = [];
    const client = {
      request: ({ params }: { params: unknown[] }) => {
        asked.push(params[2]);
        return asked.length === 1
          ? Promise.reject(new Error('unknown field `stateOverrides`'))
          : Promise.resolve(trace({ h: ['beef'] }));
      },
    } as unknown as PublicClient;
    const slot = `0x${'ab'.repeat(32)}` as const;
    const result = await holderTransfer(client, { [caller]: { [slot]: slot } });
    expect(asked).toHaveLength(2);
    expect(asked[1]).not.toHaveProperty('stateOverrides');
    expect(result).toMatchObject({ hashes: [0xbeefn], funded: false, error: null });
  });

  it('says when the transfer read a code hash', async () => {
    const { client } = tracingClient(() => trace({ x: 1 }));
    const result = await holderTransfer(client);
    expect(result.readsCodeHash).toBe(true);
  });

  it('answers nothing, with the reason, when the trace fails', async () => {
    const { client } = tracingClient(() => new Error('HTTP request failed'));
    const result = await holderTransfer(client);
    expect(result).toEqual({
      hashes: [],
      compared: [],
      callees: [],
      readsCodeHash: false,
      funded: false,
      error: 'HTTP request failed',
    });
  });
});

describe('the tracer the node runs', () => {
  interface Step {
    op: string;
    depth: number;
    stack: bigint[];
  }
  /** Runs the tracer's source as a node would, over steps given as (op, depth, stack top first). */
  function run(steps: Step[]): CallTrace {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the tracer is plain JavaScript text by design
    const tracer = new Function(`return (${COMPARISON_TRACER});`)() as {
      step: (log: unknown) => void;
      result: () => CallTrace;
    };
    for (const { op, depth, stack } of steps)
      tracer.step({
        op: { toString: () => op },
        getDepth: () => depth,
        stack: { peek: (at: number) => ({ toString: (radix: number) => (stack[at] ?? 0n).toString(radix) }) },
      });
    return tracer.result();
  }

  it('keeps the last 400 comparisons in order, hashes off the next step, slots read and contracts called', () => {
    const steps: Step[] = [];
    for (let at = 0; at < 450; at++) steps.push({ op: 'LT', depth: 1, stack: [BigInt(at), 7n] });
    steps.push(
      { op: 'KECCAK256', depth: 1, stack: [0n, 64n] },
      { op: 'SLOAD', depth: 1, stack: [0xbeefn] },
      { op: 'SHA3', depth: 1, stack: [0n, 64n] },
      { op: 'CALL', depth: 2, stack: [1000n, 0xabcn] },
      { op: 'STATICCALL', depth: 1, stack: [1000n, 0xdefn] },
    );
    const trace = run(steps);
    expect(trace.c).toHaveLength(400);
    expect(trace.c[0]).toEqual(['LT', (50).toString(16), '7']);
    expect(trace.c.at(-1)).toEqual(['LT', (449).toString(16), '7']);
    // The first hash is the SLOAD's slot (read off the next step); the second's next step is deeper.
    expect(trace.h).toEqual(['beef']);
    expect(trace.s).toEqual(['beef']);
    expect(trace.a).toEqual(['abc', 'def']);
  });

  it('reads the block time and number off the step after the first TIMESTAMP and NUMBER', () => {
    const trace = run([
      { op: 'TIMESTAMP', depth: 1, stack: [9n] },
      { op: 'LT', depth: 1, stack: [0x6900n, 0x7000n] },
      { op: 'TIMESTAMP', depth: 1, stack: [0x6900n] },
      { op: 'NUMBER', depth: 1, stack: [1n] },
      { op: 'GT', depth: 1, stack: [0x1388n, 0x1000n] },
    ]);
    expect(trace.t).toBe('6900');
    expect(trace.n).toBe('1388');
    expect(run([{ op: 'EQ', depth: 1, stack: [1n, 2n] }])).toMatchObject({ t: '', n: '' });
  });

  it('keeps the comparisons and masks made within twelve steps of a storage read, at its depth', () => {
    const filler = (count: number, depth = 1): Step[] =>
      Array.from({ length: count }, () => ({ op: 'POP', depth, stack: [0n] }));
    const trace = run([
      { op: 'EQ', depth: 1, stack: [9n, 9n] },
      { op: 'SLOAD', depth: 1, stack: [0x10n] },
      // The read's answer, then a field unpacked and compared.
      { op: 'SHR', depth: 1, stack: [0x1234n] },
      { op: 'AND', depth: 1, stack: [0xffn, 0x12n] },
      // A call made from here: its steps are not this read's.
      { op: 'EQ', depth: 2, stack: [5n, 5n] },
      ...filler(9),
      { op: 'EQ', depth: 1, stack: [4n, 0x12n] },
      // Past twelve steps of the answer.
      { op: 'LT', depth: 1, stack: [3n, 0x12n] },
    ]);
    expect(trace.k).toEqual([
      ['AND', 'ff', '12'],
      ['EQ', '4', '12'],
    ]);
    // Every comparison is kept in `c` all the same.
    expect(trace.c).toHaveLength(4);
    expect(run([{ op: 'SLOAD', depth: 1, stack: [1n] }]).k).toEqual([]);
  });

  it('notes an EXTCODEHASH, and nothing else does', () => {
    expect(run([{ op: 'EXTCODEHASH', depth: 1, stack: [0xabcn] }]).x).toBe(1);
    expect(run([{ op: 'EXTCODESIZE', depth: 1, stack: [0xabcn] }]).x).toBe(0);
  });

  it("reads a SUB whose result a JUMPI takes at once as an equality (solc's `if (a == b)`), and no other SUB", () => {
    const relayer = 0x05f44027bcc1b7946a468763b89fc26fa3cf3c2an;
    const spender = 0xaa016ed72bd7207280b1bec96d97baef78a39376n;
    const trace = run([
      // if (spender == RELAYER): SUB, the jump target pushed, JUMPI.
      { op: 'SUB', depth: 1, stack: [relayer, spender] },
      { op: 'PUSH2', depth: 1, stack: [relayer - spender] },
      { op: 'JUMPI', depth: 1, stack: [0x1002n, relayer - spender] },
      // Arithmetic: a SUB whose result is stored, then a jump further on.
      { op: 'SUB', depth: 1, stack: [10n, 3n] },
      { op: 'SSTORE', depth: 1, stack: [0n, 7n] },
      { op: 'PUSH2', depth: 1, stack: [0n] },
      { op: 'JUMPI', depth: 1, stack: [0x2000n, 1n] },
      // A SUB in a call, the JUMPI back in its caller.
      { op: 'SUB', depth: 2, stack: [5n, 4n] },
      { op: 'JUMPI', depth: 1, stack: [0x3000n, 1n] },
    ]);
    expect(trace.c).toEqual([['SUB', relayer.toString(16), spender.toString(16)]]);
    // The harvest then wants the relayer where the spender was sent (it is the caller, sent too).
    const harvest = harvestComparisons(trace.c, {
      caller: '0xaa016ed72bd7207280b1bec96d97baef78a39376',
      words: [1n, spender, 5n],
    });
    expect(harvest.wanted).toContainEqual({ index: 1, value: relayer });
  });

  it('keeps fewer than 400 comparisons as they came', () => {
    const trace = run([
      { op: 'EQ', depth: 1, stack: [1n, 2n] },
      { op: 'SGT', depth: 1, stack: [3n, 4n] },
    ]);
    expect(trace.c).toEqual([
      ['EQ', '1', '2'],
      ['SGT', '3', '4'],
    ]);
  });
});
