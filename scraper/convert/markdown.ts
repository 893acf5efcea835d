import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

/** The parts of turndown's DOM node a list item rule reads (no DOM types in a Node program). */
interface ListItemNode {
  nextSibling: unknown;
  parentNode: {
    nodeName: string;
    getAttribute(name: string): string | null;
    children: ArrayLike<unknown>;
  } | null;
}

interface LinkNode {
  nodeName: string;
  textContent: string | null;
  querySelector(selector: string): unknown;
}

/**
 * HTML → GitHub-flavoured Markdown: ATX headings, fenced code, `-` bullets, GFM tables (also
 * header-less ones, with pipes in cells escaped) and strikethrough. One instance: turndown keeps
 * no per-call state.
 */
function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
    linkStyle: 'inlined',
  });
  service.use(gfm);
  // turndown indents list items by three spaces after the marker; one is the common style.
  service.addRule('compactListItem', {
    filter: 'li',
    replacement(content, node, options) {
      const element = node as unknown as ListItemNode;
      const parent = element.parentNode;
      let prefix = `${options.bulletListMarker ?? '-'} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1') || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, element)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n(?!$)/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (element.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  // Links without text (icon links) carry nothing readable.
  service.addRule('dropEmptyLinks', {
    filter: (node) => {
      const element = node as unknown as LinkNode;
      return (
        element.nodeName === 'A' && (element.textContent ?? '').trim() === '' && !element.querySelector('img')
      );
    },
    replacement: () => '',
  });
  return service;
}

const turndown = createTurndown();

export function htmlToMarkdown(html: string): string {
  return turndown
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
