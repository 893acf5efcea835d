import { describe, expect, it } from 'vitest';
import {
  assemble,
  callRoutine,
  code,
  MEMORY_ARGS,
  OP,
  push1,
  push20,
  ROUTINE,
} from '../../test/support/evmAssembly.ts';
import { delegateTargets } from './delegateTargets.ts';

describe('delegateTargets', () => {
  it('takes a DELEGATECALL byte inside push data for no site', () => {
    // PUSH2 0xfff4 ; STOP, then PUSH1 0 ; DELEGATECALL as an instruction (after the STOP: unreached).
    expect(delegateTargets('0x61fff400')).toEqual({
      complete: true,
      self: [],
      elsewhere: [],
      anywhere: [],
      fixed: [],
      unreached: [],
    });
    expect(delegateTargets('0x006000f4')).toEqual({
      complete: true,
      self: [],
      elsewhere: [],
      anywhere: [],
      fixed: [],
      unreached: [3],
    });
  });

  it('proves a DELEGATECALL to ADDRESS calls the contract itself', () => {
    const result = delegateTargets(code(MEMORY_ARGS, OP.ADDRESS, OP.GAS, OP.DELEGATECALL, OP.STOP));
    expect(result).toEqual({
      complete: true,
      self: [6],
      elsewhere: [],
      anywhere: [],
      fixed: [],
      unreached: [],
    });
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
    // Only the one written in the code is fixed; the others may go anywhere.
    for (const result of [stored, given]) {
      expect(result.anywhere).toEqual(result.elsewhere);
      expect(result.fixed).toEqual([]);
    }
    expect(fixed.anywhere).toEqual([]);
    expect(fixed.fixed).toEqual([`0x${'ab'.repeat(20)}`]);
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
        ...callRoutine(OP.ADDRESS),
        ['at', 'other'],
        ...callRoutine(second),
        ['at', 'back'],
        OP.STOP,
        ...ROUTINE,
      ]).code;
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
    expect(dead).toEqual({
      complete: true,
      self: [],
      elsewhere: [],
      anywhere: [],
      fixed: [],
      unreached: [7],
    });
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
    ]).code;
    expect(delegateTargets(loop)).toMatchObject({ complete: true, elsewhere: [], unreached: [] });
  });
});
