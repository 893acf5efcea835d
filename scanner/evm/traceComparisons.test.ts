import { describe, expect, it } from 'vitest';
import { argumentWords, harvestComparisons, harvestHashes, type StructLog } from './traceComparisons.ts';

const caller = '0xaa016ed72bd7207280b1bec96d97baef78a39376';
const hex = (value: bigint) => `0x${value.toString(16)}`;
/** A comparison step as geth's struct logger shows it: operands on top of the stack, top last. */
const compare = (op: string, top: bigint, second: bigint, below: bigint[] = [7n]): StructLog => ({
  op,
  stack: [...below, second, top].map(hex),
});

describe('harvestComparisons', () => {
  it('reads the bounds a setter compared its argument with, and their neighbours', () => {
    // require(ppm >= 1_000 && ppm <= 50_000) with ppm = the caller's address as a number: LT, GT.
    const harvest = harvestComparisons(
      [compare('LT', BigInt(caller), 1_000n), compare('GT', BigInt(caller), 50_000n)],
      { caller, words: [BigInt(caller), 1n] },
    );
    const values = harvest.wanted.map(({ index, value }) => `${index}:${value}`);
    expect(values).toEqual(['0:999', '0:1000', '0:1001', '0:49999', '0:50000', '0:50001']);
    expect(harvest.comparisons).toBe(2);
  });

  it('takes an exact value from an equality, never a word the call already sent', () => {
    const harvest = harvestComparisons(
      [compare('EQ', 7n, 1n), compare('EQ', 1n, 2n ** 200n), compare('EQ', 5n, 1n)],
      { caller, words: [5n, 1n] },
    );
    // 7 for the 1 at index 1; 2^200 for it too; 5 and 1 are both sent words: nothing.
    expect(harvest.wanted).toEqual([
      { index: 1, value: 7n },
      { index: 1, value: 2n ** 200n },
    ]);
  });

  it('names an account compared with the caller, not a small constant or the caller itself', () => {
    const wanted = 0x1234567890abcdef1234567890abcdef12345678n;
    const harvest = harvestComparisons(
      [
        compare('EQ', BigInt(caller), wanted),
        compare('EQ', BigInt(caller), 42n),
        compare('EQ', BigInt(caller), BigInt(caller)),
      ],
      { caller, words: [] },
    );
    expect(harvest.callers).toEqual(['0x1234567890AbcdEF1234567890aBcdef12345678']);
    expect(harvest.wanted).toEqual([]);
  });

  it('skips steps without a stack and other op codes, and caps what one trace yields', () => {
    const steps: StructLog[] = [{ op: 'EQ' }, { op: 'ADD', stack: ['0x1', '0x2'] }];
    for (let value = 100n; value < 120n; value++) steps.push(compare('SLT', 3n, value));
    const harvest = harvestComparisons(steps, { caller, words: [3n] });
    expect(harvest.comparisons).toBe(20);
    expect(harvest.wanted).toHaveLength(8);
  });

  it('reads words geth prints without a 0x prefix', () => {
    const harvest = harvestComparisons([{ op: 'GT', stack: ['0a', '3'] }], { caller, words: [3n] });
    expect(harvest.wanted.map(({ value }) => value)).toEqual([9n, 10n, 11n]);
  });
});

describe('harvestHashes', () => {
  it('reads each keccak256 result off the next step at the same depth, once', () => {
    const logs = [
      { op: 'KECCAK256', depth: 1, stack: ['0x40', '0x0'] },
      { op: 'SLOAD', depth: 1, stack: ['0xbeef'] },
      { op: 'SHA3', depth: 1, stack: ['0x40', '0x0'] },
      { op: 'SLOAD', depth: 1, stack: ['0xbeef'] },
      { op: 'SHA3', depth: 1, stack: ['0x40', '0x0'] },
      { op: 'STOP', depth: 2, stack: ['0xdead'] },
    ];
    expect(harvestHashes(logs)).toEqual([0xbeefn]);
  });
});

describe('argumentWords', () => {
  it('splits the words after the selector, leaving a partial word out', () => {
    expect(argumentWords(`0x12345678${'0'.repeat(63)}1${'0'.repeat(62)}ff${'ab'}`)).toEqual([1n, 255n]);
  });
});
