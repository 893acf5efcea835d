import type { Fact, NarrativeSentence } from '../core/schema.ts';

/** A fact id cited in a sentence: `[fact-id]`, several allowed. */
const CITATION = /\[([a-z]+-[a-z0-9_-]+)\]/g;

/**
 * Splits a model's prose into sentences and keeps only those citing at least one known fact id.
 * The citations are taken out of the text and kept beside it; ids the model invented do not
 * count. Returns the kept sentences and how many were dropped.
 */
export function keepCitedSentences(
  prose: string,
  facts: readonly Fact[],
): { sentences: NarrativeSentence[]; dropped: number } {
  const known = new Set(facts.map((fact) => fact.id));
  const sentences: NarrativeSentence[] = [];
  let dropped = 0;
  // A sentence ends at . ! or ? followed by space or end, after any trailing citations.
  const parts = prose
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?](?:\s*\[[a-z0-9_-]+\])*)\s+(?=[A-Z0-9"'(])/)
    .map((part) => part.trim())
    .filter(Boolean);
  for (const part of parts) {
    const cites = [...part.matchAll(CITATION)].map((match) => match[1] ?? '').filter((id) => known.has(id));
    const text = part
      .replace(CITATION, '')
      .replace(/\s+([.!?,;:])/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
    if (cites.length === 0 || text.length === 0) {
      dropped += 1;
      continue;
    }
    sentences.push({ text, cites: [...new Set(cites)] });
  }
  return { sentences, dropped };
}
