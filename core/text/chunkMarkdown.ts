/**
 * Splits Markdown into chunks along its structure: a heading always starts a new chunk, blocks
 * (paragraphs, lists, tables, fenced code) are kept whole while they fit, and only a block
 * longer than `maxChars` is cut, at line ends first, then at sentence or word ends. Every chunk
 * is an exact slice of the input, so its offsets and line range point back at the source (a
 * retrieval hit cites `path#L<startLine>-L<endLine>`). Pure: no I/O.
 */
export interface MarkdownChunk {
  index: number;
  text: string;
  /** The heading path the chunk sits under, outermost first (its own heading included). */
  headings: string[];
  /** Character offsets into the input: `text === markdown.slice(start, end)`. */
  start: number;
  end: number;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface ChunkMarkdownOptions {
  /** Longest chunk, in characters (default 1200). */
  maxChars?: number;
  /** Characters of the previous chunk repeated at the start of the next one of the same section (default 0). */
  overlapChars?: number;
}

interface Block {
  start: number;
  end: number;
  headings: string[];
  heading: boolean;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function chunkMarkdown(markdown: string, options: ChunkMarkdownOptions = {}): MarkdownChunk[] {
  const maxChars = Math.max(50, options.maxChars ?? 1200);
  const overlapChars = Math.min(Math.max(0, options.overlapChars ?? 0), Math.floor(maxChars / 2));
  const lineStarts = lineStartOffsets(markdown);
  const pieces = blocksOf(markdown).flatMap((block) => splitLong(markdown, block, maxChars));

  const chunks: MarkdownChunk[] = [];
  let current: Block[] = [];
  const flush = () => {
    const first = current[0];
    const last = current.at(-1);
    if (!first || !last) return;
    const text = markdown.slice(first.start, last.end);
    if (text.trim().length > 0) {
      chunks.push({
        index: chunks.length,
        text,
        headings: first.headings,
        start: first.start,
        end: last.end,
        startLine: lineOf(lineStarts, first.start),
        endLine: lineOf(lineStarts, Math.max(first.start, last.end - 1)),
      });
    }
    current = [];
  };

  for (const piece of pieces) {
    const first = current[0];
    if (piece.heading || (first && piece.end - first.start > maxChars)) {
      const carried = piece.heading ? [] : overlapTail(current, piece, overlapChars, maxChars);
      flush();
      current = carried;
    }
    current.push(piece);
  }
  flush();
  return chunks;
}

/** The last blocks of a closing chunk, to start the next one, when they fit in the overlap. */
function overlapTail(current: Block[], next: Block, overlapChars: number, maxChars: number): Block[] {
  if (overlapChars === 0) return [];
  const tail: Block[] = [];
  const tailEnd = current.at(-1)?.end ?? 0;
  for (let i = current.length - 1; i >= 1; i--) {
    const block = current[i];
    if (!block || block.heading) break;
    if (next.end - block.start > maxChars || tailEnd - block.start > overlapChars) break;
    tail.unshift(block);
  }
  return tail;
}

/** Headings, fenced code blocks and runs of non-blank lines, with the heading path of each. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const path: { level: number; title: string }[] = [];
  let offset = 0;
  let open: { start: number; end: number } | undefined;
  let fence: string | undefined;
  const close = () => {
    if (open) blocks.push({ ...open, headings: path.map((entry) => entry.title), heading: false });
    open = undefined;
  };
  for (const line of markdown.split('\n')) {
    const start = offset;
    const end = start + line.length;
    offset = end + 1;
    const content = line.replace(/\r$/, '');
    if (fence) {
      if (open) open.end = end;
      if (content.trimStart().startsWith(fence)) {
        fence = undefined;
        close();
      }
      continue;
    }
    const fenceMatch = FENCE.exec(content);
    if (fenceMatch?.[1]) {
      close();
      fence = fenceMatch[1];
      open = { start, end };
      continue;
    }
    const heading = HEADING.exec(content);
    if (heading?.[1] !== undefined) {
      close();
      const level = heading[1].length;
      while ((path.at(-1)?.level ?? 0) >= level) path.pop();
      path.push({ level, title: heading[2] ?? '' });
      blocks.push({ start, end, headings: path.map((entry) => entry.title), heading: true });
      continue;
    }
    if (content.trim() === '') {
      close();
      continue;
    }
    if (open) open.end = end;
    else open = { start, end };
  }
  close();
  return blocks;
}

/** A block longer than maxChars, cut at line ends, then at sentence or word ends, then anywhere. */
function splitLong(markdown: string, block: Block, maxChars: number): Block[] {
  if (block.end - block.start <= maxChars) return [block];
  const pieces: Block[] = [];
  let start = block.start;
  while (block.end - start > maxChars) {
    const window = markdown.slice(start, start + maxChars);
    const cut =
      lastBreak(window, /\n/g, maxChars / 4) ??
      lastBreak(window, /[.!?;:](?=\s)/g, maxChars / 4) ??
      lastBreak(window, /\s/g, maxChars / 4) ??
      maxChars;
    pieces.push({ ...block, start, end: start + cut, heading: pieces.length === 0 && block.heading });
    start += cut;
    while (start < block.end && /\s/.test(markdown[start] ?? '')) start++;
  }
  if (start < block.end) pieces.push({ ...block, start, heading: false });
  return pieces;
}

/** The offset just after the last match of `pattern` in `text`, if it is past `minOffset`. */
function lastBreak(text: string, pattern: RegExp, minOffset: number): number | undefined {
  let found: number | undefined;
  for (const match of text.matchAll(pattern)) {
    const after = match.index + match[0].length;
    if (after >= minOffset) found = after;
  }
  return found;
}

function lineStartOffsets(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line number of a character offset (binary search over line starts). */
function lineOf(lineStarts: number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}
