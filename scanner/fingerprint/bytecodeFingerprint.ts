import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * A fingerprint of an EVM contract's runtime code that survives what a cloner changes: the
 * compiler's metadata trailer is cut off and every PUSH immediate (addresses, names, fees, jump
 * targets) is dropped, leaving the normalised opcode sequence. From it:
 *
 * - `code_hash`: SHA-256 of that sequence; equal for clones that differ only in constants.
 * - `minhash`: 128 minima over the sequence's 4-opcode shingles; the share of equal slots of two
 *   fingerprints estimates the Jaccard similarity of their shingle sets (±0.09 at 95 %).
 * - `vector`: the shingles hashed into 256 signed buckets, unit length; cosine similarity of
 *   two vectors ranks candidates in a vector index before MinHash decides.
 * - `selectors`: the function selectors the dispatcher compares against (PUSH4 … EQ).
 *
 * Pure and deterministic: the scanner stores one with every EVM scan, retrieval indexes them
 * for find_similar_tokens, and the risk model can cite a near-clone of a known harmful token.
 */
const FINGERPRINT_VERSION = 'bcfp/1';
export const MINHASH_SIZE = 128;
export const VECTOR_SIZE = 256;
const SHINGLE = 4;

export const BytecodeFingerprint = z
  .object({
    version: z.literal(FINGERPRINT_VERSION),
    code_hash: z.string().regex(/^[0-9a-f]{64}$/),
    /** Bytes of runtime code, metadata trailer excluded. */
    code_size: z.number().int().nonnegative(),
    opcode_count: z.number().int().nonnegative(),
    selectors: z.array(z.string().regex(/^0x[0-9a-f]{8}$/)),
    minhash: z.array(z.number().int().nonnegative()).length(MINHASH_SIZE),
    vector: z.array(z.number()).length(VECTOR_SIZE),
  })
  .meta({ id: 'BytecodeFingerprint' });
export type BytecodeFingerprint = z.infer<typeof BytecodeFingerprint>;

export interface FingerprintSimilarity {
  /** MinHash estimate of the Jaccard similarity of the opcode shingles, 0 to 1. */
  similarity: number;
  /** Jaccard similarity of the selector sets (null when either has none). */
  selector_overlap: number | null;
  /** Same normalised code: a clone up to constants. */
  identical_code: boolean;
}

/** The fingerprint of runtime code (0x-hex), or undefined for an account without code. */
export function bytecodeFingerprint(code: string): BytecodeFingerprint | undefined {
  const bytes = Buffer.from(code.replace(/^0x/i, ''), 'hex');
  if (bytes.length === 0) return undefined;
  const body = withoutMetadata(bytes);
  const { opcodes, selectors } = disassemble(body);
  const shingles = shingleHashes(opcodes);
  return {
    version: FINGERPRINT_VERSION,
    code_hash: createHash('sha256').update(Uint8Array.from(opcodes)).digest('hex'),
    code_size: body.length,
    opcode_count: opcodes.length,
    selectors: [...selectors].sort(),
    minhash: minhash(shingles),
    vector: hashedVector(shingles),
  };
}

export function fingerprintSimilarity(a: BytecodeFingerprint, b: BytecodeFingerprint): FingerprintSimilarity {
  let equal = 0;
  for (let i = 0; i < MINHASH_SIZE; i++) if (a.minhash[i] === b.minhash[i]) equal++;
  return {
    similarity: equal / MINHASH_SIZE,
    selector_overlap: jaccard(a.selectors, b.selectors),
    identical_code: a.code_hash === b.code_hash,
  };
}

function jaccard(a: readonly string[], b: readonly string[]): number | null {
  if (a.length === 0 || b.length === 0) return null;
  const left = new Set(a);
  const shared = b.filter((item) => left.has(item)).length;
  return shared / (left.size + new Set(b).size - shared);
}

/**
 * Solidity and Vyper end runtime code with a CBOR map (compiler version, source hash) whose
 * length is the last two bytes; it changes with any comment or path, so it is no part of a clone.
 */
function withoutMetadata(code: Buffer): Buffer {
  if (code.length < 4) return code;
  const length = code.readUInt16BE(code.length - 2);
  const start = code.length - 2 - length;
  if (length === 0 || start < 0) return code;
  const head = code[start] ?? 0;
  // A CBOR map of 1 to 5 entries: 0xa1 … 0xa5.
  return head >= 0xa1 && head <= 0xa5 ? code.subarray(0, start) : code;
}

const PUSH1 = 0x60;
const PUSH4 = 0x63;
const PUSH32 = 0x7f;
const EQ = 0x14;
const DUP1 = 0x80;
const DUP16 = 0x8f;
const JUMPI = 0x57;
const PUSH3 = 0x62;
const PUSH0 = 0x5f;
const SUB = 0x03;
const ISZERO = 0x15;
const SWAP16 = 0x9f;
const ZERO_SELECTOR = '0x00000000';
/** PUSH1 0xe0 SHR: the dispatcher taking the selector off the calldata's first word. */
const SELECTOR_SHIFT = Buffer.from([0x60, 0xe0, 0x1c]);
/**
 * Selectors pushed shorter than four bytes kept per code, in code order (the dispatcher first): a
 * code full of small-constant branches in its functions must not multiply the probes.
 */
const MAX_SHORT_SELECTORS = 64;
/** Every PUSHn becomes this one token: what is pushed is a constant a cloner changes freely. */
const PUSH_TOKEN = PUSH1;

/** A jump destination pushed at `at` (PUSH1 to PUSH3), then JUMPI. */
function jumpsAt(code: Buffer, at: number): boolean {
  const push = code[at] ?? 0;
  return push >= PUSH1 && push <= PUSH3 && code[at + (push - PUSH1 + 1) + 1] === JUMPI;
}

/**
 * Whether the code at `at` (just after a pushed constant) is the dispatcher's branch on it: the
 * constant compared with the selector (EQ, after a DUPn or not; or SUB, as via-IR compiles the
 * last case), then a jump destination pushed and JUMPI.
 */
function branchesAt(
  code: Buffer,
  at: number,
): { branch: boolean; dupAfter: boolean; eq: boolean; sub: boolean; end: number } {
  let i = at;
  const dupAfter = (code[i] ?? 0) >= DUP1 && (code[i] ?? 0) <= DUP16;
  if (dupAfter) i++;
  const compare = code[i];
  if (compare !== EQ && compare !== SUB) return { branch: false, dupAfter, eq: false, sub: false, end: i };
  const push = code[i + 1] ?? 0;
  const end = i + 1 + (push - PUSH1 + 1) + 2;
  return { branch: jumpsAt(code, i + 1), dupAfter, eq: compare === EQ, sub: compare === SUB, end };
}

/** Another dispatcher case at `at`: DUPn PUSH1-4 <selector> EQ PUSHm <dest> JUMPI. */
function caseAt(code: Buffer, at: number): boolean {
  const dup = code[at] ?? 0;
  const push = code[at + 1] ?? 0;
  return (
    dup >= DUP1 &&
    dup <= DUP16 &&
    push >= PUSH1 &&
    push <= PUSH4 &&
    branchesAt(code, at + 1 + (push - PUSH1 + 2)).branch
  );
}

function disassemble(code: Buffer): { opcodes: number[]; selectors: Set<string> } {
  const opcodes: number[] = [];
  const selectors = new Set<string>();
  // Selectors pushed shorter than four bytes, in code order (the dispatcher comes first).
  const short: string[] = [];
  for (let pc = 0; pc < code.length; pc++) {
    const op = code[pc] ?? 0;
    if (op === PUSH0 || (op >= PUSH1 && op <= PUSH32)) {
      const size = op === PUSH0 ? 0 : op - PUSH1 + 1;
      if (op <= PUSH4 && pc + size < code.length) {
        const selector = `0x${code
          .subarray(pc + 1, pc + 1 + size)
          .toString('hex')
          .padStart(8, '0')}`;
        const { branch, dupAfter, eq, sub, end } = branchesAt(code, pc + size + 1);
        if (op === PUSH4) {
          // The dispatcher: PUSH4 <selector> EQ, or PUSH4 <selector> DUPn EQ; or via-IR's last
          // case, PUSH4 <selector> SUB PUSHm <dest> JUMPI.
          if (eq || branch) selectors.add(selector);
        } else {
          // A selector whose first bytes are zero is pushed shorter (PUSH3 for 0x00ec8a3f): it
          // counts only as the dispatcher's branch on it (the selector duplicated before or after
          // the push, compared by EQ), not as any small constant compared. Zero is compared
          // everywhere (a call's return data size): 0x00000000 counts where another case follows
          // its branch, or right after the selector is read (below).
          const before = code[pc - 1] ?? 0;
          const dupBefore = before >= DUP1 && before <= DUP16;
          const zeroCase = selector !== ZERO_SELECTOR || caseAt(code, end);
          if (branch && !sub && (dupBefore || dupAfter) && zeroCase) short.push(selector);
        }
      }
      // PUSH0 stays itself (it has no constant), as it always was in the opcode sequence.
      opcodes.push(op === PUSH0 ? op : PUSH_TOKEN);
      pc += size;
      continue;
    }
    opcodes.push(op);
  }
  // The selector 0x00000000, the dispatcher's first case (cases go in ascending order): right
  // after the selector is read (PUSH1 0xe0 SHR, then stack moves only), tested with ISZERO or
  // compared with a pushed zero, then PUSHm <dest> JUMPI.
  for (let at = code.indexOf(SELECTOR_SHIFT); at >= 0; at = code.indexOf(SELECTOR_SHIFT, at + 1)) {
    let i = at + SELECTOR_SHIFT.length;
    while (i < at + SELECTOR_SHIFT.length + 4 && (code[i] ?? 0) >= DUP1 && (code[i] ?? 0) <= SWAP16) i++;
    const zero = code[i] === PUSH0 ? 1 : code[i] === PUSH1 && code[i + 1] === 0 ? 2 : 0;
    const tested = code[i] === ISZERO && jumpsAt(code, i + 1);
    const after = branchesAt(code, i + zero);
    const compared = zero > 0 && after.branch && !after.sub;
    if (tested || compared) short.unshift(ZERO_SELECTOR);
  }
  for (const selector of short.slice(0, MAX_SHORT_SELECTORS)) selectors.add(selector);
  return { opcodes, selectors };
}

/** FNV-1a over each run of SHINGLE opcodes, as unsigned 32-bit values. */
function shingleHashes(opcodes: readonly number[]): Uint32Array {
  const count = Math.max(0, opcodes.length - SHINGLE + 1);
  const hashes = new Uint32Array(count === 0 && opcodes.length > 0 ? 1 : count);
  for (let i = 0; i < hashes.length; i++) {
    let hash = 0x811c9dc5;
    for (let j = i; j < Math.min(opcodes.length, i + SHINGLE); j++) {
      hash = Math.imul(hash ^ (opcodes[j] ?? 0), 0x01000193) >>> 0;
    }
    hashes[i] = hash;
  }
  return hashes;
}

/** murmur3's 32-bit finaliser: a fast, well-mixed permutation of 32-bit values. */
function mix(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

const SEEDS = Uint32Array.from({ length: MINHASH_SIZE }, (_, i) => mix(0x9e3779b9 + i * 0x632be5ab));

/**
 * The minima over the distinct shingles (a repeated shingle cannot lower a minimum again: code
 * repeats most of its 4-opcode runs, so this is a fraction of the work), in typed arrays.
 */
function minhash(shingles: Uint32Array): number[] {
  const minima = new Uint32Array(MINHASH_SIZE).fill(0xffffffff);
  for (const shingle of new Set(shingles)) {
    for (let i = 0; i < MINHASH_SIZE; i++) {
      const value = mix(shingle ^ (SEEDS[i] as number));
      if (value < (minima[i] as number)) minima[i] = value;
    }
  }
  return Array.from(minima);
}

function hashedVector(shingles: Uint32Array): number[] {
  const vector = new Array<number>(VECTOR_SIZE).fill(0);
  for (const shingle of new Set(shingles)) {
    const hashed = mix(shingle);
    const bucket = hashed % VECTOR_SIZE;
    vector[bucket] = (vector[bucket] ?? 0) + (hashed >>> 31 === 1 ? 1 : -1);
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm > 0 ? vector.map((value) => value / norm) : vector;
}
