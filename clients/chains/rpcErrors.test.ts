import { describe, expect, it } from 'vitest';
import {
  HttpRequestError,
  InvalidParamsRpcError,
  MethodNotFoundRpcError,
  RpcRequestError,
  TimeoutError,
} from 'viem';
import { isHistoricalStateError, isUnsupportedMethod } from './rpcErrors.ts';

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

describe('isUnsupportedMethod', () => {
  const answered = (code: number, message: string) =>
    new RpcRequestError({ body: {}, url: 'http://x', error: { code, message } });

  it("tells what a node does not offer from what one call met (power discovery's failures)", () => {
    // What the node offers, the same for every token: not a failure of the token's discovery.
    expect(
      isUnsupportedMethod(new MethodNotFoundRpcError(answered(-32601, 'the method does not exist'))),
    ).toBe(true);
    expect(
      isUnsupportedMethod(answered(-32000, 'the method debug_traceCall does not exist/is not available')),
    ).toBe(true);
    expect(isUnsupportedMethod(answered(-32004, 'Method not supported'))).toBe(true);
    expect(isUnsupportedMethod(answered(-32602, 'invalid argument 2: unknown field "blockOverrides"'))).toBe(
      true,
    );
    expect(isUnsupportedMethod(new Error('wrapped', { cause: answered(-32000, 'tracer not found') }))).toBe(
      true,
    );
    // What this call met, which a token can cause: a tracer out of time, a timeout, a revert.
    expect(isUnsupportedMethod(answered(-32000, 'execution timeout'))).toBe(false);
    expect(isUnsupportedMethod(answered(-32000, 'request timed out'))).toBe(false);
    expect(isUnsupportedMethod(new TimeoutError({ body: {}, url: 'http://x' }))).toBe(false);
    expect(isUnsupportedMethod(new Error('execution reverted'))).toBe(false);
    expect(isUnsupportedMethod(new HttpRequestError({ url: 'http://x', status: 429 }))).toBe(false);
    expect(isUnsupportedMethod(new HttpRequestError({ url: 'http://x', status: 504 }))).toBe(false);
    // A provider refusing the method over HTTP (not on this plan) is what it offers.
    expect(isUnsupportedMethod(new HttpRequestError({ url: 'http://x', status: 405 }))).toBe(true);
  });
});
