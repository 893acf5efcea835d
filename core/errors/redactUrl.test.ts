import { describe, expect, it } from 'vitest';
import { redactUrl } from './redactUrl.ts';

describe('redactUrl', () => {
  it('masks keys in the path, query and user info but keeps the provider readable', () => {
    expect(redactUrl('https://eth-mainnet.g.alchemy.com/v2/AbCdEf1234567890xyz')).toBe(
      'https://eth-mainnet.g.alchemy.com/v2/***',
    );
    expect(redactUrl('https://rpc.example.org/mainnet?apikey=s3cr3t&x=1')).toBe(
      'https://rpc.example.org/mainnet?apikey=***&x=***',
    );
    expect(redactUrl('https://user:pass@node.example.org:8545/')).toBe('https://***@node.example.org:8545');
    expect(redactUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
  });

  it('never echoes an unparsable value', () => {
    expect(redactUrl('not a url with secret123')).toBe('<invalid url>');
  });
});
