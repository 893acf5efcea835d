import { type AnyNode, type Element, isComment, isTag } from 'domhandler';
import { type Cheerio, type CheerioAPI, load } from 'cheerio/slim';

/** Never content: code, styling, embedded documents, form controls, and the head. */
const NON_CONTENT =
  'script, style, noscript, template, iframe, object, embed, canvas, svg, link, meta, head, button, input, select, textarea, dialog';

/**
 * Page furniture removed from the main content. Generic class names (`.header`, `.menu`) match
 * wrapper elements on some themes, so the result is checked against the page and the removal
 * is undone when it took most of the text away.
 */
const BOILERPLATE = [
  'header',
  'footer',
  'nav',
  'aside',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[aria-hidden="true"]',
  '[hidden]',
  '.sidebar',
  '.navbar',
  '.nav',
  '.menu',
  '.breadcrumb',
  '.breadcrumbs',
  '.cookie',
  '.cookie-banner',
  '#cookie-banner',
  '.cookies',
  '.consent',
  '.ad',
  '.ads',
  '.advert',
  '.advertisement',
  '.social',
  '.share',
  '.newsletter',
  '.popup',
  '.modal',
  '.skip-link',
].join(', ');

export interface LoadedPage {
  $: CheerioAPI;
  /** The URL relative links resolve against (a `<base href>` wins over the page URL). */
  baseUrl: string;
  /** Read before the head is dropped. */
  title: string;
}

/** Parses a page, drops what is never content, and makes every link and image absolute. */
export function loadPage(html: string, pageUrl: string): LoadedPage {
  const $ = load(html);
  const baseHref = $('base[href]').attr('href');
  const baseUrl = resolveUrl(baseHref ?? '', pageUrl) ?? pageUrl;
  const title = $('title').first().text().replace(/\s+/g, ' ').trim();
  $(NON_CONTENT).remove();
  // One walk over what is left: comments out, handlers and inline styles off, links and images
  // absolute (a walk per concern cost more than parsing the page).
  const drop: AnyNode[] = [];
  const walk = (nodes: readonly AnyNode[]) => {
    for (const node of nodes) {
      if (isComment(node)) {
        drop.push(node);
        continue;
      }
      if (!isTag(node)) continue;
      const attribs = node.attribs;
      for (const name of Object.keys(attribs))
        if (name.startsWith('on') || name === 'style') delete attribs[name];
      if (node.name === 'a' && attribs.href !== undefined) {
        if (/^\s*javascript:/i.test(attribs.href)) delete attribs.href;
        else {
          const absolute = resolveUrl(attribs.href, baseUrl);
          if (absolute) attribs.href = absolute;
        }
      } else if (node.name === 'img') {
        const src = largestSrcset(attribs.srcset) ?? attribs.src ?? attribs['data-src'];
        const absolute = src ? resolveUrl(src, baseUrl) : undefined;
        delete attribs.srcset;
        if (absolute && !absolute.startsWith('data:')) attribs.src = absolute;
        else drop.push(node);
      }
      walk(node.children);
    }
  };
  walk($.root().children().toArray());
  $(drop).remove();
  return { $, baseUrl, title };
}

/**
 * The main content: the page's own `<main>`/`<article>` when it holds most of the text,
 * otherwise the body without its furniture; the whole body again when stripping left too little.
 */
export function mainContent({ $ }: LoadedPage): Cheerio<AnyNode> {
  const body: Cheerio<AnyNode> = $('body').length > 0 ? $('body') : $.root();
  const total = textLength(body);
  const candidate = [$('main').first(), $('[role="main"]').first(), largest($, $('article'))].find(
    (element) => element.length > 0,
  );
  if (candidate && textLength(candidate) >= total * 0.3) return candidate;
  const stripped = body.clone();
  stripped.find(BOILERPLATE).remove();
  const kept = textLength(stripped);
  if (kept >= Math.min(total * 0.2, 200)) return stripped;
  return body;
}

function largest($: CheerioAPI, elements: Cheerio<Element>): Cheerio<Element> {
  let best: Cheerio<Element> = $([]);
  let bestLength = -1;
  elements.each((_, element) => {
    const length = textLength($(element));
    if (length > bestLength) {
      best = $(element);
      bestLength = length;
    }
  });
  return best;
}

function textLength(element: Cheerio<AnyNode>): number {
  return element.text().replace(/\s+/g, ' ').trim().length;
}

export function resolveUrl(href: string, base: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed.startsWith('#') && trimmed.length > 0) return undefined;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return undefined;
  }
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
