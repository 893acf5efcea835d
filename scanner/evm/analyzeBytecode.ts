import { getAddress, type Hex } from 'viem';

export interface AnalyzeBytecodeReturnType {
  /** 4-byte values pushed by PUSH4: the function selectors the dispatcher compares against. */
  selectors: Set<Hex>;
  /**
   * Addresses written into the code (a "dev" wallet, say): PUSH20 operands, and PUSH32 operands
   * whose upper 12 bytes are zero (an immutable address).
   */
  addresses: Set<Hex>;
  hasSelfdestruct: boolean;
  /** The code reads tx.origin (ORIGIN), so who sent the transaction may change what a call does. */
  hasOrigin: boolean;
  /** The code reads an account's code hash (EXTCODEHASH): it may keep lists of code hashes. */
  hasCodeHash: boolean;
  /**
   * The code reads the block (its time, number, slot, hash, coinbase, randomness, gas limit, base
   * fees, blob hashes), the gas left, or transient storage (which a new transaction clears), or
   * holds an opcode a fork may define, or is no legacy code: a later block or transaction may
   * change what it does.
   */
  readsBlock: boolean;
  /** The code calls or creates other contracts (CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2). */
  callsOut: boolean;
  /** The code writes storage or transient storage, or can destroy itself (SSTORE, TSTORE, SELFDESTRUCT). */
  writes: boolean;
  /** Target of an EIP-1167 minimal proxy, when the code is one. */
  minimalProxyTarget?: `0x${string}`;
  /** Bytes of executable code analysed (the Solidity metadata tail excluded). */
  codeSize: number;
}

const PUSH1 = 0x60;
const PUSH4 = 0x63;
const PUSH20 = 0x73;
const PUSH32 = 0x7f;
const ORIGIN = 0x32;
const EXTCODEHASH = 0x3f;
const SELFDESTRUCT = 0xff;
const INVALID = 0xfe;
/**
 * BLOCKHASH, COINBASE, TIMESTAMP, NUMBER, PREVRANDAO, GASLIMIT, BASEFEE, BLOBHASH, BLOBBASEFEE,
 * SLOTNUM, TLOAD, TSTORE, and GAS: the gas left differs at a moved clock (a pair writes its price
 * accumulators only when the time moved since its last trade; a fork due within the year reprices).
 */
const BLOCK_OPCODES = new Set([0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x48, 0x49, 0x4a, 0x4b, 0x5a, 0x5c, 0x5d]);

/**
 * Opcodes every chain running Prague defines. Any other byte run as an instruction is one a fork
 * may define (CLZ, 0x1e, came with Osaka): invalid at the block and valid a year on, when the
 * simulation's clock is past the fork's, so code holding one is read as reading the block.
 */
function prague(op: number): boolean {
  return (
    op <= 0x0b ||
    (op >= 0x10 && op <= 0x1d) ||
    op === 0x20 ||
    (op >= 0x30 && op <= 0x4a) ||
    (op >= 0x50 && op <= 0xa4) ||
    (op >= 0xf0 && op <= 0xf5) ||
    op === 0xfa ||
    op >= 0xfd
  );
}
/** SSTORE, TSTORE, SELFDESTRUCT. */
const WRITE_OPCODES = new Set([0x55, 0x5d, 0xff]);
/** CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL. */
const CALL_OPCODES = new Set([0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]);
const MINIMAL_PROXY = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/i;

/**
 * Walks the opcodes of runtime code, skipping PUSH data so bytes inside constants are not
 * mistaken for instructions. Selectors come from PUSH4 immediates, which is how solc and vyper
 * dispatchers compare calldata; a selector being present means the function may exist.
 */
export function analyzeBytecode(code: Hex): AnalyzeBytecodeReturnType {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const end = executableLength(bytes);
  const selectors = new Set<Hex>();
  const addresses = new Set<Hex>();
  let hasSelfdestruct = false;
  let hasOrigin = false;
  let hasCodeHash = false;
  // Block and call opcodes are looked for in the metadata tail too where it could run: a jump
  // may land on a JUMPDEST there (code can hide behind bytes that look like metadata), or the code
  // before it may run on into it.
  const tailRuns = end < bytes.length && tailMayRun(bytes, end);
  // Code that begins with 0xef is no legacy code: an EIP-7702 delegation (another account's code
  // runs in the token's frame) or EOF, whose immediates this sweep does not know.
  const foreign = bytes[0] === 0xef;
  let readsBlock = foreign;
  let callsOut = foreign;
  let writes = foreign;
  for (const [op, i] of instructions(bytes, tailRuns ? bytes.length : end)) {
    if (BLOCK_OPCODES.has(op) || !prague(op)) readsBlock = true;
    if (CALL_OPCODES.has(op)) callsOut = true;
    if (WRITE_OPCODES.has(op)) writes = true;
    // The rest is read from the code proper only.
    if (i >= end) continue;
    if (op === PUSH4 && i + 4 < bytes.length)
      selectors.add(`0x${bytes.subarray(i + 1, i + 5).toString('hex')}`);
    else if (op === PUSH20 && i + 20 < bytes.length)
      addresses.add(`0x${bytes.subarray(i + 1, i + 21).toString('hex')}`);
    // An immutable address: solc writes its value into the deployed code as a 32-byte word.
    else if (
      op === PUSH32 &&
      i + 32 < bytes.length &&
      bytes.subarray(i + 1, i + 13).every((byte) => byte === 0)
    )
      addresses.add(`0x${bytes.subarray(i + 13, i + 33).toString('hex')}`);
    else if (op === SELFDESTRUCT) hasSelfdestruct = true;
    else if (op === ORIGIN) hasOrigin = true;
    else if (op === EXTCODEHASH) hasCodeHash = true;
  }
  const proxy = MINIMAL_PROXY.exec(code);
  const result: AnalyzeBytecodeReturnType = {
    selectors,
    addresses,
    hasSelfdestruct,
    hasOrigin,
    hasCodeHash,
    readsBlock,
    callsOut,
    writes,
    codeSize: end,
  };
  if (proxy?.[1]) result.minimalProxyTarget = getAddress(`0x${proxy[1]}`);
  return result;
}

/** STOP, JUMP, RETURN, REVERT, INVALID, SELFDESTRUCT: what execution does not run on from. */
const TERMINATORS = new Set([0x00, 0x56, 0xf3, 0xfd, 0xfe, 0xff]);
const JUMPDEST = 0x5b;

/**
 * Whether the bytes from `end` on could run: the last instruction before them runs on into them,
 * or they hold a JUMPDEST (as the EVM reads the code: PUSH data skipped from the start).
 */
function tailMayRun(bytes: Buffer, end: number): boolean {
  let last: number | undefined;
  for (const [op, i] of instructions(bytes, bytes.length)) {
    if (i < end) last = op;
    else if (op === JUMPDEST) return true;
  }
  return last === undefined || !TERMINATORS.has(last);
}

/** Length without the CBOR metadata solc appends (its length is in the last two bytes). */
export function executableLength(bytes: Buffer): number {
  if (bytes.length < 4) return bytes.length;
  const metadataLength = bytes.readUInt16BE(bytes.length - 2);
  const start = bytes.length - 2 - metadataLength;
  const first = bytes[start];
  // A CBOR map header (0xa1..0xa5) where the metadata should start; otherwise keep everything.
  if (start > 0 && first !== undefined && first >= 0xa1 && first <= 0xa5) return start;
  return bytes.length;
}

/**
 * Addresses pushed by a contract's constructor: the creation code up to where the code it deploys
 * begins (found by that code's first 64 bytes), or, when that is not found (immutables filled in
 * near its start), up to the INVALID solc ends a constructor with. What follows (the runtime code,
 * its metadata hash, the constructor's arguments) is data whose random bytes would read as PUSH20
 * operands.
 */
export function creationCodeAddresses(creationCode: Hex, runtimeCode?: Hex): Set<Hex> {
  const bytes = Buffer.from(creationCode.slice(2), 'hex');
  const runtime =
    runtimeCode && runtimeCode.length > 2 ? Buffer.from(runtimeCode.slice(2), 'hex') : undefined;
  const cut = runtime ? bytes.indexOf(runtime.subarray(0, 64), 1) : -1;
  const end = cut > 0 ? cut : bytes.length;
  const addresses = new Set<Hex>();
  for (const [op, i] of instructions(bytes, end)) {
    if (op === INVALID && cut <= 0) break;
    if (op === PUSH20 && i + 20 < end) addresses.add(`0x${bytes.subarray(i + 1, i + 21).toString('hex')}`);
  }
  return addresses;
}

/** The opcodes of code up to `end` with their offsets, PUSH data skipped (bytes inside constants are no instructions). */
function* instructions(bytes: Buffer, end: number): Generator<[op: number, at: number]> {
  for (let i = 0; i < end; i++) {
    const op = bytes[i] ?? 0;
    yield [op, i];
    if (op >= PUSH1 && op <= PUSH32) i += op - PUSH1 + 1;
  }
}
