import { type Address, isAddress } from 'viem';
import { z } from 'zod';

// Kept free of deploy code, like scenarioSchema.ts: services and benchmarks read corpus labels
// without the compiler.

// The classes (mint, leak, limit) are defined once, with the checks that claim each.
export { HARM_CLASSES, type HarmClass } from '../../../scanner/core/risk/harm.ts';

/** The held-out part is never tuned on; the tuning part is what the model was built against. */
export const CORPUS_PARTS = ['heldout', 'tuning'] as const;
export type CorpusPart = (typeof CORPUS_PARTS)[number];

export const TIERS = ['low', 'medium', 'high', 'critical'] as const;
const tier = z.enum(TIERS);

/** Why the token is in the corpus: a scam, or a benign token whose mechanics look unusual. */
const CorpusGroup = z.enum(['scam', 'benign_unusual', 'benign_plain']);

/** How the token's market was set up on the devnet (see MARKETS). */
export const MarketPreset = z.enum(['healthy', 'healthy_locked', 'rug_ready', 'quiet', 'honeypot']);
export type MarketPreset = z.infer<typeof MarketPreset>;

/**
 * The truth about one corpus token, written from its contract before any scanner saw it: the
 * harm classes, the tier band a trader should see (both ends inclusive), and its group.
 */
const corpusLabelsSchema = z.object({
  mint: z.boolean(),
  leak: z.boolean(),
  limit: z.boolean(),
  tier: z.object({ min: tier, max: tier }),
  group: CorpusGroup,
});
export type CorpusLabels = z.infer<typeof corpusLabelsSchema>;

const address = z.custom<Address>((value) => typeof value === 'string' && isAddress(value), {
  message: 'expected a 0x-prefixed, 20-byte address',
});

export const corpusTokenSchema = z.object({
  address,
  pair: address,
  name: z.string(),
  symbol: z.string(),
  contract: z.string(),
  part: z.enum(CORPUS_PARTS),
  market: MarketPreset,
  /** The trick, in words. */
  pattern: z.string(),
  labels: corpusLabelsSchema,
  /** Contracts deployed with the token (a timelock that owns it...), by name. */
  helpers: z.record(z.string(), address),
});
export type CorpusToken = z.infer<typeof corpusTokenSchema>;

/** A market is healthy when LP is burned or locked, holders are spread and trading goes both ways. */
export function isHealthyMarket(market: MarketPreset): boolean {
  return market === 'healthy' || market === 'healthy_locked';
}
