import type { Hex } from 'viem';
import { executableLength } from './analyzeBytecode.ts';

/**
 * Where a contract's DELEGATECALLs (and CALLCODEs) go, read from its code without running it.
 *
 * A DELEGATECALL or a CALLCODE runs other code in the contract's own storage, so one whose target
 * an insider picks is a power over every balance. One whose target is the contract itself (ADDRESS) runs only
 * the contract's own functions, which the probes already call: OpenZeppelin's Multicall is that,
 * and so are most batch functions of modern tokens.
 *
 * Hand-written because no library answers it (the symbolic decompiler sevm, tried on the corpus,
 * reached none of three such sites): every path from the entry is walked with a stack of three
 * kinds of value, a constant (what PUSH pushed), the contract's own address (what ADDRESS pushed)
 * and anything else. Arithmetic on constants is kept only where it builds a mask (a result of 2^64
 * or more that is a power of two, one less, or the complement of either: a loop counter never is,
 * so loops are not unrolled and states stay few), and an AND with an all-ones address
 * mask keeps what it masks (how solc cleans an address). Jumps go where a constant says; a path is
 * not walked twice with the same stack at the same place, so loops end. Sound, never a guess: a
 * jump to a computed place, an opcode the table lacks, a path that runs past where the metadata
 * is said to begin (an attacker can write any length there), or more work than the budget, gives
 * `complete: false`, and the caller treats every site as going anywhere.
 */
export interface DelegateTargetsReturnType {
  /** Every path was walked (no computed jump, within the budget). */
  complete: boolean;
  /** Why not, when not. */
  stoppedBy?: 'computed jump' | 'unknown opcode' | 'code past the metadata' | 'budget';
  /** Sites (by offset) whose target, on some walked path, was not the contract itself. */
  elsewhere: number[];
  /** Sites whose target, on some walked path, was neither the contract itself nor a constant. */
  anywhere: number[];
  /** The constant targets the sites reached: the addresses (the low 160 bits the EVM keeps). */
  fixed: Hex[];
  /** Sites reached only with the contract's own address as the target. */
  self: number[];
  /** Sites no walked path reached (dead code, or data read as code). */
  unreached: number[];
}

const SELF = 'A';
const ANY = '?';
type Value = typeof SELF | typeof ANY | bigint;

const STOP = 0x00;
const AND = 0x16;
const ADDRESS = 0x30;
const JUMP = 0x56;
const JUMPI = 0x57;
const JUMPDEST = 0x5b;
const PUSH0 = 0x5f;
const PUSH32 = 0x7f;
const DUP1 = 0x80;
const DUP16 = 0x8f;
const SWAP1 = 0x90;
const SWAP16 = 0x9f;
const CALLCODE = 0xf2;
const DELEGATECALL = 0xf4;
const ENDS = new Set([
  STOP,
  0xf3 /* RETURN */,
  0xfd /* REVERT */,
  0xfe /* INVALID */,
  0xff /* SELFDESTRUCT */,
]);
const ADDRESS_MASK = (1n << 160n) - 1n;
/** Instructions walked at most, all paths together: a large token takes a few hundred thousand. */
const STEP_BUDGET = 3_000_000;
/**
 * Characters of the keys states are remembered by, at most, all together (a large token's are a
 * few hundred thousand): what bounds the memory of a walk whose stacks grow (about 2 bytes each).
 */
const KEY_BUDGET = 16_000_000;
/** Folded constants below this are left unknown: a counter, never a mask. */
const FOLD_FLOOR = 1n << 64n;
const WORD = (1n << 256n) - 1n;
const STACK_LIMIT = 1024;

/** [items taken, items given] for every opcode other than PUSH, DUP and SWAP (the Yellow Paper's δ and α). */
const ARITY: Record<number, [number, number]> = {
  // 0x01-0x0b: ADD MUL SUB DIV SDIV MOD SMOD ADDMOD MULMOD EXP SIGNEXTEND
  0x01: [2, 1],
  0x02: [2, 1],
  0x03: [2, 1],
  0x04: [2, 1],
  0x05: [2, 1],
  0x06: [2, 1],
  0x07: [2, 1],
  0x08: [3, 1],
  0x09: [3, 1],
  0x0a: [2, 1],
  0x0b: [2, 1],
  // 0x10-0x1d: LT GT SLT SGT EQ ISZERO AND OR XOR NOT BYTE SHL SHR SAR
  0x10: [2, 1],
  0x11: [2, 1],
  0x12: [2, 1],
  0x13: [2, 1],
  0x14: [2, 1],
  0x15: [1, 1],
  0x16: [2, 1],
  0x17: [2, 1],
  0x18: [2, 1],
  0x19: [1, 1],
  0x1a: [2, 1],
  0x1b: [2, 1],
  0x1c: [2, 1],
  0x1d: [2, 1],
  0x20: [2, 1], // KECCAK256
  // 0x30-0x3f: ADDRESS BALANCE ORIGIN CALLER CALLVALUE CALLDATALOAD CALLDATASIZE CALLDATACOPY
  // CODESIZE CODECOPY GASPRICE EXTCODESIZE EXTCODECOPY RETURNDATASIZE RETURNDATACOPY EXTCODEHASH
  0x30: [0, 1],
  0x31: [1, 1],
  0x32: [0, 1],
  0x33: [0, 1],
  0x34: [0, 1],
  0x35: [1, 1],
  0x36: [0, 1],
  0x37: [3, 0],
  0x38: [0, 1],
  0x39: [3, 0],
  0x3a: [0, 1],
  0x3b: [1, 1],
  0x3c: [4, 0],
  0x3d: [0, 1],
  0x3e: [3, 0],
  0x3f: [1, 1],
  // 0x40-0x4a: BLOCKHASH COINBASE TIMESTAMP NUMBER PREVRANDAO GASLIMIT CHAINID SELFBALANCE
  // BASEFEE BLOBHASH BLOBBASEFEE
  0x40: [1, 1],
  0x41: [0, 1],
  0x42: [0, 1],
  0x43: [0, 1],
  0x44: [0, 1],
  0x45: [0, 1],
  0x46: [0, 1],
  0x47: [0, 1],
  0x48: [0, 1],
  0x49: [1, 1],
  0x4a: [0, 1],
  // 0x50-0x5e: POP MLOAD MSTORE MSTORE8 SLOAD SSTORE JUMP JUMPI PC MSIZE GAS JUMPDEST TLOAD
  // TSTORE MCOPY
  0x50: [1, 0],
  0x51: [1, 1],
  0x52: [2, 0],
  0x53: [2, 0],
  0x54: [1, 1],
  0x55: [2, 0],
  0x56: [1, 0],
  0x57: [2, 0],
  0x58: [0, 1],
  0x59: [0, 1],
  0x5a: [0, 1],
  0x5b: [0, 0],
  0x5c: [1, 1],
  0x5d: [2, 0],
  0x5e: [3, 0],
  // LOG0-LOG4
  0xa0: [2, 0],
  0xa1: [3, 0],
  0xa2: [4, 0],
  0xa3: [5, 0],
  0xa4: [6, 0],
  // CREATE CALL CALLCODE RETURN DELEGATECALL CREATE2 STATICCALL REVERT INVALID SELFDESTRUCT
  0xf0: [3, 1],
  0xf1: [7, 1],
  0xf2: [7, 1],
  0xf3: [2, 0],
  0xf4: [6, 1],
  0xf5: [4, 1],
  0xfa: [6, 1],
  0xfd: [2, 0],
  0xfe: [0, 0],
  0xff: [1, 0],
  0x00: [0, 0],
};

export function delegateTargets(code: Hex): DelegateTargetsReturnType {
  const bytes = Buffer.from(code.slice(2), 'hex');
  // Sites are counted up to the metadata; jump destinations anywhere, as the EVM finds them.
  const end = executableLength(bytes);
  const jumpdests = new Set<number>();
  const sites: number[] = [];
  let anyCallBeyond = false;
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i] ?? 0;
    if (op === JUMPDEST) jumpdests.add(i);
    else if (op === DELEGATECALL || op === CALLCODE) {
      if (i < end) sites.push(i);
      else anyCallBeyond = true;
    }
    if (op > PUSH0 && op <= PUSH32) i += op - PUSH0;
  }
  const targets = new Map<number, Set<Value>>();
  const result = (
    complete: boolean,
    stoppedBy?: DelegateTargetsReturnType['stoppedBy'],
  ): DelegateTargetsReturnType => {
    const reached = (site: number) => targets.get(site);
    return {
      complete,
      ...(stoppedBy ? { stoppedBy } : {}),
      elsewhere: sites.filter((site) => [...(reached(site) ?? [])].some((target) => target !== SELF)),
      anywhere: sites.filter((site) => [...(reached(site) ?? [])].some((target) => target === ANY)),
      fixed: [
        ...new Set(
          [...targets.values()].flatMap((seen) =>
            [...seen].flatMap((target): Hex[] =>
              typeof target === 'bigint'
                ? [`0x${(target & ADDRESS_MASK).toString(16).padStart(40, '0')}`]
                : [],
            ),
          ),
        ),
      ],
      self: sites.filter((site) => {
        const seen = reached(site);
        return seen !== undefined && [...seen].every((target) => target === SELF);
      }),
      unreached: sites.filter((site) => !reached(site)),
    };
  };
  if (sites.length === 0 && !anyCallBeyond) return result(true);

  const seen = new Set<string>();
  const work: { pc: number; stack: Value[] }[] = [{ pc: 0, stack: [] }];
  let steps = 0;
  let keyed = 0;
  // A state at a block's start, unless this very state was walked from there already.
  const enqueue = (pc: number, stack: Value[]) => {
    const key = `${pc}|${stack.join(',')}`;
    keyed += key.length;
    if (seen.has(key)) return;
    seen.add(key);
    work.push({ pc, stack });
  };
  for (let state = work.pop(); state; state = work.pop()) {
    let { pc } = state;
    const stack = [...state.stack];
    for (;;) {
      if (++steps > STEP_BUDGET || keyed > KEY_BUDGET) return result(false, 'budget');
      // Past where the metadata is said to begin: code an attacker may have hidden there.
      if (pc >= end) {
        if (pc < bytes.length) return result(false, 'code past the metadata');
        break;
      }
      if (stack.length > STACK_LIMIT) break;
      const op = bytes[pc] ?? 0;
      if (op >= PUSH0 && op <= PUSH32) {
        const size = op - PUSH0;
        stack.push(
          size === 0
            ? 0n
            : BigInt(
                `0x${bytes
                  .subarray(pc + 1, pc + 1 + size)
                  .toString('hex')
                  .padEnd(size * 2, '0')}`,
              ),
        );
        pc += size + 1;
        continue;
      }
      if (op >= DUP1 && op <= DUP16) {
        const value = stack[stack.length - 1 - (op - DUP1)];
        if (value === undefined) break;
        stack.push(value);
        pc++;
        continue;
      }
      if (op >= SWAP1 && op <= SWAP16) {
        const other = stack.length - 2 - (op - SWAP1);
        if (other < 0) break;
        const top = stack.length - 1;
        [stack[top], stack[other]] = [stack[other] as Value, stack[top] as Value];
        pc++;
        continue;
      }
      const arity = ARITY[op];
      // An opcode the table lacks may be one the chain runs (a fork's new one): nothing after it is known.
      if (!arity) return result(false, 'unknown opcode');
      // Too short a stack is a path no call takes (the EVM halts there).
      if (stack.length < arity[0]) break;
      const taken = stack.splice(stack.length - arity[0], arity[0]).reverse();
      if (op === JUMP || op === JUMPI) {
        const target = taken[0];
        if (typeof target !== 'bigint') return result(false, 'computed jump');
        if (op === JUMPI) enqueue(pc + 1, stack);
        if (target < BigInt(bytes.length) && jumpdests.has(Number(target))) enqueue(Number(target), stack);
        break;
      }
      if (op === DELEGATECALL || op === CALLCODE) {
        const to = taken[1] ?? ANY;
        targets.set(pc, (targets.get(pc) ?? new Set<Value>()).add(to));
      }
      if (ENDS.has(op)) break;
      if (op === ADDRESS) stack.push(SELF);
      else if (op === AND) stack.push(masked(taken[0] ?? ANY, taken[1] ?? ANY));
      else if (arity[1] === 1) stack.push(folded(op, taken));
      pc++;
    }
  }
  return result(true);
}

/** A mask solc builds at run time (`(1 << 160) - 1`, unoptimized via-IR): constants folded, 2^64 or more. */
function folded(op: number, taken: readonly Value[]): Value {
  const [a, b] = taken;
  if (typeof a !== 'bigint' || (taken.length > 1 && typeof b !== 'bigint')) return ANY;
  const y = typeof b === 'bigint' ? b : 0n;
  let value: bigint;
  if (op === 0x01) value = (a + y) & WORD;
  else if (op === 0x03) value = (a - y) & WORD;
  else if (op === 0x17) value = a | y;
  else if (op === 0x18) value = a ^ y;
  else if (op === 0x19) value = ~a & WORD;
  else if (op === 0x1b)
    value = a < 256n ? (y << a) & WORD : 0n; // SHL: shift, value
  else if (op === 0x1c)
    value = a < 256n ? y >> a : 0n; // SHR
  else return ANY;
  return value >= FOLD_FLOOR && maskLike(value) ? value : ANY;
}

/** A power of two, one less than one (low ones), or the complement of either: the steps of a mask. */
function maskLike(value: bigint): boolean {
  const power = (x: bigint) => x > 0n && (x & (x - 1n)) === 0n;
  const inverse = ~value & WORD;
  return power(value) || power(value + 1n) || power(inverse) || power(inverse + 1n);
}

/** AND as solc uses it on an address: a mask of at least the low 160 bits keeps the value. */
function masked(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a & b;
  const [mask, value] = typeof a === 'bigint' ? [a, b] : [b, a];
  return typeof mask === 'bigint' && (mask & ADDRESS_MASK) === ADDRESS_MASK ? value : ANY;
}
