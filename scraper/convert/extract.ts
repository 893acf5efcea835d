import type { AnyNode } from 'domhandler';
import { type LoadedPage, resolveUrl } from './clean.ts';
import { nodesToText } from './text.ts';

export interface PageMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  canonical_url: string | null;
  headings: { level: number; text: string }[];
  links: { text: string; href: string }[];
  main_text: string;
  json_ld: unknown[];
  meta: Record<string, string>;
}

const MAX_LINKS = 1_000;

/**
 * Structured extraction for `format=json`. Reads the head (meta, JSON-LD, canonical) from the
 * page as served, because cleaning drops `<head>` and scripts; headings, links and text come
 * from the cleaned page.
 */
export function extractStructured(
  raw: LoadedPage,
  cleaned: LoadedPage,
  headers: Record<string, string>,
  content: (page: LoadedPage) => AnyNode[],
): PageMetadata {
  const { $ } = raw;
  const meta: Record<string, string> = {};
  $('meta[content]').each((_, element) => {
    const attribs = element.attribs;
    const key = attribs.name ?? attribs.property ?? attribs['http-equiv'] ?? attribs.itemprop;
    if (key && attribs.content !== undefined && !(key.toLowerCase() in meta))
      meta[key.toLowerCase()] = attribs.content;
  });
  const jsonLd: unknown[] = [];
  $('script[type="application/ld+json"]').each((_, element) => {
    try {
      const parsed: unknown = JSON.parse($(element).text());
      if (Array.isArray(parsed)) jsonLd.push(...(parsed as unknown[]));
      else jsonLd.push(parsed);
    } catch {
      // A broken JSON-LD block is the page's problem; the rest is still worth returning.
    }
  });
  const canonicalHref = $('link[rel~="canonical"]').attr('href');
  const title = clean($('title').first().text()) || meta['og:title'] || null;
  const language =
    $('html').attr('lang')?.trim() ||
    headers['content-language']?.split(',')[0]?.trim() ||
    meta['og:locale'] ||
    null;

  const c = cleaned.$;
  // Headings and links of the whole page; the main text is read last because extraction edits the tree.
  const headings: PageMetadata['headings'] = [];
  c('h1, h2, h3, h4, h5, h6').each((_, element) => {
    const text = clean(c(element).text());
    if (text) headings.push({ level: Number(element.name.slice(1)), text });
  });
  const links: PageMetadata['links'] = [];
  const seen = new Set<string>();
  c('a[href]').each((_, element) => {
    const href = c(element).attr('href') ?? '';
    if (!/^https?:/i.test(href) || seen.has(href) || links.length >= MAX_LINKS) return;
    seen.add(href);
    links.push({ text: clean(c(element).text()), href });
  });
  return {
    title,
    description: meta.description ?? meta['og:description'] ?? null,
    language,
    canonical_url: canonicalHref ? (resolveUrl(canonicalHref, raw.baseUrl) ?? null) : null,
    headings,
    links,
    main_text: nodesToText(content(cleaned)),
    json_ld: jsonLd,
    meta,
  };
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
