import { describe, expect, it } from 'vitest';
import type { NewsItem } from '../../news/core/schema.ts';
import type { Report } from '../core/schema.ts';
import { EvidenceLinker } from '../evidence.ts';
import { newsSection } from '../sections/news.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';

const hostileItem: NewsItem = {
  id: 'n1',
  title: '<script>window.pwned=1</script><img src=x onerror="window.pwned=2"> TOK lists on a big exchange',
  summary: '',
  url: 'javascript:window.pwned=3',
  source: 'evil"><b>feed',
  published_at: '2026-11-20T10:00:00.000Z',
  sentiment: { label: 'positive', score: 0.6, method: 'lexicon' },
  entities: [],
};

function hostileReport(): Report {
  const news = newsSection([hostileItem], new EvidenceLinker('ethereum'));
  return {
    id: 'report:token_ethereum:0xabc:run',
    subject: { kind: 'token', chain: 'ethereum', address: '0xabc' },
    generated_at: '2026-11-23T00:00:00.000Z',
    narrative: {
      author: 'llm',
      model: '<script>m()</script>',
      sentences: [{ text: 'It <iframe src="https://evil.test"></iframe> listed.', cites: ['news-item-0'] }],
      dropped: 1,
    },
    sections: [
      news,
      {
        kind: 'deployer',
        title: 'Deployer reputation',
        status: 'completed',
        facts: [
          {
            id: 'deployer-score',
            text: 'ok',
            evidence: [
              new EvidenceLinker('ethereum').tx('0xdeadbeef'),
              { kind: 'url', ref: 'x', url: 'data:text/html,<script>1</script>' },
            ],
          },
        ],
        data: {},
        charts: [],
      },
      {
        kind: 'similar',
        title: 'Similar tokens',
        status: 'failed',
        facts: [],
        data: {},
        charts: [],
        error: { reason: 'failed', message: '<b>down</b>' },
      },
    ],
  };
}

describe('rendering untrusted text', () => {
  it('escapes markup in HTML and links only http(s) URLs', () => {
    const html = renderHtml(hostileReport());
    expect(html).not.toMatch(/<script>window|<img src=x|<iframe|<b>feed|<b>down/);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('href="data:');
    expect(html).toContain('&#60;script&#62;window.pwned=1&#60;/script&#62;');
    // A real explorer link is kept.
    expect(html).toContain('href="https://etherscan.io/tx/0xdeadbeef"');
    // Says who wrote the summary.
    expect(html).toContain('language model');
  });

  it('escapes markup in Markdown and links only http(s) URLs', () => {
    const md = renderMarkdown(hostileReport());
    expect(md).not.toMatch(/<script|<img|<iframe/);
    expect(md).not.toContain('](javascript:');
    expect(md).not.toContain('](data:');
    expect(md).toContain('(https://etherscan.io/tx/0xdeadbeef)');
    expect(md).toContain('This section could not be written');
  });
});
