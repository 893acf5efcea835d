import { describe, expect, it } from 'vitest';
import { InvalidParamsRpcError, RpcRequestError } from 'viem';
import { isHistoricalStateError } from './rpcErrors.ts';

describe('isHistoricalStateError', () => {
  it('recognises a node that cannot serve a past block (anvil, geth without archive)', () => {
    const anvil = new InvalidParamsRpcError(
      new RpcRequestError({
        body: {},
        url: 'http://x',
        error: { code: -32602, message: 'BlockOutOfRangeError: block height is 3714 but requested was 0' },
      }),
    );
    expect(isHistoricalStateError(anvil)).toBe(true);
    expect(isHistoricalStateError(new Error('missing trie node 0xab (path )'))).toBe(true);
    expect(isHistoricalStateError(new Error('execution reverted'))).toBe(false);
  });
});
