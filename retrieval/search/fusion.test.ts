import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './fusion.ts';

describe('reciprocalRankFusion', () => {
  it('ranks an item found by both lists above items found by one, with 1/(k+rank) scores', () => {
    const fused = reciprocalRankFusion(
      [
        ['a', 'b', 'c'],
        ['c', 'd'],
      ],
      (item) => item,
      60,
    );
    // b and d tie at 1/62: the first seen stays first.
    expect(fused.map((entry) => entry.item)).toEqual(['c', 'a', 'b', 'd']);
    expect(fused[0]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused.find((entry) => entry.item === 'b')?.score).toBeCloseTo(1 / 62, 12);
  });

  it('answers nothing for no lists and keeps one list in its order', () => {
    expect(reciprocalRankFusion<string>([], (item) => item)).toEqual([]);
    expect(reciprocalRankFusion([['x', 'y']], (item) => item).map((entry) => entry.item)).toEqual(['x', 'y']);
  });
});
