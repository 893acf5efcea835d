import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdown, precisionRecall, type Verdict } from './groundTruth.ts';

const results = JSON.parse(readFileSync(new URL('./results/ground-truth.json', import.meta.url), 'utf8')) as {
  verdicts: Verdict[];
};
const doc = readFileSync(new URL('../docs/risk-model.md', import.meta.url), 'utf8');

describe('the ground-truth figures in docs/risk-model.md', () => {
  it('are the ones computed from the committed verdicts (node bench/groundTruth.ts --write)', () => {
    const section = doc.slice(
      doc.indexOf('-->', doc.indexOf('ground-truth:begin')) + 3,
      doc.indexOf('<!-- ground-truth:end'),
    );
    expect(section.trim()).toBe(markdown(results.verdicts).trim());
  });

  it('count a flag the scanner raised but the ground truth does not as a false positive', () => {
    const stats = precisionRecall([
      {
        chain: 'devnet',
        key: 'a',
        expected: { flags: ['sell_tax'], tier: 'medium' },
        actual: { flags: ['sell_tax', 'buy_tax'], tier: 'medium' },
      },
      {
        chain: 'devnet',
        key: 'b',
        expected: { flags: ['buy_tax'], tier: 'medium' },
        actual: { flags: [], tier: 'low' },
      },
    ]);
    expect(stats.find((row) => row.flag === 'buy_tax')).toMatchObject({
      tp: 0,
      fp: 1,
      fn: 1,
      precision: 0,
      recall: 0,
    });
    expect(stats.find((row) => row.flag === 'sell_tax')).toMatchObject({ tp: 1, precision: 1, recall: 1 });
  });
});
