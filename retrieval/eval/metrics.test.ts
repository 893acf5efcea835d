import { describe, expect, it } from 'vitest';
import { judge, mean, ndcgAtK, recallAtK } from './metrics.ts';

const relevant = [
  { source: 'docs/a.md', contains: 'LP   tokens' },
  { source: 'docs/b.md', contains: 'sell tax' },
];

describe('retrieval metrics', () => {
  it('credits a chunk by document and phrase (whitespace and case aside), each passage once', () => {
    const judgements = judge(
      [
        { path: 'docs/a.md', text: 'Nothing here' },
        { path: 'docs/b.md', text: 'The SELL\ntax is measured' },
        { path: 'docs/a.md', text: 'lp tokens locked' },
        { path: 'docs/a.md', text: 'lp tokens again' },
        { path: 'docs/c.md', text: 'sell tax in another document' },
      ],
      relevant,
    );
    expect(judgements).toEqual([-1, 1, 0, -1, -1]);
  });

  it('computes nDCG@k and recall@k as in the usual definitions', () => {
    // Relevant at ranks 2 and 3 of two: (1/log2(3) + 1/log2(4)) / (1 + 1/log2(3)).
    expect(ndcgAtK([-1, 1, 0], 2)).toBeCloseTo((1 / Math.log2(3) + 0.5) / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAtK([0, 1], 2)).toBe(1);
    expect(ndcgAtK([-1, -1], 2)).toBe(0);
    expect(recallAtK([-1, 1, 0], 2)).toBe(1);
    expect(recallAtK([-1, 1, 0], 2, 2)).toBe(0.5);
    expect(recallAtK([], 0)).toBe(0);
    expect(mean([0.5, 1])).toBe(0.75);
  });
});
