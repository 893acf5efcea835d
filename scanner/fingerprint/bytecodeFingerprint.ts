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
/**
 * Selectors pushed shorter than four bytes kept per code, the longest pushes first: a real one is
 * rare (one name in 256), and a code full of small-constant branches must not multiply the probes.
 */
const MAX_SHORT_SELECTORS = 16;
/** Every PUSHn becomes this one token: what is pushed is a constant a cloner changes freely. */
const PUSH_TOKEN = PUSH1;

function disassemble(code: Buffer): { opcodes: number[]; selectors: Set<string> } {
  const opcodes: number[] = [];
  const selectors = new Set<string>();
  const short: { selector: string; size: number }[] = [];
  for (let pc = 0; pc < code.length; pc++) {
    const op = code[pc] ?? 0;
    if (op >= PUSH1 && op <= PUSH32) {
      const size = op - PUSH1 + 1;
      if (op <= PUSH4 && pc + size < code.length) {
        const selector = `0x${code
          .subarray(pc + 1, pc + 1 + size)
          .toString('hex')
          .padStart(8, '0')}`;
        const next = code[pc + size + 1] ?? 0;
        if (op === PUSH4) {
          // The dispatcher: PUSH4 <selector> EQ, or PUSH4 <selector> DUPn EQ.
          const afterDup = next >= DUP1 && next <= DUP16 ? (code[pc + size + 2] ?? 0) : next;
          if (next === EQ || afterDup === EQ) selectors.add(selector);
        } else {
          // A selector whose first bytes are zero is pushed shorter (PUSH3 for 0x00ec8a3f): it
          // counts only as the dispatcher's branch, DUP1 PUSHn <selector> EQ PUSHm <dest> JUMPI,
          // not as any small constant compared.
          const jump = code[pc + size + 2] ?? 0;
          const branch =
            code[pc - 1] === DUP1 &&
            next === EQ &&
            jump >= PUSH1 &&
            jump <= PUSH3 &&
            code[pc + size + 2 + (jump - PUSH1 + 1) + 1] === JUMPI;
          if (branch) short.push({ selector, size });
        }
      }
      opcodes.push(PUSH_TOKEN);
      pc += size;
      continue;
    }
    opcodes.push(op);
  }
  for (const { selector } of short.sort((a, b) => b.size - a.size).slice(0, MAX_SHORT_SELECTORS))
    selectors.add(selector);
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
