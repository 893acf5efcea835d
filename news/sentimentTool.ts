import type { NewsItem } from './core/schema.ts';
import type { NewsStore } from './store.ts';

export interface NewsSentimentQuery {
  token?: string | undefined;
  topic?: string | undefined;
  limit: number;
}

export interface NewsSentimentAnswer {
  query: { token: string | null; topic: string | null };
  aggregate: { items: number; positive: number; neutral: number; negative: number; mean_score: number };
  items: Pick<NewsItem, 'title' | 'url' | 'source' | 'published_at' | 'sentiment' | 'entities'>[];
}

/** get_news_sentiment: the latest items on a token (address, symbol or name) or topic, and their aggregate. */
export async function newsSentiment(
  store: NewsStore,
  query: NewsSentimentQuery,
): Promise<NewsSentimentAnswer> {
  const token = query.token?.trim();
  const isAddress = token !== undefined && /^0x[0-9a-fA-F]{40}$/.test(token);
  const items = await store.latest({
    ...(isAddress ? { address: token } : {}),
    ...(token && !isAddress ? { symbol: token, topic: token } : {}),
    ...(query.topic ? { topic: query.topic } : {}),
    limit: query.limit,
  });
  const counts = { positive: 0, neutral: 0, negative: 0 };
  for (const item of items) counts[item.sentiment.label] += 1;
  const mean = items.length ? items.reduce((sum, item) => sum + item.sentiment.score, 0) / items.length : 0;
  return {
    query: { token: token ?? null, topic: query.topic ?? null },
    aggregate: { items: items.length, ...counts, mean_score: Number(mean.toFixed(3)) },
    items: items.map(({ title, url, source, published_at, sentiment, entities }) => ({
      title,
      url,
      source,
      published_at,
      sentiment,
      entities,
    })),
  };
}
