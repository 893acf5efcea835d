import { describe, expect, it } from 'vitest';
import { labelsOnChain } from './labelIndex.ts';
import { categoryOf, readSnapshot } from './snapshot.ts';

describe('the eth-labels snapshot', () => {
  it('labels addresses on the chain its rows name, with the category its label maps to', () => {
    const { rows, commit } = readSnapshot();
    const onBase = rows.find(
      ([, chainId, label, name]) => chainId === 8453 && label === 'phish-hack' && name,
    );
    if (!onBase) throw new Error('the snapshot has no named phishing address on Base');
    const [address, , , name] = onBase;
    expect(labelsOnChain(8453, address)).toContainEqual({
      label: 'phish-hack',
      category: 'phish_hack',
      name_tag: name,
      source: `eth-labels@${commit.slice(0, 12)}`,
    });
  });

  it('sorts source labels into the categories checks flag, a hack of an exchange being a hack', () => {
    expect(categoryOf('upbit-hack', 'account')).toBe('phish_hack');
    expect(categoryOf('tornado-cash', 'account')).toBe('mixer');
    expect(categoryOf('ofac-sanctioned', 'account')).toBe('sanctioned');
    expect(categoryOf('binance', 'account')).toBe('exchange');
    expect(categoryOf('wormhole', 'token')).toBe('bridge');
    expect(categoryOf('friend-tech-users', 'account')).toBe('other');
    expect(categoryOf('friend-tech-users', 'token')).toBe('token');
  });

  it('holds every label of the mixer category the scans flag', () => {
    const mixers = readSnapshot().rows.filter(([, , label, , kind]) => categoryOf(label, kind) === 'mixer');
    expect(mixers.length).toBeGreaterThan(0);
    for (const [address, chainId, label] of mixers.slice(0, 20))
      expect(labelsOnChain(chainId, address).map((row) => row.label)).toContain(label);
  });
});
