import TurndownService from 'turndown';
import { describe, expect, it } from 'vitest';
import { absolutize, loadPage, wholeBody } from './clean.ts';
import { nodesToMarkdown } from './markdown.ts';

/** The converter alone, on a whole body (no extraction), as the `html → markdown` step sees it. */
const markdown = (body: string) => {
  const page = loadPage(`<html><body>${body}</body></html>`, 'https://docs.example/guide/');
  const nodes = wholeBody(page);
  absolutize(page, nodes);
  return nodesToMarkdown(nodes);
};

// Tricky HTML and the Markdown it must become. Snapshots are committed: a change in turndown, the
// GFM plugin or our rules shows up as a diff to review.
const CASES: Record<string, string> = {
  'nested lists, ordered in unordered, with a start number': `<ul><li>Chains<ol start="3"><li>Base</li><li>BSC<ul><li>testnet</li></ul></li></ol></li><li>Tools</li></ul>`,
  'a table with colspans in the header and the body': `<table><tr><th colspan="2">Holder</th><th>Share</th></tr><tr><td>0xabc</td><td>team</td><td>40%</td></tr><tr><td colspan="3">Total: 100%</td></tr></table>`,
  'a table without a header row, pipes in cells': `<table><tr><td>a | b</td><td>2</td></tr><tr><td>c</td><td>4</td></tr></table>`,
  '<pre> inside a list item keeps its indentation and language': `<ol><li>Install:<pre><code class="language-sh">npm i vigil
vigil --help</code></pre></li><li>Run it.</li></ol>`,
  'code languages from highlighter conventions': `<pre class="highlight-source-python"><span>print</span>(<span>"hi"</span>)</pre><div class="highlight"><pre data-lang="rust">fn main() {}</pre></div><pre><code class="lang-ts">const a = 1;</code></pre><pre><code>no language</code></pre><pre><code>uses \`\`\` fences</code></pre>`,
  'inline SVG and decorative images vanish; content images stay': `<p>Logo <svg width="10"><title>brand</title><path d="M0 0"/></svg> here.</p><figure><img src="/img/chart.png" alt="TVL [2026]"><figcaption>TVL over time</figcaption></figure><img src="/img/logo.svg" alt="Logo"><img src="https://t.example/p.gif" width="1" height="1"><img src="data:image/png;base64,AAAA" alt="inline">`,
  '<br> runs collapse to one break': `<p>first line<br><br><br><br>second line<br>third line</p>`,
  'headings stay in order, with ATX markers': `<h3>Three</h3><p>x</p><h1>One</h1><h2>Two</h2><h6>Six</h6>`,
  'links: relative made absolute, tracking dropped, javascript and empty links gone': `<p><a href="../api?utm_source=x&amp;utm_medium=y&amp;v=2#auth">API</a> <a href="javascript:alert(1)">click</a> <a href="/x"><span></span></a> <a href="https://t.example/?fbclid=abc">t</a></p>`,
  'markdown syntax in text is escaped': `<p>*not emphasis* and # not a heading, 1. not a list, [not](a link)</p>`,
  'strikethrough, emphasis, blockquote and definition list': `<p><s>old</s> <del>gone</del> <em>em</em> <strong>strong</strong></p><blockquote><p>Quoted</p><p>twice</p></blockquote><dl><dt>Term</dt><dd>Definition</dd></dl>`,
};

describe('nodesToMarkdown (turndown + GFM)', () => {
  it('escapes text exactly as turndown itself does (the one-test shortcut changes no output)', () => {
    const plain = new TurndownService();
    const texts = [
      'plain words, nothing to escape',
      '- dash first',
      'a - dash inside',
      '+ plus first',
      '+plus without space',
      '== equals first',
      '### heading-like',
      '####### seven hashes',
      '~~~ fence',
      '> quote first',
      'a > b',
      '12. numbered',
      '12.5 not numbered',
      'snake_case and *stars* and `ticks` and [brackets] and back\\slash',
      '',
    ];
    const ours = texts.map((text) => markdown(`<p>${text}</p>`));
    const theirs = texts.map((text) => plain.turndown(`<p>${text}</p>`));
    expect(ours).toEqual(theirs);
  });

  for (const [name, html] of Object.entries(CASES)) {
    it(name, () => {
      expect(markdown(html)).toMatchSnapshot();
    });
  }

  it('never emits an image or link the page did not have as content', () => {
    const output = markdown(CASES['inline SVG and decorative images vanish; content images stay'] ?? '');
    expect(output).toContain('![TVL \\[2026\\]](https://docs.example/img/chart.png)');
    expect(output).not.toMatch(/logo\.svg|p\.gif|data:|brand/);
    const links = markdown(
      CASES['links: relative made absolute, tracking dropped, javascript and empty links gone'] ?? '',
    );
    expect(links).toContain('[API](https://docs.example/api?v=2#auth)');
    expect(links).toContain('[t](https://t.example/)');
    expect(links).not.toMatch(/utm_|fbclid|javascript|\[\]/);
  });

  it('keeps code languages and nesting', () => {
    expect(markdown(CASES['code languages from highlighter conventions'] ?? '')).toMatch(
      /```python\nprint\("hi"\)\n```[\s\S]*```rust\nfn main\(\) \{\}\n```[\s\S]*```ts\nconst a = 1;\n```[\s\S]*````\nuses ``` fences\n````/,
    );
    expect(markdown(CASES['nested lists, ordered in unordered, with a start number'] ?? '')).toBe(
      '- Chains\n  3. Base\n  4. BSC\n     - testnet\n- Tools',
    );
  });
});
