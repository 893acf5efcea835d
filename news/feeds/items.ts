import { createHash } from 'node:crypto';
import { classifyHeadline } from '../sentiment/classify.ts';
import type { NewsItem } from '../core/schema.ts';
import type { EntityLinker } from './link.ts';
import type { ParsedFeed } from './parse.ts';

/** Query parameters that track a reader, not name a page: two feeds' links to one story match without them. */
const TRACKING = /^(utm_[a-z]+|ref|source|fbclid|gclid|mc_cid|mc_eid)$/i;

/** A link as the same story would have it in every feed: no fragment, no tracking, lowercase host. */
export function canonicalLink(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  parsed.hash = '';
  for (const key of [...parsed.searchParams.keys()]) if (TRACKING.test(key)) parsed.searchParams.delete(key);
  parsed.searchParams.sort();
  const path = parsed.pathname.length > 1 ? parsed.pathname.replace(/\/+$/, '') : parsed.pathname;
  return `${parsed.protocol}//${parsed.host.toLowerCase()}${path}${parsed.search}`;
}

/**
 * A feed's entries as news items: deduplicated by their canonical link (or, without one, by source
 * and headline), classified for sentiment on the headline (the classifier was measured on
 * headlines), and linked to the tokens and chains their headline and summary name.
 */
export function newsItemsFrom(
  feed: ParsedFeed,
  context: { feedUrl: string; linker: EntityLinker; now: Date },
): NewsItem[] {
  const source = feed.title ?? new URL(context.feedUrl).hostname;
  const items = new Map<string, NewsItem>();
  for (const entry of feed.entries) {
    const url = entry.url ? canonicalLink(new URL(entry.url, context.feedUrl).href) : null;
    const id = createHash('sha256')
      .update(url ?? `${source}\n${entry.title.toLowerCase()}`)
      .digest('hex')
      .slice(0, 32);
    if (items.has(id)) continue;
    items.set(id, {
      id,
      title: entry.title,
      summary: entry.summary,
      url,
      source,
      published_at: entry.published_at ?? context.now.toISOString(),
      sentiment: classifyHeadline(entry.title),
      entities: context.linker.link(`${entry.title}\n${entry.summary}`),
    });
  }
  return [...items.values()];
}
