import { z } from 'zod';

/**
 * Heading-aware chunks of a Markdown document for retrieval (RAG): the scraper's `chunks` option
 * and the retrieval service's ingest both cut documents with this one function, so a chunk found
 * by a query points at the same span of the same document either way. Pure and synchronous: no
 * I/O, safe in a workflow sandbox.
 */
export const MarkdownChunk = z
  .object({
    index: z.number().int().min(0).describe('Position of the chunk in the document, from 0'),
    text: z.string().describe('The chunk: exactly input.slice(start, end)'),
    headings: z.array(z.string()).describe('The heading path above the chunk, outermost first'),
    start: z.number().int().min(0).describe('Character offset of the chunk in the input (UTF-16 units)'),
    end: z.number().int().min(0).describe('Offset just past the chunk'),
    startLine: z.number().int().min(1).describe('First line of the chunk, 1-based'),
    endLine: z.number().int().min(1).describe('Last line of the chunk, 1-based, inclusive'),
  })
  .meta({ id: 'MarkdownChunk' });
export type MarkdownChunk = z.infer<typeof MarkdownChunk>;

const DEFAULT_CHUNK_MAX_CHARS = 2_000;
const DEFAULT_CHUNK_OVERLAP_CHARS = 200;

export const ChunkOptions = z
  .object({
    maxChars: z
      .number()
      .int()
      .min(100)
      .max(100_000)
      .default(DEFAULT_CHUNK_MAX_CHARS)
      .describe('Longest chunk, in characters'),
    overlapChars: z
      .number()
      .int()
      .min(0)
      .max(50_000)
      .default(DEFAULT_CHUNK_OVERLAP_CHARS)
      .describe('Characters a chunk repeats from the end of the previous one in the same section'),
  })
  .refine((options) => options.overlapChars <= options.maxChars / 2, {
    message: 'overlapChars must be at most half of maxChars',
    path: ['overlapChars'],
  });
export type ChunkOptions = z.input<typeof ChunkOptions>;

interface Section {
  /** Heading path of the section's own heading (empty before the first heading). */
  headings: string[];
  start: number;
  end: number;
  /** Where the section's body begins (after its heading line): a heading alone is no content. */
  bodyStart: number;
}

interface Line {
  start: number;
  /** Offset of the line break (or of the end of input). */
  end: number;
  text: string;
}

/**
 * Splits Markdown into chunks that never cross a heading: each ATX (`## Title`) or setext
 * heading starts a section, and its heading path (`["Guide", "Install"]`) goes with every chunk of
 * it. A section longer than `maxChars` is cut at the last paragraph break that fits, else the
 * last line break, else the last space (a fenced code block is cut only when it alone is too
 * long); consecutive chunks of one section overlap by about `overlapChars`. A heading with no
 * text of its own before the next heading is carried into the next chunk instead of standing
 * alone. Offsets are into the input; `text` is exactly `input.slice(start, end)`.
 */
export function chunkMarkdown(markdown: string, options?: ChunkOptions): MarkdownChunk[] {
  const { maxChars, overlapChars } = ChunkOptions.parse(options ?? {});
  const lines = splitLines(markdown);
  const lineStarts = lines.map((line) => line.start);
  const chunks: MarkdownChunk[] = [];
  let carriedFrom: number | undefined;
  for (const section of sections(markdown, lines)) {
    if (markdown.slice(section.bodyStart, section.end).trim() === '') {
      // A heading alone (or nothing): its line leads the next section's first chunk.
      carriedFrom ??= section.start;
      continue;
    }
    const from = carriedFrom ?? section.start;
    carriedFrom = undefined;
    for (const [start, end] of cut(markdown, from, section.end, maxChars, overlapChars, lines)) {
      const [trimmedStart, trimmedEnd] = trim(markdown, start, end);
      if (trimmedEnd <= trimmedStart) continue;
      chunks.push({
        index: chunks.length,
        text: markdown.slice(trimmedStart, trimmedEnd),
        headings: section.headings,
        start: trimmedStart,
        end: trimmedEnd,
        startLine: lineOf(lineStarts, trimmedStart),
        endLine: lineOf(lineStarts, trimmedEnd - 1),
      });
    }
  }
  return chunks;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    lines.push({ start, end, text: text.slice(start, end).replace(/\r$/, '') });
    if (newline === -1) return lines;
    start = newline + 1;
  }
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

/** The document cut at its headings (those inside fenced code are code, not headings). */
function sections(text: string, lines: Line[]): Section[] {
  const found: Section[] = [];
  const path: { level: number; title: string }[] = [];
  let current: Section = { headings: [], start: 0, end: text.length, bodyStart: 0 };
  let fence: string | undefined;
  const open = (level: number, title: string, start: number, bodyStart: number) => {
    current.end = start;
    found.push(current);
    while ((path.at(-1)?.level ?? 0) >= level) path.pop();
    path.push({ level, title });
    current = { headings: path.map((entry) => entry.title), start, end: text.length, bodyStart };
  };
  lines.forEach((line, index) => {
    const fenceMatch = FENCE.exec(line.text);
    if (fence !== undefined) {
      if (fenceMatch?.[1]?.[0] === fence[0] && (fenceMatch?.[1]?.length ?? 0) >= fence.length)
        fence = undefined;
      return;
    }
    if (fenceMatch?.[1]) {
      fence = fenceMatch[1];
      return;
    }
    const atx = ATX.exec(line.text);
    if (atx?.[1]) {
      open(atx[1].length, (atx[2] ?? '').trim(), line.start, nextLineStart(text, line));
      return;
    }
    // Setext: a paragraph line underlined with === (level 1) or --- (level 2).
    const next = lines[index + 1];
    const underline = next ? SETEXT.exec(next.text) : null;
    if (next && underline?.[1] && isParagraphLine(line.text) && startsBlock(lines, index)) {
      open(underline[1].startsWith('=') ? 1 : 2, line.text.trim(), line.start, nextLineStart(text, next));
    }
  });
  current.end = text.length;
  found.push(current);
  return found.filter((section) => section.end > section.start);
}

function nextLineStart(text: string, line: Line): number {
  return Math.min(text.length, line.end + 1);
}

function isParagraphLine(line: string): boolean {
  return (
    line.trim() !== '' &&
    !/^ {0,3}([-*+]|\d+[.)])[ \t]/.test(line) &&
    !/^ {0,3}>/.test(line) &&
    !/^ {0,3}\|/.test(line) &&
    !SETEXT.test(line)
  );
}

/** A setext heading's text is one line that starts its own block. */
function startsBlock(lines: Line[], index: number): boolean {
  const previous = lines[index - 1];
  return previous === undefined || previous.text.trim() === '';
}

/** [start, end) spans of at most maxChars covering [from, to), overlapping by about `overlap`. */
function cut(
  text: string,
  from: number,
  to: number,
  maxChars: number,
  overlap: number,
  lines: Line[],
): [number, number][] {
  const spans: [number, number][] = [];
  let start = from;
  while (start < to) {
    if (to - start <= maxChars) {
      spans.push([start, to]);
      break;
    }
    const end = breakPoint(text, start, start + maxChars, lines);
    spans.push([start, end]);
    if (end >= to) break;
    let next = end;
    if (overlap > 0) {
      // Begin the next chunk at a word boundary about `overlap` characters back.
      const back = Math.max(start + 1, end - overlap);
      const space = text.slice(back, end).search(/\s/);
      next = space === -1 ? back : back + space + 1;
      if (next <= start || next >= end) next = end;
    }
    start = next;
  }
  return spans;
}

/** The best place to end a chunk that starts at `start` and may not pass `limit`. */
function breakPoint(text: string, start: number, limit: number, lines: Line[]): number {
  const window = text.slice(start, limit);
  const minimum = Math.floor(window.length / 3);
  const fences = fenceSpans(lines, start, limit);
  const outsideFence = (offset: number) =>
    !fences.some(([fenceStart, fenceEnd]) => offset > fenceStart && offset < fenceEnd);
  const candidates = [/\n[ \t]*\n/g, /\n/g, /[.!?][ \t]+/g, /[ \t]+/g];
  for (const pattern of candidates) {
    let best = -1;
    for (const match of window.matchAll(pattern)) {
      const offset = start + match.index + match[0].length;
      if (match.index >= minimum && outsideFence(offset)) best = offset;
    }
    if (best > start) return best;
  }
  return limit;
}

/** Fenced code blocks that overlap [start, limit), as [start, end) offsets. */
function fenceSpans(lines: Line[], start: number, limit: number): [number, number][] {
  const spans: [number, number][] = [];
  let open: { start: number; marker: string } | undefined;
  for (const line of lines) {
    if (line.start > limit && !open) break;
    const match = FENCE.exec(line.text)?.[1];
    if (!match) continue;
    if (!open) open = { start: line.start, marker: match };
    else if (match[0] === open.marker[0] && match.length >= open.marker.length) {
      if (line.end >= start) spans.push([open.start, line.end]);
      open = undefined;
    }
  }
  if (open) spans.push([open.start, Number.POSITIVE_INFINITY]);
  return spans;
}

function trim(text: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (from < to && /\s/.test(text[from] ?? '')) from++;
  while (to > from && /\s/.test(text[to - 1] ?? '')) to--;
  return [from, to];
}

/** 1-based line of an offset, by binary search over line starts. */
function lineOf(lineStarts: number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lineStarts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
