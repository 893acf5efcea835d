import type { Hex } from 'viem';

/** Opcodes by name, for readable hand-assembled EVM code in tests. */
export const OP = {
  STOP: '00',
  AND: '16',
  CLZ: '1e',
  ADDRESS: '30',
  CALLDATALOAD: '35',
  POP: '50',
  SLOAD: '54',
  SSTORE: '55',
  JUMP: '56',
  JUMPI: '57',
  GAS: '5a',
  JUMPDEST: '5b',
  PUSH0: '5f',
  DUP1: '80',
  SWAP1: '90',
  SWAP4: '93',
  LOG1: 'a1',
  CALLCODE: 'f2',
  DELEGATECALL: 'f4',
  STATICCALL: 'fa',
  INVALID: 'fe',
  SELFDESTRUCT: 'ff',
} as const;

export const push1 = (byte: number) => `60${byte.toString(16).padStart(2, '0')}`;
export const push20 = (hex: string) => `73${hex.padStart(40, '0')}`;
export const code = (...parts: string[]): Hex => `0x${parts.join('')}`;
/**
 * The four memory words a DELEGATECALL takes under its target (zeros); each case puts the target
 * and GAS on top: top first, gas, to, argsOffset, argsSize, retOffset, retSize.
 */
export const MEMORY_ARGS = OP.PUSH0.repeat(4);

/** Raw code, ['at', name] (a JUMPDEST named), ['label', name] (PUSH1 of its offset), ['mark', name] (a place, no code). */
export type Item = string | ['label', string] | ['at', string] | ['mark', string];

/** Hand assembly with labels; the code, and where each `at` and `mark` landed. */
export function assemble(items: readonly Item[]): { code: Hex; offsets: Map<string, number> } {
  const size = (item: Item) =>
    typeof item === 'string' ? item.length / 2 : item[0] === 'at' ? 1 : item[0] === 'mark' ? 0 : 2;
  const offsets = new Map<string, number>();
  let at = 0;
  for (const item of items) {
    if (typeof item !== 'string' && item[0] !== 'label') offsets.set(item[1], at);
    at += size(item);
  }
  const body = items
    .map((item) => {
      if (typeof item === 'string') return item;
      if (item[0] === 'at') return OP.JUMPDEST;
      if (item[0] === 'mark') return '';
      const offset = offsets.get(item[1]);
      if (offset === undefined) throw new Error(`no label ${item[1]}`);
      return push1(offset);
    })
    .join('');
  return { code: `0x${body}`, offsets };
}

/**
 * solc's shape for an internal function: a routine at 'routine' takes [target, return point] and
 * delegatecalls the target (gas, target, 0, 0, 0, 0), drops the flag and jumps back; a caller
 * pushes the return point 'back' and a target, and jumps to it.
 */
export const ROUTINE: Item[] = [
  ['at', 'routine'],
  MEMORY_ARGS,
  OP.SWAP4,
  OP.GAS,
  OP.DELEGATECALL,
  OP.POP,
  OP.JUMP,
];
/** A call of ROUTINE whose target is `target` (code pushing one word). */
export const callRoutine = (target: string): Item[] => [
  ['label', 'back'],
  target,
  ['label', 'routine'],
  OP.JUMP,
];
