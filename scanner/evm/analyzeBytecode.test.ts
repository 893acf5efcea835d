import { describe, expect, it } from 'vitest';
import { toFunctionSelector } from 'viem';
import { analyzeBytecode } from './analyzeBytecode.ts';
import { findPrivileged } from './knownSelectors.ts';

describe('analyzeBytecode', () => {
  it('collects PUSH4 selectors and skips push data when looking for opcodes', () => {
    const mint = toFunctionSelector('mint(address,uint256)').slice(2);
    // PUSH4 <mint> ; PUSH2 0xfff4 (data bytes that look like SELFDESTRUCT/DELEGATECALL) ; STOP
    // (DELEGATECALL sites are delegateTargets's: see its tests)
    const code = `0x63${mint}61fff400` as const;
    const result = analyzeBytecode(code);
    expect([...result.selectors]).toEqual([`0x${mint}`]);
    expect(result.hasSelfdestruct).toBe(false);
    expect(findPrivileged('mint', result.selectors).map((entry) => entry.signature)).toEqual([
      'mint(address,uint256)',
    ]);
  });

  it('finds SELFDESTRUCT as an instruction', () => {
    expect(analyzeBytecode('0x6000ff').hasSelfdestruct).toBe(true);
  });

  it('finds EXTCODEHASH as an instruction, not inside push data', () => {
    expect(analyzeBytecode('0x3f00').hasCodeHash).toBe(true);
    expect(analyzeBytecode('0x613f3f').hasCodeHash).toBe(false);
  });

  it('tells code that reads the block or calls out from code that does neither', () => {
    // TIMESTAMP, NUMBER, BASEFEE, TLOAD; then inside push data only.
    for (const code of ['0x4200', '0x4300', '0x4800', '0x5c00'] as const)
      expect(analyzeBytecode(code).readsBlock).toBe(true);
    expect(analyzeBytecode('0x614243').readsBlock).toBe(false);
    // CALL, DELEGATECALL, STATICCALL, CREATE2; then inside push data only.
    for (const code of ['0xf100', '0xf400', '0xfa00', '0xf500'] as const)
      expect(analyzeBytecode(code).callsOut).toBe(true);
    expect(analyzeBytecode('0x61f1fa').callsOut).toBe(false);
    // SLOAD, CALLER, EQ: a plain ERC-20's fare.
    expect(analyzeBytecode('0x54331400')).toMatchObject({ readsBlock: false, callsOut: false });
  });

  it('finds ORIGIN as an instruction, not inside push data', () => {
    expect(analyzeBytecode('0x3200').hasOrigin).toBe(true);
    expect(analyzeBytecode('0x613232').hasOrigin).toBe(false);
  });

  it('reads an immutable address from a PUSH32 word with twelve zero bytes on top', () => {
    const wallet = '8ba1f109551bd432803012645ac136ddd64dba72';
    const code = `0x7f${'00'.repeat(12)}${wallet}7f${'11'.repeat(12)}${wallet}00` as const;
    // The second word has non-zero upper bytes: a number, not an address.
    expect([...analyzeBytecode(code).addresses]).toEqual([`0x${wallet}`]);
  });

  it('ignores the Solidity metadata tail', () => {
    // executable part `00`, then a 3-byte CBOR map a1 ff ff and its length 0x0003
    const result = analyzeBytecode('0x00a1ffff0003');
    expect(result.hasSelfdestruct).toBe(false);
    expect(result.codeSize).toBe(1);
  });

  it('reads no block in a metadata tail nothing can run, and reads it where a jump could land', () => {
    // Code ending with INVALID, then "metadata" a2 42 43 f1 and its length: unreachable bytes.
    expect(analyzeBytecode('0x00fea24243f10004')).toMatchObject({ readsBlock: false, callsOut: false });
    // The same tail with a JUMPDEST in it: a jump there runs TIMESTAMP and CALL.
    expect(analyzeBytecode('0x00fea25b42f10004')).toMatchObject({ readsBlock: true, callsOut: true });
    // Code that runs on into the tail (no STOP, JUMP, RETURN, REVERT or INVALID before it).
    expect(analyzeBytecode('0x6001a24243f10004')).toMatchObject({ readsBlock: true, callsOut: true });
  });

  it('recognises an EIP-1167 minimal proxy and its target', () => {
    const target = 'bebebebebebebebebebebebebebebebebebebebe';
    const code = `0x363d3d373d3d3d363d73${target}5af43d82803e903d91602b57fd5bf3` as const;
    expect(analyzeBytecode(code).minimalProxyTarget?.toLowerCase()).toBe(`0x${target}`);
  });
});
