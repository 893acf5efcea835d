import { ApplicationFailure } from '@temporalio/activity';
import { newsItemsFrom } from '../../news/feeds/items.ts';
import { EntityLinker, type KnownToken } from '../../news/feeds/link.ts';
import { FeedParseError, parseFeedDocument } from '../../news/feeds/parse.ts';
import type { NewsStore } from '../../news/store.ts';
import { fetchThroughScraper } from '../retrieval/fetchThroughScraper.ts';

export interface NewsActivityDeps {
  news: NewsStore;
  /** The tokens news items are linked to (the scanned ones). */
  knownTokens: () => Promise<KnownToken[]>;
  scraper: { url: string; apiKey?: string | undefined };
}

export interface FeedIngested {
  feed: string;
  items: number;
  added: number;
}

/** The news pipeline's one step, per feed. Its name is recorded in workflow histories: never rename. */
export function createNewsActivities(deps: NewsActivityDeps) {
  return {
    /**
     * Reads one feed through the scraper service (its escalation chain, egress guard and
     * politeness), parses it, links and classifies its items and stores the ones not seen before.
     */
    async ingestNewsFeed(feedUrl: string): Promise<FeedIngested> {
      const body = await fetchThroughScraper(deps.scraper, feedUrl, 'raw');
      let feed: ReturnType<typeof parseFeedDocument>;
      try {
        feed = parseFeedDocument(body);
      } catch (error) {
        if (error instanceof FeedParseError)
          throw ApplicationFailure.nonRetryable(error.message, 'not_a_feed');
        throw error;
      }
      const linker = new EntityLinker(await deps.knownTokens());
      const items = newsItemsFrom(feed, { feedUrl, linker, now: new Date() });
      return { feed: feedUrl, items: items.length, added: await deps.news.add(items) };
    },
  };
}

export type NewsActivities = ReturnType<typeof createNewsActivities>;
