import { z } from 'zod';

const SentimentLabel = { positive: 'positive', neutral: 'neutral', negative: 'negative' } as const;
type SentimentLabel = (typeof SentimentLabel)[keyof typeof SentimentLabel];

const Sentiment = z.object({
  label: z.enum([SentimentLabel.positive, SentimentLabel.neutral, SentimentLabel.negative]),
  /** -1 (negative) .. 1 (positive). */
  score: z.number().min(-1).max(1),
  method: z.string(),
});
type Sentiment = z.infer<typeof Sentiment>;

/** A token or chain an item speaks of, and what in the text linked it. */
const EntityLink = z.object({
  chain: z.string(),
  address: z.string().nullable(),
  symbol: z.string().nullable(),
  matched: z.string(),
});
export type EntityLink = z.infer<typeof EntityLink>;

export const NewsItem = z.object({
  /** Stable across feeds: a hash of the canonical link (or the title and source without one). */
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  url: z.string().nullable(),
  source: z.string(),
  published_at: z.iso.datetime(),
  sentiment: Sentiment,
  entities: z.array(EntityLink),
});
export type NewsItem = z.infer<typeof NewsItem>;
