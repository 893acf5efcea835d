/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each list adds 1 / (k + rank) to
 * an item's score, so items ranked well by both lexical and vector search rise, whatever the
 * scales of their own scores. k = 60 is the paper's constant, used unchanged.
 */
const RRF_K = 60;

export function reciprocalRankFusion<T>(
  lists: readonly (readonly T[])[],
  keyOf: (item: T) => string,
  k = RRF_K,
): { item: T; score: number }[] {
  const fused = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach((item, rank) => {
      const key = keyOf(item);
      const entry = fused.get(key) ?? { item, score: 0 };
      entry.score += 1 / (k + rank + 1);
      fused.set(key, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
