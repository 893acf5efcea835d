import { describe, expect, it } from 'vitest';
import { NewsItem } from '../core/schema.ts';
import { canonicalLink, newsItemsFrom } from './items.ts';
import { EntityLinker, type KnownToken } from './link.ts';
import { FeedParseError, parseFeedDocument } from './parse.ts';

const PEPE = '0x6982508145454ce325ddbe47a25d4ec3d2311933';
const tokens: KnownToken[] = [
  { chain: 'ethereum', address: PEPE, symbol: 'PEPE', name: 'Pepe' },
  { chain: 'base', address: '0x4ed4e862860bed51a9570b96d89af5e1b0efefed', symbol: 'DEGEN', name: 'Degen' },
];
const linker = new EntityLinker(tokens);
const now = new Date('2026-11-24T12:00:00Z');

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Chain Daily</title>
<item><title>$PEPE rallies as whales accumulate</title><link>https://news.example/pepe-rally?utm_source=rss#top</link>
<description>&lt;p&gt;Contract &lt;b&gt;${PEPE}&lt;/b&gt; saw inflows.&lt;/p&gt;</description><pubDate>Mon, 23 Nov 2026 08:30:00 GMT</pubDate></item>
<item><title>Exploit drains bridge on Ethereum</title><link>https://news.example/bridge-exploit</link><pubDate>not a date</pubDate></item>
<item><description>no title, dropped</description></item></channel></rss>`;
const ATOM = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Wire</title>
<entry><title>Pepe listed on a new exchange</title><link rel="alternate" href="https://NEWS.example/pepe-rally"/>
<id>urn:a1</id><updated>2026-11-23T09:00:00Z</updated><summary type="html">&lt;i&gt;Big&lt;/i&gt; day</summary></entry></feed>`;
const RDF = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://r.example/"><title>RDF Desk</title><link>https://r.example/</link><description>d</description></channel>
<item rdf:about="https://r.example/1"><title>DEGEN holders double on Base</title><link>https://r.example/1</link><dc:date>2026-11-22T10:00:00Z</dc:date></item></rdf:RDF>`;
const JSON_FEED = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'JSON Beat',
  items: [
    {
      id: '1',
      url: '/j1',
      title: 'Regulators warn about a pepe-themed scam',
      content_html: '<p>Read more</p>',
    },
  ],
});

describe('feed parsing', () => {
  it('reads RSS, Atom, RDF and JSON Feed into one entry shape, text without HTML, dates as ISO', () => {
    const rss = parseFeedDocument(RSS);
    expect(rss).toMatchObject({ format: 'rss', title: 'Chain Daily' });
    expect(rss.entries).toHaveLength(2);
    expect(rss.entries[0]).toEqual({
      title: '$PEPE rallies as whales accumulate',
      summary: `Contract ${PEPE} saw inflows.`,
      url: 'https://news.example/pepe-rally?utm_source=rss#top',
      published_at: '2026-11-23T08:30:00.000Z',
    });
    expect(rss.entries[1]?.published_at).toBeNull();
    expect(parseFeedDocument(ATOM).entries[0]).toMatchObject({
      summary: 'Big day',
      url: 'https://NEWS.example/pepe-rally',
    });
    expect(parseFeedDocument(RDF).entries[0]).toMatchObject({
      title: 'DEGEN holders double on Base',
      published_at: '2026-11-22T10:00:00.000Z',
    });
    expect(parseFeedDocument(JSON_FEED)).toMatchObject({
      format: 'json',
      entries: [{ summary: 'Read more', url: '/j1' }],
    });
  });

  it('expands no entities: a billion-laughs feed stays small, an external entity is never read', () => {
    const levels = Array.from({ length: 8 }, (_, n) => `<!ENTITY l${n + 1} "${`&l${n};`.repeat(10)}">`).join(
      '',
    );
    const laughs = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${levels}]><rss version="2.0"><channel><title>t</title><item><title>&l8;</title><link>https://x.example/a</link></item></channel></rss>`;
    const before = process.memoryUsage().rss;
    const [entry] = parseFeedDocument(laughs).entries;
    expect(entry?.title.length).toBeLessThan(100);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    const external = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rss version="2.0"><channel><title>t</title><item><title>&x;</title></item></channel></rss>`;
    let read = '';
    try {
      read = JSON.stringify(parseFeedDocument(external));
    } catch (error) {
      expect(error).toBeInstanceOf(FeedParseError);
    }
    expect(read).not.toContain('root:');
  });

  it('keeps markup in a headline as text and drops it from summaries', () => {
    const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>&lt;script&gt;alert(1)&lt;/script&gt; PEPE</title><link>javascript:alert(1)</link><description>&lt;img src=x onerror=alert(1)&gt;Real text</description></item></channel></rss>`;
    const [item] = newsItemsFrom(parseFeedDocument(feed), { feedUrl: 'https://f.example/rss', linker, now });
    expect(item?.title).toBe('<script>alert(1)</script> PEPE');
    expect(item?.summary).toBe('Real text');
    expect(item?.url).toBeNull();
  });

  it('refuses what is not a feed with its own error', () => {
    for (const body of ['<html><body>a page</body></html>', 'plain text', '{"not":"a feed"}', ''])
      expect(() => parseFeedDocument(body), body).toThrow(FeedParseError);
  });
});

describe('news items from feeds', () => {
  it('are one item per story across feeds: the canonical link drops fragments, tracking and host case', () => {
    expect(canonicalLink('https://NEWS.example/a/?utm_source=x&b=2&a=1#frag')).toBe(
      'https://news.example/a?a=1&b=2',
    );
    expect(canonicalLink('javascript:alert(1)')).toBeNull();
    const fromRss = newsItemsFrom(parseFeedDocument(RSS), {
      feedUrl: 'https://news.example/rss',
      linker,
      now,
    });
    const fromAtom = newsItemsFrom(parseFeedDocument(ATOM), {
      feedUrl: 'https://atom.example/feed',
      linker,
      now,
    });
    expect(fromAtom[0]?.id).toBe(fromRss[0]?.id);
    for (const item of [...fromRss, ...fromAtom]) expect(NewsItem.parse(item)).toEqual(item);
    // A relative link resolves against the feed; an entry without a date is dated when read.
    const fromJson = newsItemsFrom(parseFeedDocument(JSON_FEED), {
      feedUrl: 'https://j.example/feed.json',
      linker,
      now,
    });
    expect(fromJson[0]?.url).toBe('https://j.example/j1');
    expect(fromRss[1]?.published_at).toBe(now.toISOString());
  });

  it('classify the headline and link tokens by address, $symbol, capital symbol or name, and chains by name', () => {
    const [rally, exploit] = newsItemsFrom(parseFeedDocument(RSS), {
      feedUrl: 'https://news.example/rss',
      linker,
      now,
    });
    expect(rally?.sentiment.label).toBe('positive');
    expect(exploit?.sentiment.label).toBe('negative');
    expect(rally?.entities).toEqual([{ chain: 'ethereum', address: PEPE, symbol: 'PEPE', matched: PEPE }]);
    expect(exploit?.entities).toEqual([
      { chain: 'ethereum', address: null, symbol: null, matched: 'Ethereum' },
    ]);
    const [degen] = newsItemsFrom(parseFeedDocument(RDF), { feedUrl: 'https://r.example/rss', linker, now });
    // "Base" is a chain and an ordinary word: not linked by name; DEGEN is, by its symbol.
    expect(degen?.entities.map((link) => link.symbol)).toEqual(['DEGEN']);
    // A lower-case symbol inside a word is not the token; the name as a whole word is.
    expect(linker.link('pepperoni and pepe-themed')).toEqual([
      { chain: 'ethereum', address: PEPE, symbol: 'PEPE', matched: 'pepe' },
    ]);
    expect(linker.link('a grape and a DEGENERATE')).toEqual([]);
  });
});
