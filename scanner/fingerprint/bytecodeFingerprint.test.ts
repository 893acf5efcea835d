import { fileURLToPath } from 'node:url';
import { type AbiFunction, toFunctionSelector } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Artifacts, compileContracts } from '../../infra/devnet/compile.ts';
import {
  BytecodeFingerprint,
  bytecodeFingerprint,
  fingerprintSimilarity,
  MINHASH_SIZE,
} from './bytecodeFingerprint.ts';

/** The code with every PUSH20 immediate replaced (another owner, router or token address). */
function withOtherAddresses(code: string): string {
  const bytes = Buffer.from(code.slice(2), 'hex');
  for (let pc = 0; pc < bytes.length; pc++) {
    const op = bytes[pc] ?? 0;
    if (op >= 0x60 && op <= 0x7f) {
      if (op === 0x73) bytes.fill(0xab, pc + 1, pc + 21);
      pc += op - 0x5f;
    }
  }
  return `0x${bytes.toString('hex')}`;
}

/** The code with another metadata trailer (another compiler path or source comment). */
function withOtherMetadata(code: string): string {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const length = bytes.readUInt16BE(bytes.length - 2);
  const start = bytes.length - 2 - length;
  bytes.fill(0x42, start + 1, bytes.length - 2);
  return `0x${bytes.toString('hex')}`;
}

describe('bytecodeFingerprint', () => {
  let artifacts: Artifacts;
  beforeAll(async () => {
    artifacts = await compileContracts();
  });
  const runtime = (name: string) => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`no artifact ${name}`);
    return artifact.deployedBytecode;
  };

  it('gives a clone that differs in addresses and metadata the same code hash and similarity 1', () => {
    const original = bytecodeFingerprint(runtime('HoneypotToken'));
    const clone = bytecodeFingerprint(withOtherMetadata(withOtherAddresses(runtime('HoneypotToken'))));
    if (!original || !clone) throw new Error('no fingerprint');
    expect(BytecodeFingerprint.parse(original)).toEqual(original);
    expect(clone.code_hash).toBe(original.code_hash);
    expect(fingerprintSimilarity(original, clone)).toEqual({
      similarity: 1,
      selector_overlap: 1,
      identical_code: true,
    });
  });

  it('finds the ERC-20 selectors of the dispatcher', () => {
    const fingerprint = bytecodeFingerprint(runtime('CleanToken'));
    // transfer(address,uint256), balanceOf(address), approve(address,uint256)
    expect(fingerprint?.selectors).toEqual(
      expect.arrayContaining(['0xa9059cbb', '0x70a08231', '0x095ea7b3']),
    );
  });

  it("reads a selector whose first byte is zero from the dispatcher's branch, and no small constant elsewhere", () => {
    // A name whose selector starts with a zero byte (1 in 256 names) is pushed with PUSH3: a scan
    // of PUSH4 alone never saw that function, so no probe ever called it.
    const code = [
      '6000356000e01c', // PUSH1 0 CALLDATALOAD PUSH1 0xe0 SHR
      '8062ec8a3f1461002057', // DUP1 PUSH3 0xec8a3f EQ PUSH2 0x0020 JUMPI
      '8063a9059cbb1461003057', // DUP1 PUSH4 0xa9059cbb EQ PUSH2 0x0030 JUMPI
      '60021450', // PUSH1 2 EQ POP: a comparison in a body
      '80600714600516', // DUP1 PUSH1 7 EQ PUSH1 5 AND: compared, no branch
    ].join('');
    expect(bytecodeFingerprint(`0x${code}`)?.selectors).toEqual(['0x00ec8a3f', '0xa9059cbb']);
    // Branches on small constants count 64 at most, in code order: the dispatcher's first.
    const branches = Array.from(
      { length: 80 },
      (_, value) => `80610${(0x100 + value).toString(16)}1461002057`,
    );
    const many = bytecodeFingerprint(`0x${code}${branches.join('')}`)?.selectors ?? [];
    expect(many).toHaveLength(1 + 64);
    expect(many).toContain('0x00ec8a3f');
  });

  it('keeps the opcode sequence as fingerprints stored before have it (PUSH0 is itself, a push of a constant is one token)', () => {
    // PUSH0 PUSH1 0x2a ADD, and the same with another constant: one code hash; PUSH1 0x00 instead
    // of PUSH0: another.
    const hash = (code: string) => bytecodeFingerprint(`0x${code}`)?.code_hash;
    expect(hash('5f602a01')).toBe(hash('5f600701'));
    expect(hash('5f602a01')).not.toBe(hash('6000602a01'));
  });

  it('scores another contract below a clone, and unrelated code far below', () => {
    const honeypot = bytecodeFingerprint(runtime('HoneypotToken'));
    const clean = bytecodeFingerprint(runtime('CleanToken'));
    const unrelated = bytecodeFingerprint(
      '0x6080604052348015600f57600080fd5b50600436106028576000803560e01c8063',
    );
    if (!honeypot || !clean || !unrelated) throw new Error('no fingerprint');
    const sibling = fingerprintSimilarity(honeypot, clean).similarity;
    expect(sibling).toBeLessThan(1);
    expect(fingerprintSimilarity(honeypot, unrelated).similarity).toBeLessThan(Math.min(sibling, 0.2));
    expect(honeypot.minhash).toHaveLength(MINHASH_SIZE);
    const norm = Math.hypot(...honeypot.vector);
    expect(norm).toBeCloseTo(1, 9);
  });

  it('answers undefined for an account without code', () => {
    expect(bytecodeFingerprint('0x')).toBeUndefined();
  });
});

describe("the dispatcher's selectors, as each compiler pipeline lays them out", () => {
  const sourceDir = fileURLToPath(new URL('./testContracts/', import.meta.url));
  const pipelines = [
    { name: 'legacy', viaIR: false, optimizer: { enabled: false } },
    { name: 'legacy, optimized', viaIR: false, optimizer: { enabled: true, runs: 200 } },
    { name: 'via-IR', viaIR: true, optimizer: { enabled: false } },
    { name: 'via-IR, optimized', viaIR: true, optimizer: { enabled: true, runs: 200 } },
    { name: 'via-IR, optimized for size', viaIR: true, optimizer: { enabled: true, runs: 1 } },
  ];

  it.each(pipelines)(
    'reads every function of the ABI: $name',
    async ({ viaIR, optimizer }) => {
      const { SelectorShapes } = await compileContracts({ sourceDir, viaIR, optimizer });
      if (!SelectorShapes) throw new Error('SelectorShapes was not compiled');
      const functions = (SelectorShapes.abi as AbiFunction[]).filter((item) => item.type === 'function');
      const selectors = functions.map((item) => toFunctionSelector(item));
      expect(selectors).toEqual(expect.arrayContaining(['0x0055d20f', '0x00000000']));
      expect(bytecodeFingerprint(SelectorShapes.deployedBytecode)?.selectors).toEqual(
        expect.arrayContaining(selectors),
      );
    },
    60_000,
  );
});
