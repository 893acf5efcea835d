import { strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import render from 'dom-serializer';
import { type AnyNode, Element, isTag } from 'domhandler';
import { append } from 'domutils';
import TurndownService from 'turndown';

/**
 * The extracted content → GitHub-flavoured Markdown through turndown and its GFM plugin
 * (strikethrough, task lists; tables by the rules below): ATX headings, `-` bullets, fenced code that keeps its language,
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
  childNodes: ArrayLike<DomElement>;
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
service.use([strikethrough, taskListItems]);

/*
 * Turndown escapes every text node with thirteen regular-expression passes, one new string each;
 * on an article that was a fifth of the conversion's time and most of its garbage. Most text nodes
 * hold none of the characters those passes look for, so one test decides whether to run them: the
 * same output (the same patterns, anchored to the string's start as turndown's are), less work.
 */
const MAY_NEED_ESCAPING = /[\\*`[\]_]|^(?:-|\+ |=|#{1,6} |~~~|>|\d+\. )/;
const escapeEveryPattern = service.escape.bind(service);
service.escape = (text: string) => (MAY_NEED_ESCAPING.test(text) ? escapeEveryPattern(text) : text);

/*
 * GFM tables. The plugin's table rules re-read `table.rows` (a live collection in turndown's DOM)
 * for cells and columns, which cost 10 ms on a 20-row table, more than the rest of the page;
 * these rules do the same in one pass per table: the first row is the header when it is all
 * <th> or in <thead> (else an empty header is added), rows are padded to the widest, pipes in
 * cells are escaped, and a table that holds another table is written as its cells' text.
 */
interface TableShape {
  columns: number;
  nested: boolean;
  headed: boolean;
}
const shapes = new WeakMap<object, TableShape>();

function rowsOf(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  for (const child of Array.from(table.childNodes)) {
    if (child.nodeName === 'TR') rows.push(child);
    else if (child.nodeName === 'THEAD' || child.nodeName === 'TBODY' || child.nodeName === 'TFOOT')
      for (const row of Array.from(child.childNodes)) if (row.nodeName === 'TR') rows.push(row);
  }
  return rows;
}

function cellsOf(row: DomElement): DomElement[] {
  return Array.from(row.childNodes).filter((cell) => cell.nodeName === 'TD' || cell.nodeName === 'TH');
}

function containsTable(element: DomElement): boolean {
  for (const child of Array.from(element.childNodes))
    if (child.nodeName === 'TABLE' || containsTable(child)) return true;
  return false;
}

function shapeOf(table: DomElement): TableShape {
  let shape = shapes.get(table);
  if (!shape) {
    const rows = rowsOf(table);
    const first = rows[0];
    const firstCells = first ? cellsOf(first) : [];
    shape = {
      columns: Math.max(0, ...rows.map((row) => cellsOf(row).length)),
      nested: containsTable(table),
      headed:
        first !== undefined &&
        (first.parentElement?.nodeName === 'THEAD' ||
          (firstCells.length > 0 && firstCells.every((cell) => cell.nodeName === 'TH'))),
    };
    shapes.set(table, shape);
  }
  return shape;
}

function tableOf(node: DomElement): DomElement | null {
  let current = node.parentElement;
  while (current && current.nodeName !== 'TABLE') current = current.parentElement;
  return current;
}

service.addRule('tableCell', {
  filter: ['th', 'td'],
  replacement: (content, node) => {
    const table = tableOf(asElement(node));
    if (!table || shapeOf(table).nested) return `\n\n${content}\n\n`;
    const text = content
      .trim()
      .replace(/\s*\n\s*/g, ' ')
      .replace(/\|/g, '\\|');
    return ` ${text} |`;
  },
});

service.addRule('tableRow', {
  filter: 'tr',
  replacement: (content, node) => {
    const element = asElement(node);
    const table = tableOf(element);
    if (!table) return content;
    const shape = shapeOf(table);
    if (shape.nested) return content;
    const missing = shape.columns - cellsOf(element).length;
    return `\n|${content}${'     |'.repeat(Math.max(0, missing))}`;
  },
});

service.addRule('tableSection', {
  filter: ['thead', 'tbody', 'tfoot'],
  replacement: (content) => content,
});

service.addRule('tableCaption', { filter: ['caption', 'colgroup', 'col'], replacement: () => '' });

service.addRule('table', {
  filter: 'table',
  replacement: (content, node) => {
    const shape = shapeOf(asElement(node));
    if (shape.nested || shape.columns === 0) return `\n\n${content}\n\n`;
    const lines = content.trim().split('\n');
    const separator = `|${' --- |'.repeat(shape.columns)}`;
    const header = shape.headed ? (lines.shift() ?? '') : `|${'     |'.repeat(shape.columns)}`;
    return `\n\n${[header, separator, ...lines].join('\n')}\n\n`;
  },
});

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

/** The attributes turndown and the rules above read; the rest is parsed for nothing. */
const MARKDOWN_ATTRIBUTES = new Set([
  'href',
  'src',
  'alt',
  'title',
  'class',
  'data-lang',
  'width',
  'height',
  'start',
  'type',
  'checked',
]);

/**
 * Drops every other attribute (styles, ids, data-*, aria-*, handlers) before the HTML is
 * serialised for turndown, which parses it again into its own DOM: a tenth less to parse.
 */
function keepMarkdownAttributes(nodes: readonly AnyNode[]): void {
  for (const node of nodes) {
    if (!isTag(node)) continue;
    for (const name of Object.keys(node.attribs)) if (!MARKDOWN_ATTRIBUTES.has(name)) delete node.attribs[name];
    keepMarkdownAttributes(node.children);
  }
}

export function nodesToMarkdown(nodes: readonly AnyNode[]): string {
  expandColspans(nodes);
  keepMarkdownAttributes(nodes);
  const html = render(nodes, { decodeEntities: false });
  return service
    .turndown(html)
    .replace(/[ \t]+$/gm, (spaces) => (spaces === '  ' ? spaces : ''))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
