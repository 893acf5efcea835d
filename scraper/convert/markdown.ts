import { gfm } from '@joplin/turndown-plugin-gfm';
import render from 'dom-serializer';
import { type AnyNode, Element, isTag } from 'domhandler';
import { append } from 'domutils';
import TurndownService from 'turndown';

/**
 * The extracted content → GitHub-flavoured Markdown through turndown and its GFM plugin (tables,
 * strikethrough, task lists): ATX headings, `-` bullets, fenced code that keeps its language,
 * inline links (already absolute and stripped of tracking parameters by loadPage), and images
 * only where they are content. One service for the process: building it is the costly part.
 */
/** What the rules read of turndown's DOM nodes (this project compiles without the DOM library). */
interface DomElement {
  nodeName: string;
  textContent: string | null;
  parentElement: DomElement | null;
  previousSibling: { nodeName: string } | null;
  nextSibling: unknown;
  children: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomElement | null;
}
const asElement = (node: unknown) => node as DomElement;

const service = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '*',
  strongDelimiter: '**',
  hr: '---',
  linkStyle: 'inlined',
});
service.use(gfm);

// Code blocks: the language from any of the class conventions highlighters use, and the text of
// the whole <pre> (highlighters split it into spans, some without a <code> inside).
service.addRule('fencedCodeWithLanguage', {
  filter: (node) => asElement(node).nodeName === 'PRE',
  replacement: (_content, node) => {
    const element = asElement(node);
    const code = element.querySelector('code');
    const classes = `${element.getAttribute('class') ?? ''} ${code?.getAttribute('class') ?? ''} ${element.parentElement?.getAttribute('class') ?? ''}`;
    const language =
      element.getAttribute('data-lang') ??
      code?.getAttribute('data-lang') ??
      /(?:^|\s)(?:language|lang|highlight-source|brush:?)-?([\w+#.-]+)/.exec(classes)?.[1] ??
      '';
    const text = (element.textContent ?? '').replace(/\n$/, '');
    const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run: string) => run.length));
    const fence = '`'.repeat(longest + 1);
    return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
  },
});

// Images: content images only. Tracking pixels, icons, logos, avatars and spacers are not.
const DECORATIVE =
  /(?:^|[-_/.\s])(?:logo|icon|avatar|sprite|spacer|pixel|badge|emoji|gravatar)(?:s|[-_/.\s]|$)/i;
service.addRule('contentImages', {
  filter: 'img',
  replacement: (_content, node) => {
    const element = asElement(node);
    const src = element.getAttribute('src') ?? '';
    if (!/^https?:/i.test(src)) return '';
    const width = Number(element.getAttribute('width') ?? '0');
    const height = Number(element.getAttribute('height') ?? '0');
    if ((width > 0 && width < 48) || (height > 0 && height < 48)) return '';
    if (DECORATIVE.test(`${src} ${element.getAttribute('class') ?? ''} ${element.getAttribute('alt') ?? ''}`))
      return '';
    const alt = (element.getAttribute('alt') ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[[\]\\]/g, '\\$&');
    return `![${alt}](${src.replace(/[()\s]/g, (c: string) => encodeURIComponent(c))})`;
  },
});

// A link around nothing readable (an image that was dropped, an icon) says nothing.
service.addRule('emptyLinks', {
  filter: (node) => {
    const element = asElement(node);
    return (
      element.nodeName === 'A' && (element.textContent ?? '').trim() === '' && !element.querySelector('img')
    );
  },
  replacement: () => '',
});

// <br> runs collapse to one line break: layouts use them as spacing.
service.addRule('lineBreaks', {
  filter: 'br',
  replacement: (_content, node) => (asElement(node).previousSibling?.nodeName === 'BR' ? '' : '  \n'),
});

// List items with a one-space marker (`- item`, `1. item`); continuation lines indented to the
// marker's width, which is what CommonMark needs to keep nested blocks inside the item.
service.addRule('listItems', {
  filter: 'li',
  replacement: (content, node) => {
    const element = asElement(node);
    const parent = element.parentElement;
    let marker = '- ';
    if (parent?.nodeName === 'OL') {
      const start = Number(parent.getAttribute('start') ?? '1') || 1;
      const siblings = Array.from(parent.children).filter((child) => child.nodeName === 'LI');
      marker = `${start + siblings.indexOf(element)}. `;
    }
    const body = content
      .replace(/^\n+/, '')
      .replace(/\n+$/, '\n')
      .replace(/\n(?!$)/g, `\n${' '.repeat(marker.length)}`);
    return `${marker}${body}${element.nextSibling && !body.endsWith('\n') ? '\n' : ''}`;
  },
});

service.remove(['script', 'style', 'noscript', 'template', 'svg', 'button', 'input', 'select', 'textarea']);

/**
 * Spans a cell over its columns by empty cells after it: GFM tables have no colspan, and the
 * GFM plugin misaligns the separator row of a header that has one.
 */
function expandColspans(nodes: readonly AnyNode[]): void {
  const walk = (list: readonly AnyNode[]) => {
    for (const node of list) {
      if (!isTag(node)) continue;
      if ((node.name === 'td' || node.name === 'th') && node.attribs.colspan) {
        const span = Math.min(50, Number.parseInt(node.attribs.colspan, 10) || 1);
        delete node.attribs.colspan;
        let last: AnyNode = node;
        for (let i = 1; i < span; i++) {
          const filler = new Element(node.name, {});
          append(last, filler);
          last = filler;
        }
      }
      walk(node.children);
    }
  };
  walk(nodes);
}

export function nodesToMarkdown(nodes: readonly AnyNode[]): string {
  expandColspans(nodes);
  const html = render(nodes, { decodeEntities: false });
  return service
    .turndown(html)
    .replace(/[ \t]+$/gm, (spaces) => (spaces === '  ' ? spaces : ''))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
