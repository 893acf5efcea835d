import { load } from 'cheerio/slim';
import { ScrapeFormat } from '../../core/scrape/outcome.ts';
import { extractStructured } from './extract.ts';
import { loadPage, mainContent } from './clean.ts';
import { nodesToMarkdown } from './markdown.ts';
import { nodesToText } from './text.ts';

export interface ConvertInput {
  format: ScrapeFormat;
  body: string;
  contentType: string;
  url: string;
  headers: Record<string, string>;
}

/** The converted page: a string for markdown, html and text; any JSON value for json. */
export type Content = unknown;

/** Largest body converted; cheerio + turndown cost grows faster than linearly beyond it. */
export const MAX_CONVERT_BYTES = 5 * 1024 * 1024;

/** The page in the asked format. JSON documents pass through (`format=json`) or are pretty-printed. */
export function convertPage(input: ConvertInput): Content {
  const { format, body, contentType } = input;
  const body_ = body.length > MAX_CONVERT_BYTES ? body.slice(0, MAX_CONVERT_BYTES) : body;
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
  const reload = () => loadPage(body_, input.url);
  switch (format) {
    case ScrapeFormat.markdown:
      return nodesToMarkdown(mainContent(page, reload));
    case ScrapeFormat.html:
      return cleanedHtml(page);
    case ScrapeFormat.text:
      return nodesToText(mainContent(page, reload));
    case ScrapeFormat.json:
      return extractStructured(
        { $: load(body_), baseUrl: page.baseUrl, title: page.title, headline: page.headline },
        page,
        input.headers,
      );
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
