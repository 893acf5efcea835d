import { type AnyNode, isComment, isTag, type ParentNode } from 'domhandler';
import { type CheerioAPI, load } from 'cheerio/slim';
import { removeElement } from 'domutils';
import { extractMainContent } from './mainContent.ts';
import { textOf } from './measure.ts';

/** Never content: code, styling, embedded documents, form controls, and the head. */
const NON_CONTENT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
  'link',
  'meta',
  'head',
  'button',
  'input',
  'select',
  'textarea',
  'dialog',
]);

export interface LoadedPage {
  $: CheerioAPI;
  /** The URL relative links resolve against (a `<base href>` wins over the page URL). */
  baseUrl: string;
  /** Read before the head is dropped. */
  title: string;
  /** The title and og:title, to recognise the headline inside the content. */
  headline: string;
  /** Elements whose links are already absolute. */
  absolute: WeakSet<AnyNode>;
}

/**
 * Parses a page and drops what is never content, in one walk (a css-select query per concern
 * cost more than parsing the page): the head (its title, og:title and base read first), scripts
 * and other non-content elements, comments, invisible elements, handlers and inline styles.
 * Links and images are made absolute later, and only for what is output (see absolutize).
 */
export function loadPage(html: string, pageUrl: string): LoadedPage {
  const $ = load(html);
  let baseHref: string | undefined;
  let title = '';
  let ogTitle = '';
  const readHead = (nodes: readonly AnyNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (node.name === 'title' && !title) title = textOf(node);
      else if (node.name === 'base' && baseHref === undefined) baseHref = node.attribs.href;
      else if (node.name === 'meta' && node.attribs.property === 'og:title')
        ogTitle = node.attribs.content ?? '';
      else readHead(node.children);
    }
  };
  const drop: AnyNode[] = [];
  const walk = (nodes: readonly AnyNode[]) => {
    for (const node of nodes) {
      if (isComment(node)) {
        drop.push(node);
        continue;
      }
      if (!isTag(node)) continue;
      if (NON_CONTENT.has(node.name)) {
        if (node.name === 'head') readHead(node.children);
        else if (node.name === 'title' && !title) title = textOf(node);
        drop.push(node);
        continue;
      }
      const attribs = node.attribs;
      // Invisible to readers (Readability's test): never content.
      if (attribs.style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attribs.style)) {
        drop.push(node);
        continue;
      }
      for (const name in attribs) if (name === 'style' || name.startsWith('on')) delete attribs[name];
      if (node.name === 'a' && attribs.href !== undefined && /^\s*javascript:/i.test(attribs.href))
        delete attribs.href;
      else if (node.name === 'img') {
        const src = largestSrcset(attribs.srcset) ?? attribs.src ?? attribs['data-src'];
        delete attribs.srcset;
        if (src && !/^\s*data:/i.test(src)) attribs.src = src;
        else drop.push(node);
      }
      walk(node.children);
    }
  };
  walk($.root().children().toArray());
  for (const node of drop) removeElement(node);
  const baseUrl = resolveUrl(baseHref ?? '', pageUrl) ?? pageUrl;
  return { $, baseUrl, title, headline: `${title} ${ogTitle}`.trim(), absolute: new WeakSet() };
}

/** Makes the links and images under `nodes` absolute (once each), without tracking parameters. */
export function absolutize(page: LoadedPage, nodes: readonly AnyNode[]): void {
  const walk = (list: readonly AnyNode[]) => {
    for (const node of list) {
      if (!isTag(node) || page.absolute.has(node)) continue;
      page.absolute.add(node);
      const attribs = node.attribs;
      if (node.name === 'a' && attribs.href !== undefined) {
        const absolute = resolveUrl(attribs.href, page.baseUrl);
        if (absolute) attribs.href = absolute;
      } else if (node.name === 'img' && attribs.src !== undefined) {
        const absolute = resolveUrl(attribs.src, page.baseUrl);
        if (absolute) attribs.src = absolute;
        else delete attribs.src;
      }
      walk(node.children);
    }
  };
  walk(nodes);
}

/**
 * The main content's nodes (see extractMainContent); `reload` parses the page afresh for the
 * second pass that pages stripped too hard by class evidence get.
 */
export function mainContent(page: LoadedPage, reload?: () => LoadedPage): AnyNode[] {
  const { $ } = page;
  const root = ($('body').get(0) ?? $.root().get(0)) as ParentNode | undefined;
  if (!root) return [];
  return extractMainContent(root, page.headline, reload ? () => bodyOf(reload()) : undefined);
}

function bodyOf(page: LoadedPage): ParentNode {
  return (page.$('body').get(0) ?? page.$.root().get(0)) as ParentNode;
}

/** The whole body (only_main_content: false): everything but code and styling. */
export function wholeBody(page: LoadedPage): AnyNode[] {
  const { $ } = page;
  return $('body').length > 0 ? $('body').contents().toArray() : $.root().contents().toArray();
}

/** Query parameters that only tell a site where a click came from. */
const TRACKING_PARAMETER =
  /^(?:utm_\w+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|twclid|ttclid|li_fat_id|mc_cid|mc_eid|igshid|igsh|_ga|_gl|_hsenc|_hsmi|__hstc|__hssc|__hsfp|hsctatracking|mkt_tok|oly_anon_id|oly_enc_id|vero_id|vero_conv|rb_clickid|s_cid|cmpid|ncid|ocid|ref_src|ref_url|spm|scid|trk|trkcampaign|sr_share|wickedid|soc_src|soc_trk)$/i;

export function resolveUrl(href: string, base: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed.startsWith('#') && trimmed.length > 0) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return undefined;
  }
  if (url.search) {
    for (const name of [...url.searchParams.keys()])
      if (TRACKING_PARAMETER.test(name)) url.searchParams.delete(name);
  }
  return url.href;
}

/** The widest candidate of a srcset (`a.png 1x, b.png 2x` or `a.png 480w, b.png 960w`). */
function largestSrcset(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  let best: { url: string; size: number } | undefined;
  for (const candidate of srcset.split(',')) {
    const [url, descriptor = '1x'] = candidate.trim().split(/\s+/);
    if (!url) continue;
    const size = Number.parseFloat(descriptor) || 1;
    if (!best || size > best.size) best = { url, size };
  }
  return best?.url;
}
