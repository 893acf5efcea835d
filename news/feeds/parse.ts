import { load } from 'cheerio';
import { parseFeed } from 'feedsmith';

/** One entry of a feed, whatever its format, as news ingestion reads it. */
interface FeedEntry {
  title: string;
  /** Plain text: HTML in the feed's summary or content is reduced to its text. */
  summary: string;
  url: string | null;
  /** ISO 8601, or null when the entry gives no date that parses. */
  published_at: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'rdf' | 'json';
  title: string | null;
  entries: FeedEntry[];
}

export class FeedParseError extends Error {
  override readonly name = 'FeedParseError';
}

/** Longest summary kept per item: a feed that ships whole articles is not a news summary. */
const SUMMARY_CHARS = 1_000;

/**
 * Parses an RSS 2.0, Atom 1.0, RSS 1.0 (RDF) or JSON Feed document with feedsmith, which detects
 * the format. Entries without a title are dropped (a news item is its headline).
 */
export function parseFeedDocument(body: string): ParsedFeed {
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(body);
  } catch (error) {
    throw new FeedParseError(`not an RSS, Atom, RDF or JSON feed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  switch (parsed.format) {
    case 'rss':
      return {
        format: 'rss',
        title: text(parsed.feed.title),
        entries: entries(parsed.feed.items, (item) => ({
          title: text(item.title),
          summary: plain(item.description ?? item.content?.encoded),
          url: text(item.link),
          published_at: isoDate(item.pubDate ?? item.dc?.dates?.[0]),
        })),
      };
    case 'atom':
      return {
        format: 'atom',
        title: text(parsed.feed.title),
        entries: entries(parsed.feed.entries, (entry) => ({
          title: text(entry.title),
          summary: plain(entry.summary ?? entry.content),
          url: atomLink(entry.links),
          published_at: isoDate(entry.published ?? entry.updated),
        })),
      };
    case 'rdf':
      return {
        format: 'rdf',
        title: text(parsed.feed.title),
        entries: entries(parsed.feed.items, (item) => ({
          title: text(item.title),
          summary: plain(item.description),
          url: text(item.link),
          published_at: isoDate(item.dc?.dates?.[0]),
        })),
      };
    case 'json':
      return {
        format: 'json',
        title: text(parsed.feed.title),
        entries: entries(parsed.feed.items, (item) => ({
          title: text(item.title),
          summary: plain(item.summary ?? item.content_text ?? item.content_html),
          url: text(item.url ?? item.external_url),
          published_at: isoDate(item.date_published ?? item.date_modified),
        })),
      };
    default:
      throw new FeedParseError('an unknown feed format');
  }
}

function entries<T>(
  items: readonly T[] | undefined,
  map: (item: T) => Omit<FeedEntry, 'title'> & { title: string | null },
) {
  const out: FeedEntry[] = [];
  for (const item of items ?? []) {
    const entry = map(item);
    if (entry.title) out.push({ ...entry, title: entry.title });
  }
  return out;
}

/** feedsmith gives Atom texts as `{ value }` and RSS texts as strings. */
function text(value: unknown): string | null {
  const raw = typeof value === 'string' ? value : (value as { value?: unknown } | undefined)?.value;
  if (typeof raw !== 'string') return null;
  const trimmed = raw.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

function plain(value: unknown): string {
  const raw = text(value);
  if (!raw) return '';
  const stripped = raw.includes('<') ? load(raw).root().text().replace(/\s+/g, ' ').trim() : raw;
  return stripped.length > SUMMARY_CHARS ? `${stripped.slice(0, SUMMARY_CHARS - 1)}…` : stripped;
}

/** An entry's page: its `alternate` link, else its first. */
function atomLink(links: readonly { href?: string; rel?: string }[] | undefined): string | null {
  const chosen = links?.find((link) => link.rel === undefined || link.rel === 'alternate') ?? links?.[0];
  return chosen?.href?.trim() || null;
}

function isoDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
