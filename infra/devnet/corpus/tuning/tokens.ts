import type { CorpusTokenSpec } from '../spec.ts';

// The tuning part of the corpus: what the model is built and checked against.
export const TUNING_TOKENS: Record<string, CorpusTokenSpec> = {};
