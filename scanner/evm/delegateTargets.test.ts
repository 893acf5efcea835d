import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { delegateTargets } from './delegateTargets.ts';

// A few opcodes, by name, for readable hand-assembled code.
const OP = {
  STOP: '00',
  AND: '16',
  ADDRESS: '30',
  CALLDATALOAD: '35',
  POP: '50',
  SLOAD: '54',
  JUMP: '56',
  JUMPI: '57',
  JUMPDEST: '5b',
  GAS: '5a',
  PUSH0: '5f',
  DUP1: '80',
  SWAP1: '90',
  DELEGATECALL: 'f4',
} as const;
const push1 = (byte: number) => `60${byte.toString(16).padStart(2, '0')}`;
const push20 = (hex: string) => `73${hex.padStart(40, '0')}`;
const code = (...parts: string[]): Hex => `0x${parts.join('')}`;
// The four memory words a DELEGATECALL takes under its target (zeros), then GAS on top is added by
// each case: stack before DELEGATECALL, top first: gas, to, argsOffset, argsSize, retOffset, retSize.
const MEMORY_ARGS = OP.PUSH0.repeat(4);

describe('delegateTargets', () => {
  it('proves a DELEGATECALL to ADDRESS calls the contract itself', () => {
    const result = delegateTargets(code(MEMORY_ARGS, OP.ADDRESS, OP.GAS, OP.DELEGATECALL, OP.STOP));
    expect(result).toEqual({ complete: true, self: [6], elsewhere: [], unreached: [] });
  });

  it('keeps the address through an AND with an address mask, and not through a narrower one', () => {
    const fullMask = push20('f'.repeat(40));
    const narrow = push20('f'.repeat(38) + '00');
    const masked = (mask: string) =>
      delegateTargets(code(MEMORY_ARGS, OP.ADDRESS, mask, OP.AND, OP.GAS, OP.DELEGATECALL, OP.STOP));
    expect(masked(fullMask).self).toHaveLength(1);
    expect(masked(narrow).elsewhere).toHaveLength(1);
  });

  it("keeps the address through a mask built at run time (unoptimized via-IR's (1 << 160) - 1)", () => {
    // PUSH1 1, DUP1, PUSH1 0xa0, SHL, SUB: (1 << 160) - 1, then AND with ADDRESS.
    const runtimeMask = push1(1) + OP.DUP1 + push1(0xa0) + '1b' + '03';
    const result = delegateTargets(
      code(MEMORY_ARGS, OP.ADDRESS, runtimeMask, OP.AND, OP.GAS, OP.DELEGATECALL, OP.STOP),
    );
    expect(result).toMatchObject({ complete: true, elsewhere: [], unreached: [] });
    expect(result.self).toHaveLength(1);
  });

  it('stops within its budget on code whose paths multiply, and says so', () => {
    // A loop that pushes ADDRESS or CALLER on each pass (a calldata word decides): 2^n stacks.
    const result = delegateTargets('0x5b5f35600a57306000565b336000565f5f5f5f305af400');
    expect(result).toMatchObject({ complete: false, stoppedBy: 'budget' });
  });

  it('counts a target read from storage, from calldata or written in the code as elsewhere', () => {
    const stored = delegateTargets(code(MEMORY_ARGS, OP.PUSH0, OP.SLOAD, OP.GAS, OP.DELEGATECALL, OP.STOP));
    const given = delegateTargets(
      code(MEMORY_ARGS, OP.PUSH0, OP.CALLDATALOAD, OP.GAS, OP.DELEGATECALL, OP.STOP),
    );
    const fixed = delegateTargets(
      code(MEMORY_ARGS, push20('ab'.repeat(20)), OP.GAS, OP.DELEGATECALL, OP.STOP),
    );
    for (const result of [stored, given, fixed]) {
      expect(result.complete).toBe(true);
      expect(result.elsewhere).toHaveLength(1);
      expect(result.self).toEqual([]);
    }
  });

  it('follows a shared routine to every caller: a stored target on one path is enough to count', () => {
    // Two paths (a calldata word decides) each push a return point and a target and jump to one
    // routine, which delegates to the target and jumps back: solc's shape for an internal function.
    const routine = (second: string) =>
      assemble([
        OP.PUSH0,
        OP.CALLDATALOAD,
        ['label', 'other'],
        OP.JUMPI,
        ['label', 'back'],
        OP.ADDRESS,
        ['label', 'routine'],
        OP.JUMP,
        ['at', 'other'],
        ['label', 'back'],
        second,
        ['label', 'routine'],
        OP.JUMP,
        ['at', 'back'],
        OP.STOP,
        // [target, back] -> delegatecall(gas, target, 0, 0, 0, 0); drop the flag; return.
        ['at', 'routine'],
        MEMORY_ARGS,
        SWAP4,
        OP.GAS,
        OP.DELEGATECALL,
        OP.POP,
        OP.JUMP,
      ]);
    const bothSelf = delegateTargets(routine(OP.ADDRESS));
    expect(bothSelf).toMatchObject({ complete: true, elsewhere: [], unreached: [] });
    expect(bothSelf.self).toHaveLength(1);
    const oneStored = delegateTargets(routine(OP.PUSH0 + OP.SLOAD));
    expect(oneStored).toMatchObject({ complete: true, self: [], unreached: [] });
    expect(oneStored.elsewhere).toHaveLength(1);
  });

  it('gives up on a jump to a computed place, and reports a site no path reaches', () => {
    const computed = delegateTargets(
      code(OP.PUSH0, OP.CALLDATALOAD, OP.JUMP, OP.JUMPDEST, MEMORY_ARGS, OP.ADDRESS, OP.GAS, OP.DELEGATECALL),
    );
    expect(computed).toMatchObject({ complete: false, stoppedBy: 'computed jump' });
    const dead = delegateTargets(code(OP.STOP, MEMORY_ARGS, OP.ADDRESS, OP.GAS, OP.DELEGATECALL));
    expect(dead).toEqual({ complete: true, self: [], elsewhere: [], unreached: [7] });
  });

  it('ends a loop whose state repeats', () => {
    const loop = assemble([
      ['at', 'top'],
      OP.PUSH0,
      OP.CALLDATALOAD,
      ['label', 'top'],
      OP.JUMPI,
      MEMORY_ARGS,
      OP.ADDRESS,
      OP.GAS,
      OP.DELEGATECALL,
      OP.STOP,
    ]);
    expect(delegateTargets(loop)).toMatchObject({ complete: true, elsewhere: [], unreached: [] });
  });
});

const SWAP4 = '93';
type Item = string | ['label', string] | ['at', string];

/** Hand assembly with labels: ['at', name] marks a JUMPDEST, ['label', name] pushes its offset (PUSH1). */
function assemble(items: readonly Item[]): Hex {
  const size = (item: Item) => (typeof item === 'string' ? item.length / 2 : item[0] === 'at' ? 1 : 2);
  const offsets = new Map<string, number>();
  let at = 0;
  for (const item of items) {
    if (typeof item !== 'string' && item[0] === 'at') offsets.set(item[1], at);
    at += size(item);
  }
  return `0x${items
    .map((item) => {
      if (typeof item === 'string') return item;
      if (item[0] === 'at') return OP.JUMPDEST;
      const offset = offsets.get(item[1]);
      if (offset === undefined) throw new Error(`no label ${item[1]}`);
      return push1(offset);
    })
    .join('')}`;
}
