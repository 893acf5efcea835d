import { describe, expect, it } from 'vitest';
import { ChunkOptions, chunkMarkdown, MarkdownChunk } from './chunkMarkdown.ts';

const GUIDE = `# Vigil guide

Vigil scores tokens from 0 to 100.

## Install

Run npm start once.

### From source

Clone the repository, then run npm test.

## Scan

\`\`\`sh
# not a heading: a shell comment
curl localhost:3000
\`\`\`

Scans are jobs.
`;

/** Every chunk is exactly the slice its offsets name, its lines match, and it parses. */
function expectConsistent(input: string, chunks: MarkdownChunk[]) {
  chunks.forEach((chunk, index) => {
    expect(MarkdownChunk.parse(chunk)).toEqual(chunk);
    expect(chunk.index).toBe(index);
    expect(chunk.text).toBe(input.slice(chunk.start, chunk.end));
    expect(chunk.startLine).toBe(input.slice(0, chunk.start).split('\n').length);
    expect(chunk.endLine).toBe(input.slice(0, chunk.end).split('\n').length);
    expect(chunk.text).toBe(chunk.text.trim());
  });
}

describe('chunkMarkdown', () => {
  it('cuts at headings and gives each chunk its heading path; code comments are not headings', () => {
    const chunks = chunkMarkdown(GUIDE);
    expectConsistent(GUIDE, chunks);
    expect(chunks.map((chunk) => chunk.headings)).toEqual([
      ['Vigil guide'],
      ['Vigil guide', 'Install'],
      ['Vigil guide', 'Install', 'From source'],
      ['Vigil guide', 'Scan'],
    ]);
    expect(chunks[3]?.text).toContain('# not a heading');
    expect(chunks[3]?.text).toMatch(/^## Scan/);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 3 });
  });

  it('carries a heading without text of its own into the next chunk', () => {
    const input = '# Title\n\n## Part one\n\nBody of part one.\n';
    const chunks = chunkMarkdown(input);
    expectConsistent(input, chunks);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ headings: ['Title', 'Part one'], start: 0, startLine: 1 });
    expect(chunks[0]?.text).toBe('# Title\n\n## Part one\n\nBody of part one.');
  });

  it('pops the heading path when a shallower heading follows a deeper one', () => {
    const input = '# A\n\na\n\n### A.1.1\n\nx\n\n## B\n\nb\n\n# C\n\nc\n';
    expect(chunkMarkdown(input).map((chunk) => chunk.headings)).toEqual([
      ['A'],
      ['A', 'A.1.1'],
      ['A', 'B'],
      ['C'],
    ]);
  });

  it('reads setext headings, not a thematic break after a blank line', () => {
    const input = 'Guide\n=====\n\nIntro text.\n\nUsage\n-----\n\nUse it.\n\n---\n\nStill usage.\n';
    const chunks = chunkMarkdown(input);
    expectConsistent(input, chunks);
    expect(chunks.map((chunk) => chunk.headings)).toEqual([['Guide'], ['Guide', 'Usage']]);
    expect(chunks[1]?.text).toContain('Still usage.');
  });

  it('splits a long section at paragraph breaks within maxChars, with overlap, covering all of it', () => {
    const paragraphs = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i} says something about liquidity pools and holders.`,
    );
    const input = `## Long\n\n${paragraphs.join('\n\n')}\n`;
    const chunks = chunkMarkdown(input, { maxChars: 400, overlapChars: 60 });
    expectConsistent(input, chunks);
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(400);
      expect(chunk.headings).toEqual(['Long']);
    }
    // Consecutive chunks overlap, and together they cover every paragraph.
    for (let i = 1; i < chunks.length; i++)
      expect(chunks[i]?.start ?? 0).toBeLessThan(chunks[i - 1]?.end ?? 0);
    for (const paragraph of paragraphs)
      expect(chunks.some((chunk) => chunk.text.includes(paragraph))).toBe(true);
    // Every cut but the last ends a paragraph (the first choice of break).
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text).toMatch(/holders\.$/);
  });

  it('does not overlap when asked not to, and never cuts inside a fenced block that fits', () => {
    const code = `\`\`\`ts\n${Array.from({ length: 8 }, (_, i) => `const value${i} = ${i};`).join('\n')}\n\`\`\``;
    const input = `## Code\n\n${'Intro words here. '.repeat(12)}\n\n${code}\n\n${'Outro words here. '.repeat(12)}\n`;
    const chunks = chunkMarkdown(input, { maxChars: 300, overlapChars: 0 });
    expectConsistent(input, chunks);
    for (let i = 1; i < chunks.length; i++)
      expect(chunks[i]?.start ?? 0).toBeGreaterThanOrEqual(chunks[i - 1]?.end ?? 0);
    expect(chunks.some((chunk) => chunk.text.includes(code))).toBe(true);
  });

  it('hard-cuts text with no break inside maxChars, and handles empty and heading-only input', () => {
    const input = 'x'.repeat(1_050);
    const chunks = chunkMarkdown(input, { maxChars: 500, overlapChars: 0 });
    expectConsistent(input, chunks);
    expect(chunks.map((chunk) => chunk.text.length)).toEqual([500, 500, 50]);
    expect(chunkMarkdown('')).toEqual([]);
    expect(chunkMarkdown('   \n\n')).toEqual([]);
    expect(chunkMarkdown('# Only a title\n')).toEqual([]);
  });

  it('counts offsets and lines with CRLF line ends and non-ASCII text', () => {
    const input = '# Café ☕\r\n\r\nPrix en €.\r\n\r\n## Suite\r\n\r\nFin.';
    const chunks = chunkMarkdown(input);
    expectConsistent(input, chunks);
    expect(chunks.map((chunk) => chunk.headings)).toEqual([['Café ☕'], ['Café ☕', 'Suite']]);
    expect(chunks[1]).toMatchObject({ startLine: 5, endLine: 7, text: '## Suite\r\n\r\nFin.' });
  });

  it('rejects options that make no sense', () => {
    expect(() => chunkMarkdown('text', { maxChars: 10 })).toThrow();
    expect(() => chunkMarkdown('text', { maxChars: 400, overlapChars: 300 })).toThrow(/overlapChars/);
    expect(ChunkOptions.parse({})).toEqual({ maxChars: 2_000, overlapChars: 200 });
  });
});
