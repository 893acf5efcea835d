import { proxyActivities } from '@temporalio/workflow';
import type { FeedIngested, NewsActivities } from '../activities/news/index.ts';

// A feed goes through the scraper's escalation chain (up to a minute); a busy scraper is retried.
const { ingestNewsFeed } = proxyActivities<NewsActivities>({
  startToCloseTimeout: '2m',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumAttempts: 4,
    nonRetryableErrorTypes: ['not_a_feed', 'url_not_allowed', 'fetch_failed', 'scraper_refused'],
  },
});

export interface IngestNewsResult {
  feeds: (FeedIngested | { feed: string; error: string })[];
  added: number;
}

/**
 * One round of the news pipeline, started by the `news-feeds` schedule: every configured feed,
 * side by side; a feed that fails is reported and the others still count.
 */
export async function ingestNews(input: { feeds: string[] }): Promise<IngestNewsResult> {
  const settled = await Promise.allSettled(input.feeds.map((feed) => ingestNewsFeed(feed)));
  const feeds = settled.map((outcome, index) =>
    outcome.status === 'fulfilled'
      ? outcome.value
      : {
          feed: input.feeds[index] ?? '',
          error: String((outcome.reason as Error).cause ?? outcome.reason).slice(0, 300),
        },
  );
  return { feeds, added: feeds.reduce((sum, feed) => sum + ('added' in feed ? feed.added : 0), 0) };
}
