import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../core/text/chunkMarkdown.ts';
import { convertPage, convertWithExtras } from './convert.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>Engine costs</title>
<meta name="description" content="What each engine costs">
<link rel="canonical" href="/costs">
<script type="application/ld+json">{"@type":"Article","headline":"Engine costs"}</script>
<script>window.tracking = 1</script><style>body{color:red}</style></head>
<body><header class="site"><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><h1>Engine costs</h1><p>Measured on a <b>two-core</b> machine, see <a href="notes/run.html?utm_source=feed&amp;run=7">the run</a>.</p>
<table><thead><tr><th>Engine</th><th>Cost</th></tr></thead><tbody><tr><td>fetch</td><td>1</td></tr><tr><td>browser</td><td>10 | more</td></tr></tbody></table>
<ul><li>first</li><li>second</li></ul><pre><code class="language-js">const a = 1;
const b = 2;</code></pre><img src="/img/chart.png" alt="chart"></main>
<footer>Copyright Example Inc.</footer></body></html>`;

const base = {
  body: PAGE,
  contentType: 'text/html; charset=utf-8',
  url: 'https://example.com/docs/page',
  headers: {},
};

describe('convertPage', () => {
  it('raw answers the body as sent: a feed keeps its XML, a page its scripts', () => {
    const feed =
      '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>A &amp; B</title><link>https://x.example/a</link></item></channel></rss>';
    expect(convertPage({ ...base, body: feed, contentType: 'application/rss+xml', format: 'raw' })).toBe(
      feed,
    );
    expect(convertPage({ ...base, format: 'raw' })).toBe(PAGE);
  });

  it('markdown keeps the main content with GFM tables and absolute links, without furniture or the headline', () => {
    const markdown = convertPage({ ...base, format: 'markdown' }) as string;
    // The headline repeats the title (json has it); the body starts after it, as in Readability.
    expect(markdown).not.toContain('# Engine costs');
    expect(markdown).toContain('**two-core**');
    // Absolute, and without the tracking parameter.
    expect(markdown).toContain('[the run](https://example.com/docs/notes/run.html?run=7)');
    expect(markdown).toContain('| Engine | Cost |');
    expect(markdown).toContain('| browser | 10 \\| more |');
    expect(markdown).toContain('- first\n- second');
    expect(markdown).toContain('```js\nconst a = 1;\nconst b = 2;\n```');
    expect(markdown).toContain('![chart](https://example.com/img/chart.png)');
    expect(markdown).not.toContain('Copyright');
    expect(markdown).not.toContain('About');
    expect(markdown).not.toContain('tracking');
  });

  it('text keeps block boundaries and table cells', () => {
    const text = convertPage({ ...base, format: 'text' }) as string;
    expect(text.startsWith('Measured on a two-core machine, see the run.')).toBe(true);
    expect(text).toContain('Engine\tCost\nfetch\t1\nbrowser\t10 | more');
    expect(text).toContain('- first\n- second');
    expect(text).toContain('const a = 1;\nconst b = 2;');
  });

  it('html is the cleaned document', () => {
    const html = convertPage({ ...base, format: 'html' }) as string;
    expect(html).toContain('<title>Engine costs</title>');
    expect(html).toContain('href="https://example.com/docs/notes/run.html?run=7"');
    expect(html).not.toMatch(/<script|<style|tracking/);
  });

  it('json extracts the structure of the page', () => {
    const json = convertPage({ ...base, format: 'json' }) as Record<string, unknown>;
    expect(json).toMatchObject({
      title: 'Engine costs',
      description: 'What each engine costs',
      language: 'en',
      canonical_url: 'https://example.com/costs',
      headings: [{ level: 1, text: 'Engine costs' }],
      json_ld: [{ '@type': 'Article', headline: 'Engine costs' }],
    });
    expect(json.links).toContainEqual({
      text: 'the run',
      href: 'https://example.com/docs/notes/run.html?run=7',
    });
    expect(json.main_text).toContain('Measured on a two-core machine');
  });

  it('passes a JSON document through for json and fences it for markdown', () => {
    const doc = { ok: true, items: [1, 2] };
    const input = { ...base, body: JSON.stringify(doc), contentType: 'application/json' };
    expect(convertPage({ ...input, format: 'json' })).toEqual(doc);
    expect(convertPage({ ...input, format: 'markdown' })).toBe(
      `\`\`\`json\n${JSON.stringify(doc, null, 2)}\n\`\`\``,
    );
  });

  it('falls back to the whole body when furniture removal would take most of the text', () => {
    const wrapped = `<html><body><div class="menu"><p>${'Real article text. '.repeat(30)}</p></div></body></html>`;
    const markdown = convertPage({ ...base, body: wrapped, format: 'markdown' }) as string;
    expect(markdown).toContain('Real article text.');
  });

  it('only_main_content: false keeps the whole page, navigation and footer included', () => {
    const markdown = convertPage({
      ...base,
      format: 'markdown',
      options: { onlyMainContent: false, includeLinks: false },
    }) as string;
    expect(markdown).toContain('[About](https://example.com/about)');
    expect(markdown).toContain('# Engine costs');
    expect(markdown).toContain('Copyright Example Inc.');
  });

  it('include_links lists the content’s links once each; the whole page’s without only_main_content', () => {
    const main = convertWithExtras({
      ...base,
      format: 'markdown',
      options: { onlyMainContent: true, includeLinks: true },
    });
    expect(main.links).toEqual([{ text: 'the run', href: 'https://example.com/docs/notes/run.html?run=7' }]);
    const whole = convertWithExtras({
      ...base,
      format: 'text',
      options: { onlyMainContent: false, includeLinks: true },
    });
    expect(whole.links?.map((link) => link.text)).toEqual(['Home', 'About', 'the run']);
    expect(main.chunks).toBeUndefined();
  });

  it('chunks are the shared chunker’s chunks of the markdown content, offsets into it', () => {
    const page = `<html><head><title>Guide</title></head><body><article><h2>Install</h2><p>${'Run the installer and wait. '.repeat(20)}</p><h2>Use</h2><p>${'Call the API with your key. '.repeat(20)}</p></article></body></html>`;
    const converted = convertWithExtras({
      ...base,
      body: page,
      format: 'markdown',
      options: { onlyMainContent: true, includeLinks: false, chunks: { maxChars: 400, overlapChars: 0 } },
    });
    const content = converted.content as string;
    expect(converted.chunks).toEqual(chunkMarkdown(content, { maxChars: 400, overlapChars: 0 }));
    expect(converted.chunks?.map((chunk) => chunk.headings[0])).toEqual(['Install', 'Install', 'Use', 'Use']);
    for (const chunk of converted.chunks ?? [])
      expect(content.slice(chunk.start, chunk.end)).toBe(chunk.text);
  });
});
