import { load } from 'cheerio/slim';
import { type AnyNode, isTag } from 'domhandler';
import { type ConvertOptions, type PageLink, ScrapeFormat } from '../../core/scrape/outcome.ts';
import { chunkMarkdown, type MarkdownChunk } from '../../core/text/chunkMarkdown.ts';
import { extractStructured } from './extract.ts';
import { absolutize, type LoadedPage, loadPage, mainContent, wholeBody } from './clean.ts';
import { textOf } from './measure.ts';
import { nodesToMarkdown } from './markdown.ts';
import { nodesToText } from './text.ts';

export interface ConvertInput {
  format: ScrapeFormat;
  body: string;
  contentType: string;
  url: string;
  headers: Record<string, string>;
  options?: ConvertOptions;
}

/** A converted page with what the LLM options add: the links of the content and RAG chunks. */
export interface Converted {
  content: Content;
  links?: PageLink[];
  chunks?: MarkdownChunk[];
}

const MAX_LINKS = 1_000;

/** convertPage, plus the links list (include_links) and chunks (chunks) of the same content. */
export function convertWithExtras(input: ConvertInput): Converted {
  const options = input.options;
  if (!options?.includeLinks && !options?.chunks) return { content: convertPage(input) };
  let nodes: AnyNode[] | undefined;
  const content = convertPage(input, (picked) => (nodes = picked));
  const converted: Converted = { content };
  if (options.includeLinks) converted.links = nodes ? linksOf(nodes) : [];
  if (options.chunks && typeof content === 'string')
    converted.chunks = chunkMarkdown(content, options.chunks === true ? {} : options.chunks);
  return converted;
}

function linksOf(nodes: readonly AnyNode[]): PageLink[] {
  const links: PageLink[] = [];
  const seen = new Set<string>();
  const walk = (list: readonly AnyNode[]) => {
    for (const node of list) {
      if (!isTag(node) || links.length >= MAX_LINKS) continue;
      const href = node.name === 'a' ? node.attribs.href : undefined;
      if (href && /^https?:/i.test(href) && !seen.has(href)) {
        seen.add(href);
        links.push({ text: textOf(node), href });
      }
      walk(node.children);
    }
  };
  walk(nodes);
  return links;
}

/** The converted page: a string for markdown, html and text; any JSON value for json. */
export type Content = unknown;

/** Largest body converted; cheerio + turndown cost grows faster than linearly beyond it. */
const MAX_CONVERT_BYTES = 5 * 1024 * 1024;

/** The page in the asked format. JSON documents pass through (`format=json`) or are pretty-printed. */
export function convertPage(input: ConvertInput, onNodes?: (nodes: AnyNode[]) => void): Content {
  const { format, body, contentType } = input;
  const body_ = body.length > MAX_CONVERT_BYTES ? body.slice(0, MAX_CONVERT_BYTES) : body;
  if (format === ScrapeFormat.raw) return body_;
  if (/\bjson\b/i.test(contentType)) {
    let document: unknown;
    try {
      document = JSON.parse(body_);
    } catch {
      document = undefined;
    }
    if (document !== undefined) {
      if (format === ScrapeFormat.json) return document;
      const pretty = JSON.stringify(document, null, 2);
      return format === ScrapeFormat.markdown ? `\`\`\`json\n${pretty}\n\`\`\`` : pretty;
    }
  }
  if (!/html|xml/i.test(contentType) && contentType !== '') {
    // Plain text and other text types: nothing to clean.
    const text = body_.replace(/\r\n/g, '\n').trim();
    return format === ScrapeFormat.json ? { title: null, main_text: text } : text;
  }
  const page = loadPage(body_, input.url);
  const onlyMain = input.options?.onlyMainContent ?? true;
  // The main content, or the whole body when the caller wants the page as it is.
  const content = (from: LoadedPage) => {
    const nodes = onlyMain ? mainContent(from, () => loadPage(body_, input.url)) : wholeBody(from);
    absolutize(from, nodes);
    onNodes?.(nodes);
    return nodes;
  };
  switch (format) {
    case ScrapeFormat.markdown:
      return nodesToMarkdown(content(page));
    case ScrapeFormat.html:
      absolutize(page, wholeBody(page));
      onNodes?.(wholeBody(page));
      return cleanedHtml(page);
    case ScrapeFormat.text:
      return nodesToText(content(page));
    case ScrapeFormat.json:
      absolutize(page, wholeBody(page));
      return extractStructured({ ...page, $: load(body_) }, page, input.headers, content);
  }
}

/** The whole cleaned document (scripts, styles, handlers and comments gone; links absolute). */
function cleanedHtml(page: ReturnType<typeof loadPage>): string {
  const { title } = page;
  const body = page.$('body').length > 0 ? (page.$('body').html() ?? '') : page.$.html();
  const lang = page.$('html').attr('lang');
  return `<!doctype html>\n<html${lang ? ` lang="${escapeAttribute(lang)}"` : ''}><head><meta charset="utf-8">${title ? `<title>${escapeText(title)}</title>` : ''}</head><body>${body.trim()}</body></html>`;
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;');
}
