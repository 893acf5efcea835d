import { type AnyNode, type Element, isTag, isText } from 'domhandler';

/** What extraction knows about one element's text, measured once bottom-up. */
export interface TextStats {
  /** Characters of text, whitespace not counted. */
  chars: number;
  /** Of which inside links. */
  linkChars: number;
  commas: number;
  paragraphs: number;
  listItems: number;
  images: number;
  inputs: number;
  headingChars: number;
  embeds: number;
}

export type StatsMap = Map<Element, TextStats>;

const EMPTY: TextStats = {
  chars: 0,
  linkChars: 0,
  commas: 0,
  paragraphs: 0,
  listItems: 0,
  images: 0,
  inputs: 0,
  headingChars: 0,
  embeds: 0,
};

/** Non-whitespace characters and commas of a string, in one pass. */
export function countText(text: string): { chars: number; commas: number } {
  let chars = 0;
  let commas = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 32 || code === 160) continue;
    chars++;
    if (code === 44 || code === 0xff0c || code === 0x3001) commas++;
  }
  return { chars, commas };
}

/** Measures every element under `nodes` (post-order) into `map`; returns the total. */
export function measure(nodes: readonly AnyNode[], map: StatsMap, inLink = false): TextStats {
  const total = { ...EMPTY };
  for (const node of nodes) {
    if (isText(node)) {
      const { chars, commas } = countText(node.data);
      total.chars += chars;
      total.commas += commas;
      if (inLink) total.linkChars += chars;
      continue;
    }
    if (!isTag(node)) continue;
    const name = node.name;
    const stats = measure(node.children, map, inLink || name === 'a');
    if (name === 'p') stats.paragraphs++;
    else if (name === 'li') stats.listItems++;
    else if (name === 'img') stats.images++;
    else if (name === 'input' || name === 'textarea' || name === 'select') stats.inputs++;
    else if (
      name === 'video' ||
      name === 'audio' ||
      name === 'iframe' ||
      name === 'embed' ||
      name === 'object'
    )
      stats.embeds++;
    else if (/^h[1-6]$/.test(name)) stats.headingChars += stats.chars;
    map.set(node, stats);
    total.chars += stats.chars;
    total.linkChars += stats.linkChars;
    total.commas += stats.commas;
    total.paragraphs += stats.paragraphs;
    total.listItems += stats.listItems;
    total.images += stats.images;
    total.inputs += stats.inputs;
    total.headingChars += stats.headingChars;
    total.embeds += stats.embeds;
  }
  return total;
}

export function statsOf(map: StatsMap, element: Element): TextStats {
  return map.get(element) ?? EMPTY;
}

export function linkDensity(stats: TextStats): number {
  return stats.chars === 0 ? 0 : stats.linkChars / stats.chars;
}

/** The element's text with whitespace collapsed. */
export function textOf(node: AnyNode): string {
  let out = '';
  const walk = (current: AnyNode) => {
    if (isText(current)) out += current.data;
    else if (isTag(current)) for (const child of current.children) walk(child);
  };
  walk(node);
  return out.replace(/\s+/g, ' ').trim();
}
