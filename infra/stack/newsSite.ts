import { createServer } from 'node:http';
import { once } from 'node:events';
import type { ScenarioToken } from '../devnet/scenarioSchema.ts';

export interface NewsSite {
  url: string;
  /** The feeds it serves: RSS, Atom and JSON Feed. */
  feeds: string[];
  close(): Promise<void>;
}

interface Story {
  title: string;
  summary: string;
  slug: string;
  hoursAgo: number;
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What a news desk would write about a devnet token, from what it is: a few stories per token,
 * in the voice of the crypto press, each naming the token by symbol or name and its contract.
 */
function storiesOf(key: string, token: ScenarioToken, index: number): Story[] {
  const { name, symbol, address, expected } = token;
  const at = (offset: number) => index * 3 + offset;
  const contract = `Contract: ${address}.`;
  if (expected.honeypot)
    return [
      {
        title: `${symbol} holders say they cannot sell as price keeps climbing`,
        summary: `Buyers of ${name} report failed sell transactions${expected.sellRevertReason ? ` ("${expected.sellRevertReason}")` : ''}. ${contract}`,
        slug: `${key}-cannot-sell`,
        hoursAgo: at(1),
      },
      {
        title: `Warning: ${name} looks like a honeypot, researchers say`,
        summary: `Only buys have gone through since launch. ${contract}`,
        slug: `${key}-honeypot-warning`,
        hoursAgo: at(2),
      },
    ];
  if (expected.tier === 'critical' || expected.tier === 'high')
    return [
      {
        title: `Analysts flag risks in ${symbol} after launch`,
        summary: `The ${name} contract gives its owner powers holders should know about (${expected.flags.slice(0, 3).join(', ') || 'owner powers'}). ${contract}`,
        slug: `${key}-risks`,
        hoursAgo: at(1),
      },
    ];
  if (expected.tier === 'medium')
    return [
      {
        title: `${name} (${symbol}) draws mixed reactions from traders`,
        summary: `Some like the project, others point at its settings. ${contract}`,
        slug: `${key}-mixed`,
        hoursAgo: at(1),
      },
    ];
  return [
    {
      title: `${symbol} rallies as liquidity grows and new holders arrive`,
      summary: `${name} gained steadily this week. ${contract}`,
      slug: `${key}-rally`,
      hoursAgo: at(1),
    },
  ];
}

const GENERAL: Story[] = [
  {
    title: 'Ethereum gas fees fall to a yearly low',
    summary: 'Quiet blocks and cheap transfers.',
    slug: 'gas-low',
    hoursAgo: 5,
  },
  {
    title: 'Solana validators ship an upgrade without downtime',
    summary: 'A smooth release.',
    slug: 'solana-upgrade',
    hoursAgo: 9,
  },
  {
    title: 'Bridge exploit drains funds on a sidechain',
    summary: 'Users are told to revoke approvals.',
    slug: 'bridge-exploit',
    hoursAgo: 14,
  },
];

/**
 * A local news desk for `npm start`: stories about the devnet's tokens in RSS, Atom and JSON Feed,
 * so the news pipeline (the scraper, linking, sentiment, get_news_sentiment) works offline.
 */
export async function startNewsSite(options: {
  port: number;
  tokens: Record<string, ScenarioToken>;
}): Promise<NewsSite> {
  const now = Date.now();
  const stories = [
    ...Object.entries(options.tokens).flatMap(([key, token], index) => storiesOf(key, token, index)),
    ...GENERAL,
  ];
  const server = createServer();
  server.listen(options.port, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${options.port}`;
  const dated = stories.map((story) => ({
    ...story,
    link: `${base}/news/${story.slug}`,
    date: new Date(now - story.hoursAgo * 3_600_000),
  }));
  // Three desks, a third of the stories each (and the general news in all): as feeds overlap.
  const desk = (n: number) =>
    dated.filter((_, index) => index % 3 === n || index >= dated.length - GENERAL.length);
  const rss = () =>
    `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Devnet Daily</title><link>${base}/</link><description>Token news from the devnet</description>${desk(
      0,
    )
      .map(
        (story) =>
          `<item><title>${xml(story.title)}</title><link>${story.link}?utm_source=rss</link><description>${xml(story.summary)}</description><pubDate>${story.date.toUTCString()}</pubDate><guid>${story.link}</guid></item>`,
      )
      .join('')}</channel></rss>`;
  const atom = () =>
    `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Chain Wire</title><id>${base}/atom.xml</id><updated>${new Date(now).toISOString()}</updated>${desk(
      1,
    )
      .map(
        (story) =>
          `<entry><title>${xml(story.title)}</title><link rel="alternate" href="${story.link}"/><id>${story.link}</id><updated>${story.date.toISOString()}</updated><summary>${xml(story.summary)}</summary></entry>`,
      )
      .join('')}</feed>`;
  const json = () =>
    JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Token Beat',
      home_page_url: `${base}/`,
      items: desk(2).map((story) => ({
        id: story.link,
        url: story.link,
        title: story.title,
        content_text: story.summary,
        date_published: story.date.toISOString(),
      })),
    });
  const routes: Record<string, { type: string; body: () => string }> = {
    '/rss.xml': { type: 'application/rss+xml; charset=utf-8', body: rss },
    '/atom.xml': { type: 'application/atom+xml; charset=utf-8', body: atom },
    '/feed.json': { type: 'application/feed+json; charset=utf-8', body: json },
  };
  server.on('request', (request, response) => {
    const route = routes[(request.url ?? '').split('?')[0] ?? ''];
    if (route) response.writeHead(200, { 'content-type': route.type }).end(route.body());
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  return {
    url: base,
    feeds: Object.keys(routes).map((route) => `${base}${route}`),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
