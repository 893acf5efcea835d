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
  for (const [op, i] of instructions(bytes, end)) {
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
    codeSize: end,
  };
  if (proxy?.[1]) result.minimalProxyTarget = getAddress(`0x${proxy[1]}`);
  return result;
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
