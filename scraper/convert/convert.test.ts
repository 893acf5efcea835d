import { describe, expect, it } from 'vitest';
import { convertPage } from './convert.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>Engine costs</title>
<meta name="description" content="What each engine costs">
<link rel="canonical" href="/costs">
<script type="application/ld+json">{"@type":"Article","headline":"Engine costs"}</script>
<script>window.tracking = 1</script><style>body{color:red}</style></head>
<body><header class="site"><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><h1>Engine costs</h1><p>Measured on a <b>two-core</b> machine, see <a href="notes/run.html">the run</a>.</p>
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
  it('markdown keeps the main content with GFM tables and absolute links, without furniture', () => {
    const markdown = convertPage({ ...base, format: 'markdown' }) as string;
    expect(markdown).toContain('# Engine costs');
    expect(markdown).toContain('**two-core**');
    expect(markdown).toContain('[the run](https://example.com/docs/notes/run.html)');
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
    expect(text).toContain('Engine costs\n\nMeasured on a two-core machine, see the run.');
    expect(text).toContain('Engine\tCost\nfetch\t1\nbrowser\t10 | more');
    expect(text).toContain('- first\n- second');
    expect(text).toContain('const a = 1;\nconst b = 2;');
  });

  it('html is the cleaned document', () => {
    const html = convertPage({ ...base, format: 'html' }) as string;
    expect(html).toContain('<title>Engine costs</title>');
    expect(html).toContain('href="https://example.com/docs/notes/run.html"');
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
    expect(json.links).toContainEqual({ text: 'the run', href: 'https://example.com/docs/notes/run.html' });
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
});
