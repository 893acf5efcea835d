import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from './chunkMarkdown.ts';

const DOC = [
  '# Title', // 1
  '', // 2
  'Intro paragraph.', // 3
  '', // 4
  '## Section A', // 5
  '', // 6
  'First line of A.', // 7
  'Second line of A.', // 8
  '', // 9
  '```ts', // 10
  '# not a heading', // 11
  '```', // 12
  '', // 13
  '### Deeper', // 14
  'Deep text.', // 15
  '## Section B', // 16
  'B text.', // 17
].join('\n');

describe('chunkMarkdown', () => {
  it('starts a chunk at every heading, with its heading path and exact line range', () => {
    const chunks = chunkMarkdown(DOC);
    expect(chunks.map((chunk) => [chunk.headings, chunk.startLine, chunk.endLine])).toEqual([
      [['Title'], 1, 3],
      [['Title', 'Section A'], 5, 12],
      [['Title', 'Section A', 'Deeper'], 14, 15],
      [['Title', 'Section B'], 16, 17],
    ]);
    for (const chunk of chunks) {
      expect(chunk.text).toBe(DOC.slice(chunk.start, chunk.end));
      expect(
        DOC.split('\n')
          .slice(chunk.startLine - 1, chunk.endLine)
          .join('\n'),
      ).toBe(chunk.text);
    }
    expect(chunks.map((chunk) => chunk.index)).toEqual([0, 1, 2, 3]);
  });

  it('keeps a fenced code block whole and does not read headings inside it', () => {
    const chunks = chunkMarkdown(DOC);
    expect(chunks[1]?.text).toContain('# not a heading\n```');
    expect(chunks.some((chunk) => chunk.headings.includes('not a heading'))).toBe(false);
  });

  it('cuts long sections under maxChars, at paragraph, then sentence ends, and loses no text', () => {
    const sentence = 'This sentence is about liquidity locks. ';
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i}: ${sentence.repeat(8)}`.trim());
    const markdown = `# Long\n\n${paragraphs.join('\n\n')}\n\n${sentence.repeat(40)}`;
    const chunks = chunkMarkdown(markdown, { maxChars: 400 });
    expect(chunks.length).toBeGreaterThan(6);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(400);
      expect(chunk.text).toBe(markdown.slice(chunk.start, chunk.end));
      expect(chunk.headings).toEqual(['Long']);
    }
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    expect(chunks.flatMap((chunk) => words(chunk.text))).toEqual(words(markdown));
    // Sentence cuts land after a full stop.
    expect(chunks.slice(0, -1).every((chunk) => /[.\n]$|locks\.$/.test(chunk.text.trimEnd()))).toBe(true);
  });

  it('repeats the tail of the previous chunk as overlap within a section', () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Para ${i} ${'x'.repeat(80)}`);
    const markdown = paragraphs.join('\n\n');
    const chunks = chunkMarkdown(markdown, { maxChars: 300, overlapChars: 100 });
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1];
      const chunk = chunks[i];
      if (!previous || !chunk) continue;
      expect(chunk.start).toBeLessThan(previous.end);
      expect(previous.end - chunk.start).toBeLessThanOrEqual(100);
    }
    expect(
      chunkMarkdown(markdown, { maxChars: 300 }).every(
        (chunk, i, all) => i === 0 || chunk.start >= (all[i - 1]?.end ?? 0),
      ),
    ).toBe(true);
  });

  it('answers no chunk for empty or blank input, and handles CRLF line ends', () => {
    expect(chunkMarkdown('')).toEqual([]);
    expect(chunkMarkdown('\n\n  \n')).toEqual([]);
    const chunks = chunkMarkdown('# A\r\ntext\r\n# B\r\nmore');
    expect(chunks.map((chunk) => [chunk.headings, chunk.startLine, chunk.endLine])).toEqual([
      [['A'], 1, 2],
      [['B'], 3, 4],
    ]);
  });
});
