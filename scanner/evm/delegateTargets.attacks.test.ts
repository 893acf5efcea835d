import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import {
  assemble,
  callRoutine,
  type Item,
  MEMORY_ARGS,
  OP,
  ROUTINE,
} from '../../test/support/evmAssembly.ts';
import { delegateTargets } from './delegateTargets.ts';

/** Appends a 2-byte "metadata length" so executableLength cuts the code at the 'meta' mark. */
function withFakeMetadata(items: readonly Item[]): Hex {
  const { code, offsets } = assemble(items);
  const length = (code.length - 2) / 2 - (offsets.get('meta') ?? 0);
  return `${code}${length.toString(16).padStart(4, '0')}`;
}

// The shared routine of the repo's test: [back, target] -> delegatecall(gas, target, 0,0,0,0); jump back.
const SELF_PATH = callRoutine(OP.ADDRESS);
const STORED_PATH = callRoutine(OP.PUSH0 + OP.SLOAD);

/**
 * A concrete EVM, just the opcodes used here, as the chain runs them (Osaka): jump destinations from
 * the WHOLE code, no metadata cut. Returns the targets of every DELEGATECALL/CALLCODE executed.
 */
function run(code: Hex, calldataWord: bigint, storage0: bigint) {
  const b = Buffer.from(code.slice(2), 'hex');
  const dests = new Set<number>();
  for (let i = 0; i < b.length; i++) {
    const byte = b[i] ?? 0;
    if (byte === 0x5b) dests.add(i);
    if (byte >= 0x60 && byte <= 0x7f) i += byte - 0x5f;
  }
  const SELF = 0x5e1fn;
  const calls: { pc: number; op: string; to: bigint }[] = [];
  const s: bigint[] = [];
  const pop = () => {
    const v = s.pop();
    if (v === undefined) throw new Error('underflow');
    return v;
  };
  for (let pc = 0, n = 0; pc < b.length && n < 10_000; n++) {
    const op = b[pc] ?? 0;
    if (op >= 0x5f && op <= 0x7f) {
      const size = op - 0x5f;
      s.push(
        size
          ? BigInt(
              `0x${b
                .subarray(pc + 1, pc + 1 + size)
                .toString('hex')
                .padEnd(size * 2, '0')}`,
            )
          : 0n,
      );
      pc += size + 1;
      continue;
    }
    if (op >= 0x90 && op <= 0x9f) {
      const j = s.length - 2 - (op - 0x90);
      const top = s.length - 1;
      const [low, high] = [s[j], s[top]];
      if (low === undefined || high === undefined) throw new Error('underflow');
      [s[top], s[j]] = [low, high];
      pc++;
      continue;
    }
    switch (op) {
      case 0x00:
      case 0xfe:
        return { calls, halted: op };
      case 0x1e: {
        const x = pop();
        s.push(x === 0n ? 256n : 255n - BigInt(x.toString(2).length - 1));
        break;
      }
      case 0x30:
        s.push(SELF);
        break;
      case 0x35:
        pop();
        s.push(calldataWord);
        break;
      case 0x50:
        pop();
        break;
      case 0x54:
        pop();
        s.push(storage0);
        break;
      case 0x5a:
        s.push(1_000_000n);
        break;
      case 0x5b:
        break;
      case 0xa1:
        pop();
        pop();
        pop();
        break;
      case 0x56: {
        const t = pop();
        if (!dests.has(Number(t))) throw new Error('bad jump');
        pc = Number(t);
        continue;
      }
      case 0x57: {
        const t = pop();
        const c = pop();
        if (c !== 0n) {
          if (!dests.has(Number(t))) throw new Error('bad jump');
          pc = Number(t);
          continue;
        }
        break;
      }
      case 0xf2:
      case 0xf4: {
        pop();
        const to = pop();
        for (let k = op === 0xf2 ? 5 : 4; k > 0; k--) pop();
        calls.push({ pc, op: op === 0xf2 ? 'CALLCODE' : 'DELEGATECALL', to: to === SELF ? -1n : to });
        s.push(1n);
        break;
      }
      default:
        throw new Error(`op ${op.toString(16)} at ${pc}`);
    }
    pc++;
  }
  return { calls, halted: -1 };
}
const EVIL = 0xbadn; // what slot 0 holds: an address the owner picks
/** What the scanner's external_call check does with the result. */
const passes = (r: ReturnType<typeof delegateTargets>) =>
  r.complete && r.elsewhere.length === 0 && r.unreached.length === 0;

describe('delegateTargets attacks', () => {
  it('1a: code hidden behind a fake metadata length, reached by a jump, feeds a stored target to the self site', () => {
    const bytecode = withFakeMetadata([
      OP.PUSH0,
      OP.CALLDATALOAD,
      ['label', 'hidden'],
      OP.JUMPI,
      ...SELF_PATH,
      ['at', 'back'],
      OP.STOP,
      ...ROUTINE,
      OP.INVALID,
      ['mark', 'meta'],
      OP.LOG1, // 0xa1: a "CBOR map" header for executableLength
      ['at', 'hidden'],
      ...STORED_PATH,
    ]);
    // At run time, calldata word != 0 sends the one DELEGATECALL to the stored address.
    expect(run(bytecode, 1n, EVIL).calls).toEqual([
      expect.objectContaining({ op: 'DELEGATECALL', to: EVIL }),
    ]);
    const result = delegateTargets(bytecode);
    // Today: { complete: true, self: [20], elsewhere: [], unreached: [] } -> external_call PASSES.
    expect(result).not.toEqual({ complete: true, self: [20], elsewhere: [], unreached: [] });
    expect(passes(result)).toBe(false);
  });

  it('1b: the same, reached by falling through the cut (no jump at all)', () => {
    const bytecode = withFakeMetadata([
      OP.PUSH0,
      OP.CALLDATALOAD,
      ['label', 'fall'],
      OP.JUMPI,
      ...SELF_PATH,
      ['at', 'back'],
      OP.STOP,
      ...ROUTINE,
      ['at', 'fall'],
      OP.PUSH0,
      OP.PUSH0,
      OP.PUSH0,
      ['mark', 'meta'],
      OP.LOG1, // executed: LOG1(0, 0, topic 0)
      ...STORED_PATH,
    ]);
    expect(run(bytecode, 1n, EVIL).calls).toEqual([
      expect.objectContaining({ op: 'DELEGATECALL', to: EVIL }),
    ]);
    expect(passes(delegateTargets(bytecode))).toBe(false);
  });

  it('2: CALLCODE runs a stored address in the token storage and is not looked at', () => {
    const bytecode: Hex = assemble([
      OP.PUSH0,
      OP.CALLDATALOAD,
      ['label', 'other'],
      OP.JUMPI,
      MEMORY_ARGS,
      OP.ADDRESS,
      OP.GAS,
      OP.DELEGATECALL,
      OP.STOP,
      // callcode(gas, sload(0), value 0, 0, 0, 0, 0)
      ['at', 'other'],
      MEMORY_ARGS,
      OP.PUSH0,
      OP.PUSH0,
      OP.SLOAD,
      OP.GAS,
      OP.CALLCODE,
      OP.STOP,
    ]).code;
    expect(run(bytecode, 1n, EVIL).calls).toEqual([expect.objectContaining({ op: 'CALLCODE', to: EVIL })]);
    const result = delegateTargets(bytecode);
    // Today: { complete: true, self: [11], elsewhere: [], unreached: [] } -> PASSES.
    expect(passes(result)).toBe(false);
  });

  it('3: an opcode the table lacks but the chain runs (CLZ, 0x1e, Osaka) hides the path after it', () => {
    const bytecode: Hex = assemble([
      OP.PUSH0,
      OP.CALLDATALOAD,
      ['label', 'other'],
      OP.JUMPI,
      ...SELF_PATH,
      ['at', 'other'],
      OP.PUSH0,
      OP.CLZ,
      OP.POP,
      ...STORED_PATH,
      ['at', 'back'],
      OP.STOP,
      ...ROUTINE,
    ]).code;
    const calls = run(bytecode, 1n, EVIL).calls;
    expect(calls).toHaveLength(1);
    expect(calls[0]?.to).toBe(EVIL);
    // Today: { complete: true, self: [31], elsewhere: [], unreached: [] } -> PASSES.
    expect(passes(delegateTargets(bytecode))).toBe(false);
  });
});
