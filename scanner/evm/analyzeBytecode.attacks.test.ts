import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { analyzeBytecode } from './analyzeBytecode.ts';

// Attacks on the clock-blind judgement (contractSafety: no implementation, !readsBlock,
// !callsOut, nothing relied on => discoverPowers skips every probe a day and a year on).
// "Safe" = code whose effect can differ at a moved clock is not reported as reading nothing.
// The year-on probe is an eth_call with blockOverrides {time, number}; geth's doCall derives the
// fork rules from the overridden time (ChainConfig().Rules(number, random, blockCtx.Time)), so a
// fork scheduled within the year is live in that call: its new opcodes, gas schedule, precompiles.
const dependsOnBlock = (code: Hex) => {
  const result = analyzeBytecode(code);
  return result.readsBlock || result.callsOut;
};

describe('analyzeBytecode attacks: holes a review found, closed', () => {
  it('was a hole: SLOTNUM (0x4b, EIP-7843, Amsterdam; solc 0.8.37 block.slotnum) reads the clock', () => {
    // 4b SLOTNUM | 60 00 PUSH1 0 | 55 SSTORE | 00 STOP
    expect(analyzeBytecode('0x4b60005500').readsBlock).toBe(true);
  });

  it('was a hole: GAS (0x5a) sees gas that differs at a moved clock', () => {
    // Gas at the token differs between the runs: the probe's buy goes through the pair, whose
    // _update writes the price accumulators only when block.timestamp moved since its last trade
    // (at the pinned block it often has not; a day on it always has), and the detector then gives
    // the holder's transfers/sells gasleft()-based caps. A scheduled fork's repricing (live in the
    // year-on call, see above) moves it too. Solc emits GAS only beside a CALL (already callsOut),
    // so a call-free token with GAS wrote gasleft() itself.
    // 0: 5a GAS | 1: 62 0f4240 PUSH3 1e6 (0x42 is data) | 5: 11 GT (1e6 > gas) | 6: 60 0a PUSH1 10
    // 8: 57 JUMPI | 9: 00 STOP | 10: 5b JUMPDEST | 11: 60 01 PUSH1 1 | 13: 60 00 PUSH1 0
    // 15: 55 SSTORE (tax switched on) | 16: 00 STOP
    expect(analyzeBytecode('0x5a620f424011600a57005b600160005500').readsBlock).toBe(true);
  });

  it("was a hole: an EIP-7702 delegation designator runs another account's code", () => {
    // ef 01 00 designator | 20-byte target (0x11.. : no byte the sweep counts). getCode returns
    // this for a delegated EOA; the target's code (which may read TIMESTAMP) runs in the token's
    // own frame, so no trace shows a callee (reliedOn stays empty) and readProxy sees no slot.
    const code: Hex = `0xef0100${'11'.repeat(20)}`;
    expect(dependsOnBlock(code)).toBe(true);
  });

  it('was a hole: an opcode a scheduled fork defines (CLZ 0x1e, Osaka) flips at the year-on clock', () => {
    // On a chain where Osaka is scheduled but not yet active, 0x1e is INVALID at the pinned block
    // (mint reverts) and CLZ a year on (mint works): a power that waits for a date, made by the
    // year-on eth_call's fork rules. Same for any undefined byte a fork may define.
    // 60 01 PUSH1 1 | 1e CLZ | 60 00 PUSH1 0 | 55 SSTORE | 00 STOP
    expect(dependsOnBlock('0x60011e60005500')).toBe(true);
  });

  it('was a latent hole (EOF is not live: EIP-3541 bars 0xEF00 code today): EOF immediates misalign the sweep', () => {
    // ef00 magic | 01 version | 01 0004 types size | 02 0001 0007 one code section of 7
    // | 04 0080 data size | 00 header end | types: 00 inputs, 80 non-returning, 0002 max stack
    // | code: d1 0060 DATALOADN 96 (the sweep reads 60 as PUSH1 and swallows the next byte)
    // | 42 TIMESTAMP | 50 POP | 50 POP | 00 STOP | data: 128 zero bytes
    const code: Hex = `0xef000101000402000100070400800000800002d1006042505000${'00'.repeat(128)}`;
    expect(analyzeBytecode(code).readsBlock).toBe(true);
  });
});

describe('analyzeBytecode attacks: ruled out (pass)', () => {
  it('a JUMPDEST inside PUSH data is no jump destination (EVM jumpdest analysis skips PUSH data too)', () => {
    // 0: 60 04 PUSH1 4 | 2: 56 JUMP (to 4: invalid, inside PUSH2 data) | 3: 61 5b42 PUSH2 | 6: 00 STOP
    // (only EIP-7921, a stagnant draft, would make such a 0x5b valid)
    expect(dependsOnBlock('0x600456615b4200')).toBe(false);
  });

  it('metadata tail run into by fall-through is swept', () => {
    // 60 01 PUSH1 1 | 50 POP (no terminator) | tail: a1 LOG1 | 42 TIMESTAMP | 0002 length
    expect(analyzeBytecode('0x600150a1420002').readsBlock).toBe(true);
  });

  it('metadata tail holding a JUMPDEST is swept', () => {
    // 60 04 PUSH1 4 | 56 JUMP | tail: a1 | 5b JUMPDEST (offset 4) | 42 TIMESTAMP | 00 | 0004 length
    expect(analyzeBytecode('0x600456a15b42000004').readsBlock).toBe(true);
  });

  it('metadata tail after a terminator with 0x5b only in PUSH data cannot run', () => {
    // 00 STOP | tail: a1 | 61 5b42 PUSH2 (0x5b is data, as for the EVM) | 0004 length
    expect(analyzeBytecode('0x00a1615b420004').readsBlock).toBe(false);
  });

  it('a metadata length whose bytes are JUMPDEST TIMESTAMP (0x5b42) is swept', () => {
    // 61 5b46 PUSH2 0x5b46 (the length's offset) | 56 JUMP | tail: a1, 0x5b41 zero bytes | 5b 42
    const code: Hex = `0x615b4656a1${'00'.repeat(0x5b42 - 1)}5b42`;
    expect(analyzeBytecode(code).readsBlock).toBe(true);
  });

  it('a metadata start inside PUSH data leaves the straddling PUSH as the last instruction: swept', () => {
    // 62 a10000 PUSH3 (the "a1" is data) | 42 TIMESTAMP | 0004 length (start = offset 1)
    expect(analyzeBytecode('0x62a10000420004').readsBlock).toBe(true);
  });

  it('a non-standard minimal proxy (PUSH0, EIP-7511) still has DELEGATECALL', () => {
    // 36 5f 5f 37 5f 5f 36 5f 73 <target> 5a GAS f4 DELEGATECALL 3d 5f 5f 3e 5f 3d 91 602a 57 fd 5b f3
    const code: Hex = `0x365f5f375f5f365f73${'22'.repeat(20)}5af43d5f5f3e5f3d91602a57fd5bf3`;
    expect(analyzeBytecode(code).callsOut).toBe(true);
  });

  it('precompiles are reached only through CALL-family opcodes', () => {
    // 5f x4 PUSH0 | 60 01 PUSH1 1 (ecrecover) | 5a GAS | fa STATICCALL | 00 STOP
    expect(analyzeBytecode('0x5f5f5f5f60015afa00').callsOut).toBe(true);
  });

  it('SELFDESTRUCT reads no clock and runs no other code (flagged apart)', () => {
    // 33 CALLER | ff SELFDESTRUCT
    const result = analyzeBytecode('0x33ff');
    expect(result.readsBlock || result.callsOut).toBe(false);
    expect(result.hasSelfdestruct).toBe(true);
  });

  it('BALANCE, SELFBALANCE, CHAINID, GASPRICE, EXTCODESIZE/COPY read the same in both runs', () => {
    // Same state, same state overrides, same gasPrice; geth's blockOverrides change only time and
    // number, and eth_call adds no blocks (no withdrawals, rewards). Another account's code or
    // balance changes only by a transaction (a power, which no moved clock would show either).
    // 30 ADDRESS | 31 BALANCE | 47 SELFBALANCE | 46 CHAINID | 3a GASPRICE | 3b EXTCODESIZE
    // | 3c EXTCODECOPY | 00 STOP
    expect(dependsOnBlock('0x303147463a3b3c00')).toBe(false);
  });

  it('EIP-8024 DUPN/SWAPN/EXCHANGE immediates exclude 0x5b..0x7f: the sweep stays aligned', () => {
    // e6 DUPN | 42 (its immediate, read as TIMESTAMP: a false positive, never a miss) | 00 STOP
    expect(analyzeBytecode('0xe64200').readsBlock).toBe(true);
  });
});
