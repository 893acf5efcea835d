import { ApplicationFailure } from '@temporalio/activity';
import { newsItemsFrom } from '../../news/feeds/items.ts';
import { EntityLinker, type KnownToken } from '../../news/feeds/link.ts';
import { FeedParseError, parseFeedDocument } from '../../news/feeds/parse.ts';
import type { NewsItem } from '../../news/core/schema.ts';
import type { NewsStore } from '../../news/store.ts';
import { fetchThroughScraper } from '../retrieval/fetchThroughScraper.ts';

export interface NewsActivityDeps {
  news: NewsStore;
  /** The retrieval service new items are indexed into (category `news`); unset: not indexed. */
  retrievalUrl?: string | undefined;
  /** The tokens news items are linked to (the scanned ones). */
  knownTokens: () => Promise<KnownToken[]>;
  scraper: { url: string; apiKey?: string | undefined };
}

export interface FeedIngested {
  feed: string;
  items: number;
  added: number;
  /** New items handed to the retrieval service for indexing. */
  indexed: number;
}

/** The news pipeline's one step, per feed. Its name is recorded in workflow histories: never rename. */
export function createNewsActivities(deps: NewsActivityDeps) {
  /**
   * New items go to the retrieval index as documents of their own (`news/<id>`, category `news`),
   * so questions about a token find its news. Indexing is the retrieval service's own durable job;
   * an item it refuses now is not retried by the next round (the item is no longer new) and stays
   * in the news store all the same.
   */
  const index = async (items: readonly NewsItem[]): Promise<number> => {
    if (!deps.retrievalUrl || items.length === 0) return 0;
    const base = deps.retrievalUrl.replace(/\/+$/, '');
    const accepted = await Promise.all(
      items.map(async (item) => {
        const query = new URLSearchParams({
          doc_id: `news/${item.id}`,
          source: item.url ?? `news/${item.id}`,
          category: 'news',
        });
        const linked = item.entities
          .map((entity) => entity.symbol ?? entity.address ?? entity.chain)
          .join(', ');
        const body = [
          `# ${item.title}`,
          '',
          item.summary,
          '',
          `Source: ${item.source}, ${item.published_at}. Sentiment: ${item.sentiment.label}.${linked ? ` About: ${linked}.` : ''}`,
        ].join('\n');
        const response = await fetch(`${base}/v1/ingest?${query.toString()}`, {
          method: 'POST',
          headers: { 'content-type': 'text/markdown' },
          body,
          signal: AbortSignal.timeout(10_000),
        }).catch(() => undefined);
        return response?.status === 202;
      }),
    );
    return accepted.filter(Boolean).length;
  };
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
      const added = await deps.news.addNew(items);
      return { feed: feedUrl, items: items.length, added: added.length, indexed: await index(added) };
    },
  };
}

export type NewsActivities = ReturnType<typeof createNewsActivities>;
