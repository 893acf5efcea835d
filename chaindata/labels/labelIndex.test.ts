import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { labelsOnChain } from './labelIndex.ts';

const require = createRequire(import.meta.url);

describe('labels held in memory', () => {
  it("finds an address's labels on its chain only, as the source file lists them", () => {
    const phishing = JSON.parse(
      readFileSync(require.resolve('evm-labels/lib/esm/mainnet/phish-hack/all.json'), 'utf8'),
    ) as { address: string; nameTag: string }[];
    const named = phishing.find((entry) => entry.nameTag.length > 0);
    if (!named) throw new Error('the source has no named phishing address');
    const labels = labelsOnChain(1, named.address.toUpperCase().replace('0X', '0x'));
    expect(labels).toContainEqual(
      expect.objectContaining({ label: 'phish-hack', category: 'phish_hack', name_tag: named.nameTag }),
    );
    expect(labelsOnChain(31337, named.address)).toEqual([]);
    expect(labelsOnChain(1, '0x000000000000000000000000000000000000beef')).toEqual([]);
  });
});
