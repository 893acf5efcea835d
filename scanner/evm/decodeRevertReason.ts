import { type Hex, decodeErrorResult, parseAbi } from 'viem';

// Custom errors common enough in tokens to name; anything else shows its selector.
const knownErrorsAbi = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error OwnableUnauthorizedAccount(address account)',
  'error OwnableInvalidOwner(address owner)',
  'error EnforcedPause()',
  'error ReentrancyGuardReentrantCall()',
]);

const PANIC_REASONS: Record<number, string> = {
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'invalid enum value',
  0x22: 'invalid storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory',
  0x51: 'call to an uninitialised function',
};

/**
 * Turns revert data into something a person can read: the message of `Error(string)`, the
 * meaning of a `Panic(uint256)` code, a known custom error with its arguments, or else the
 * custom error's selector.
 */
export function decodeRevertReason(data: Hex | null | undefined): string {
  if (data === null || data === undefined || data === '0x') return 'reverted without a reason';
  let decoded: { errorName: string; args: readonly unknown[] | undefined };
  try {
    decoded = decodeErrorResult({ abi: knownErrorsAbi, data });
  } catch {
    return data.length >= 10 ? `custom error ${data.slice(0, 10)}` : `malformed revert data ${data}`;
  }
  const args = decoded.args ?? [];
  if (decoded.errorName === 'Error') return String(args[0]);
  if (decoded.errorName === 'Panic' && typeof args[0] === 'bigint') {
    const code = args[0];
    return `panic 0x${code.toString(16).padStart(2, '0')}: ${PANIC_REASONS[Number(code)] ?? 'unknown panic code'}`;
  }
  return `${decoded.errorName}(${args.map((arg) => String(arg)).join(', ')})`;
}
