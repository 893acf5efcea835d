import { createHash } from 'node:crypto';
import { chunkMarkdown, type MarkdownChunk } from '../../core/text/chunkMarkdown.ts';
import { ScrapeFormat } from '../../core/scrape/outcome.ts';
import { convertPage } from '../../scraper/convert/convert.ts';
import { DOCUMENT_TYPES, DocumentType } from '../core/ingest.ts';

/** The media type of a Content-Type header, if it is one Vigil ingests. */
export function documentTypeOf(contentType: string | undefined): DocumentType | undefined {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  if (essence === 'application/xhtml+xml') return DocumentType.html;
  if (essence === 'text/x-markdown') return DocumentType.markdown;
  return DOCUMENT_TYPES.find((type) => type === essence);
}

/**
 * The document as Markdown, the form it is chunked and cited in: HTML through the scraper's
 * converter (main content, no navigation or scripts), text and Markdown as sent, with line ends
 * normalised and control characters removed (line numbers are unchanged).
 */
export function toMarkdown(body: string, type: DocumentType, url = 'https://document.invalid/'): string {
  const text = body.replace(/^\uFEFF/, '');
  if (type === DocumentType.html) {
    const converted = convertPage({
      format: ScrapeFormat.markdown,
      body: text,
      contentType: 'text/html',
      url,
      headers: {},
    });
    return clean(typeof converted === 'string' ? converted : '');
  }
  return clean(text);
}

function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}

/** The version of a document: the SHA-256 of its Markdown. */
export function contentHash(markdown: string): string {
  return createHash('sha256').update(markdown).digest('hex');
}

export interface PreparedChunk {
  index: number;
  text: string;
  headings: string[];
  startLine: number;
  endLine: number;
}

export function prepareChunks(markdown: string, maxChars: number): PreparedChunk[] {
  return chunkMarkdown(markdown, { maxChars })
    .filter((chunk: MarkdownChunk) => chunk.text.trim().length > 0)
    .map((chunk, index) => ({
      index,
      text: chunk.text,
      headings: chunk.headings,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
    }));
}
