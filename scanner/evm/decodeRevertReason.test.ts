import { describe, expect, it } from 'vitest';
import { encodeErrorResult, parseAbi } from 'viem';
import { decodeRevertReason } from './decodeRevertReason.ts';

const abi = parseAbi([
  'error Error(string message)',
  'error Panic(uint256 code)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error TradingNotOpen(uint256 opensAt)',
]);

describe('decodeRevertReason', () => {
  it('reads Error(string) messages', () => {
    const data = encodeErrorResult({ abi, errorName: 'Error', args: ['HONEY: sells are paused'] });
    expect(decodeRevertReason(data)).toBe('HONEY: sells are paused');
  });

  it('explains panic codes', () => {
    expect(decodeRevertReason(encodeErrorResult({ abi, errorName: 'Panic', args: [0x11n] }))).toBe(
      'panic 0x11: arithmetic overflow or underflow',
    );
    expect(decodeRevertReason(encodeErrorResult({ abi, errorName: 'Panic', args: [0x99n] }))).toBe(
      'panic 0x99: unknown panic code',
    );
  });

  it('names well-known custom errors with their arguments', () => {
    const data = encodeErrorResult({
      abi,
      errorName: 'ERC20InsufficientBalance',
      args: ['0x0000000000000000000000000000000000000001', 5n, 7n],
    });
    expect(decodeRevertReason(data)).toBe(
      'ERC20InsufficientBalance(0x0000000000000000000000000000000000000001, 5, 7)',
    );
  });

  it('falls back to the selector of an unknown custom error', () => {
    const data = encodeErrorResult({ abi, errorName: 'TradingNotOpen', args: [1n] });
    expect(decodeRevertReason(data)).toBe(`custom error ${data.slice(0, 10)}`);
  });

  it('says so when there is no revert data', () => {
    expect(decodeRevertReason('0x')).toBe('reverted without a reason');
    expect(decodeRevertReason(null)).toBe('reverted without a reason');
    expect(decodeRevertReason('0x1234')).toBe('malformed revert data 0x1234');
  });
});
