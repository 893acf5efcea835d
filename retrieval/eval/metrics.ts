/**
 * Ranking metrics over labelled questions. A question's relevant items are passages named by
 * their document and a phrase they contain, not by chunk ids, so the labels stay valid whatever
 * the chunking; a retrieved chunk earns the gain of the first not-yet-credited item it holds.
 */
export interface RelevantPassage {
  source: string;
  contains: string;
}

export interface RetrievedChunk {
  path: string;
  text: string;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** For each retrieved chunk, the index of the passage it newly covers, or -1. */
export function judge(retrieved: readonly RetrievedChunk[], relevant: readonly RelevantPassage[]): number[] {
  const credited = new Set<number>();
  return retrieved.map((chunk) => {
    const text = normalise(chunk.text);
    const index = relevant.findIndex(
      (passage, i) =>
        !credited.has(i) && passage.source === chunk.path && text.includes(normalise(passage.contains)),
    );
    if (index >= 0) credited.add(index);
    return index;
  });
}

/** nDCG@k with binary gains: DCG of the ranking over the DCG of the ideal one. */
export function ndcgAtK(judgements: readonly number[], relevantCount: number, k = 10): number {
  if (relevantCount === 0) return 0;
  let dcg = 0;
  judgements.slice(0, k).forEach((judgement, rank) => {
    if (judgement >= 0) dcg += 1 / Math.log2(rank + 2);
  });
  let ideal = 0;
  for (let rank = 0; rank < Math.min(k, relevantCount); rank++) ideal += 1 / Math.log2(rank + 2);
  return dcg / ideal;
}

/** Share of the relevant passages found in the top k. */
export function recallAtK(judgements: readonly number[], relevantCount: number, k = 10): number {
  if (relevantCount === 0) return 0;
  return judgements.slice(0, k).filter((judgement) => judgement >= 0).length / relevantCount;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
