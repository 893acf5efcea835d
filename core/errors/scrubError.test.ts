import { HttpRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { scrubError, scrubText } from './scrubError.ts';

describe('scrubError', () => {
  it('redacts every URL a viem error and its causes carry, and drops the failed request', () => {
    const url = 'https://eth.provider.example/v2/sk_live_0123456789abcdef?apikey=hunter2';
    const inner = new HttpRequestError({
      url,
      body: { method: 'eth_call', params: ['secret'] },
      status: 500,
    });
    const outer = new Error(`scan failed: ${inner.message}`, { cause: inner });
    scrubError(outer);
    const everything = JSON.stringify({
      outer: [outer.message, outer.stack],
      inner: [inner.message, inner.stack, inner.shortMessage, inner.details, inner.metaMessages],
      props: Object.entries(inner),
    });
    expect(everything).not.toContain('sk_live_0123456789abcdef');
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain('"secret"');
    expect(everything).toContain('https://eth.provider.example/v2/***?apikey=***');
  });

  it('leaves texts without URLs alone', () => {
    expect(scrubText('nonce too low: next nonce 7')).toBe('nonce too low: next nonce 7');
  });
});
