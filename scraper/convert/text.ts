import { type AnyNode, hasChildren, isTag, isText } from 'domhandler';

const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'caption',
]);
/** Blocks that stand apart from their neighbours by an empty line. */
const PARAGRAPHS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'blockquote',
  'table',
  'figure',
  'ul',
  'ol',
  'dl',
]);

/**
 * Readable text with the page's block structure: paragraphs and headings separated by an empty
 * line, list items and table rows on lines of their own (cells separated by tabs), `<br>` kept,
 * whitespace inside a block collapsed (but not in `<pre>`).
 */
export function nodesToText(nodes: readonly AnyNode[]): string {
  const out: string[] = [];
  let line = '';
  const breakLine = (blank: boolean) => {
    const trimmed = line
      .replace(/ +/g, ' ')
      .replace(/ ?\t ?/g, '\t')
      .trim();
    if (trimmed) out.push(trimmed);
    line = '';
    if (blank && out.length > 0 && out.at(-1) !== '') out.push('');
  };
  const walk = (node: AnyNode, pre: boolean) => {
    if (isText(node)) {
      const { data } = node;
      if (pre) {
        const lines = data.split('\n');
        lines.forEach((part, index) => {
          if (index > 0) {
            out.push(line.replace(/\s+$/, ''));
            line = '';
          }
          line += part;
        });
      } else line += data.replace(/\s+/g, ' ');
      return;
    }
    if (!hasChildren(node)) return;
    const element = node;
    const name = isTag(node) ? node.name.toLowerCase() : '';
    if (name === 'br') return breakLine(false);
    if (name === 'td' || name === 'th') {
      if (line.trim()) line += '\t';
      for (const child of element.children) walk(child, pre);
      return;
    }
    const block = BLOCKS.has(name);
    const paragraph = PARAGRAPHS.has(name);
    if (block) breakLine(paragraph);
    if (name === 'li') line += '- ';
    for (const child of element.children) walk(child, pre || name === 'pre');
    if (block) breakLine(paragraph);
  };
  for (const node of nodes) walk(node, false);
  breakLine(false);
  while (out.at(-1) === '') out.pop();
  return out.join('\n');
}
