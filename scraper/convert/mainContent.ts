import { type AnyNode, type Element, isTag, isText, type ParentNode } from 'domhandler';
import { removeElement } from 'domutils';
import {
  BYLINE_LINE,
  FURNITURE_LINE,
  FURNITURE_TAGS,
  INLINE_TAGS,
  MAYBE_CONTENT,
  NEGATIVE,
  PARAGRAPH_TAGS,
  POSITIVE,
  TAIL_HEADING,
  UNLIKELY,
  UNLIKELY_ROLES,
} from './evidence.ts';
import { countText, linkDensity, measure, type StatsMap, statsOf, textOf } from './measure.ts';

/** A page whose chosen content is shorter than this is extracted again without pruning by class. */
const MIN_CONTENT_CHARS = 400;

/**
 * The main content of a page, the way Readability finds it, with Trafilatura's precision on top:
 * furniture removed by tag, role and class evidence; every paragraph scores its ancestors
 * (longer text and more commas score more); the best candidate, discounted by its link
 * density, wins, together with the siblings that score close to it; inside it, blocks that are
 * mostly links, lists of teasers, captions, comment sections and furniture lines go.
 * Mutates the tree it is given. Hand-written on the parsed tree because the libraries that do
 * this (Readability.js, Trafilatura) need a full DOM or another language, and parsing a page
 * twice would cost more than extracting it.
 */
export function extractMainContent(root: ParentNode, title: string, reparse?: () => ParentNode): AnyNode[] {
  const first = extractFrom(root, title, true);
  if (chars(first) >= MIN_CONTENT_CHARS || !reparse) return first;
  const second = extractFrom(reparse(), title, false);
  return chars(second) > chars(first) ? second : first;
}

function chars(nodes: AnyNode[]): number {
  let total = 0;
  for (const node of nodes) total += countText(textOf(node)).chars;
  return total;
}

function extractFrom(root: ParentNode, title: string, pruneByClass: boolean): AnyNode[] {
  const rootStats = new Map() as StatsMap;
  const totalChars = measure(root.children, rootStats).chars;
  prune(root, pruneByClass, rootStats, totalChars);
  const stats: StatsMap = new Map();
  measure(root.children, stats);
  const scores = scoreParagraphs(root, stats);
  const top = chooseTop(root, scores, stats);
  if (!top) return [...root.children];
  const picked = withSiblings(top, scores, stats);
  for (const node of picked) if (isTag(node)) clean(node, stats, scores, title);
  return picked;
}

function classAndId(element: Element): string {
  const { class: className = '', id = '' } = element.attribs;
  return className || id ? `${className} ${id}` : '';
}

function classWeight(element: Element): number {
  const words = classAndId(element);
  if (!words) return 0;
  let weight = 0;
  if (NEGATIVE.test(element.attribs.class ?? '')) weight -= 25;
  if (POSITIVE.test(element.attribs.class ?? '')) weight += 25;
  if (NEGATIVE.test(element.attribs.id ?? '')) weight -= 25;
  if (POSITIVE.test(element.attribs.id ?? '')) weight += 25;
  return weight;
}

/** Removes what is furniture by definition or by strong evidence, before anything is scored. */
function prune(root: ParentNode, byClass: boolean, stats: StatsMap, totalChars: number): void {
  const drop: Element[] = [];
  const walk = (nodes: readonly AnyNode[], protectedBy: boolean) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      const name = node.name;
      const attribs = node.attribs;
      const share = statsOf(stats, node).chars / Math.max(1, totalChars);
      const furniture =
        (FURNITURE_TAGS.has(name) && share < 0.5) ||
        (name === 'header' && share < 0.15) ||
        attribs.hidden !== undefined ||
        attribs['aria-hidden'] === 'true' ||
        UNLIKELY_ROLES.has(attribs.role ?? '') ||
        (byClass &&
          !protectedBy &&
          name !== 'body' &&
          name !== 'article' &&
          name !== 'main' &&
          share < 0.5 &&
          UNLIKELY.test(classAndId(node)) &&
          !MAYBE_CONTENT.test(classAndId(node)));
      if (furniture) {
        drop.push(node);
        continue;
      }
      walk(node.children, protectedBy || name === 'table' || name === 'pre' || name === 'code');
    }
  };
  walk(root.children, false);
  for (const element of drop) removeElement(element);
}

type Scores = Map<Element, number>;

function initialScore(element: Element): number {
  let score = classWeight(element);
  switch (element.name) {
    case 'div':
    case 'article':
    case 'main':
      score += 5;
      break;
    case 'pre':
    case 'td':
    case 'blockquote':
      score += 3;
      break;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      score -= 3;
      break;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      score -= 5;
      break;
  }
  return score;
}

/** Every paragraph gives its parent its score, its grandparent half, and further ancestors less. */
function scoreParagraphs(root: ParentNode, stats: StatsMap): Scores {
  const scores: Scores = new Map();
  const credit = (from: ParentNode | null, points: number) => {
    let level = 0;
    for (let node = from; node && isTag(node) && level < 5; node = node.parent, level++) {
      if (node.name === 'body' || node.name === 'html') break;
      if (!scores.has(node)) scores.set(node, initialScore(node));
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(node, (scores.get(node) ?? 0) + points / divider);
    }
  };
  const paragraphPoints = (length: number, commas: number) =>
    1 + commas + Math.min(Math.floor(length / 100), 3);
  const walk = (nodes: readonly AnyNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (PARAGRAPH_TAGS.has(node.name)) {
        const { chars: length, commas } = statsOf(stats, node);
        if (length >= 25) credit(node.parent, paragraphPoints(length, commas));
        if (node.name !== 'td' && node.name !== 'blockquote') continue;
      } else if (!INLINE_TAGS.has(node.name)) {
        // Text written straight into a container (a div of inline runs) is a paragraph too.
        let length = 0;
        let commas = 0;
        for (const child of node.children) {
          if (isText(child)) {
            const counted = countText(child.data);
            length += counted.chars;
            commas += counted.commas;
          } else if (isTag(child) && INLINE_TAGS.has(child.name)) {
            const childStats = statsOf(stats, child);
            length += childStats.chars;
            commas += childStats.commas;
          }
        }
        if (length >= 25) credit(node, paragraphPoints(length, commas));
      }
      walk(node.children);
    }
  };
  walk(root.children);
  for (const [element, score] of scores)
    scores.set(element, score * (1 - linkDensity(statsOf(stats, element))));
  return scores;
}

function chooseTop(root: ParentNode, scores: Scores, stats: StatsMap): Element | undefined {
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  const best = ranked[0];
  if (!best) return undefined;
  let [top, topScore] = best;
  // Several strong candidates under one ancestor: the ancestor holds the article.
  const alternatives = ranked
    .slice(1)
    .filter(([, score]) => score >= topScore * 0.75)
    .map(([element]) => element);
  // An <article> is self-contained by definition: strong <article> neighbours are other posts.
  if (alternatives.length >= 3 && top.name !== 'article') {
    for (let parent = top.parent; parent && isTag(parent) && parent.name !== 'body'; parent = parent.parent) {
      const inside = alternatives.filter((element) => contains(parent, element)).length;
      if (inside >= 3) {
        top = parent;
        break;
      }
    }
  }
  topScore = scores.get(top) ?? topScore;
  // Climb while the parent scores higher (the candidate was one column of the article).
  let lastScore = topScore;
  for (let parent = top.parent; parent && isTag(parent) && parent.name !== 'body'; parent = parent.parent) {
    const parentScore = scores.get(parent);
    if (parentScore === undefined) continue;
    if (parentScore < lastScore / 3) break;
    if (parentScore > lastScore) {
      top = parent;
      break;
    }
    lastScore = parentScore;
  }
  // A lone child says nothing its parent does not.
  while (
    top.parent &&
    isTag(top.parent) &&
    top.parent.name !== 'body' &&
    elementChildren(top.parent).length === 1
  )
    top = top.parent;
  void root;
  void stats;
  return top;
}

function contains(ancestor: Element, node: AnyNode): boolean {
  for (let current = node.parent; current; current = current.parent) if (current === ancestor) return true;
  return false;
}

function elementChildren(element: Element): Element[] {
  return element.children.filter((child): child is Element => isTag(child));
}

/** The top candidate with the siblings that look like more of the same article. */
function withSiblings(top: Element, scores: Scores, stats: StatsMap): AnyNode[] {
  const parent = top.parent;
  if (!parent || !isTag(parent)) return [top];
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const picked: AnyNode[] = [];
  for (const sibling of parent.children) {
    if (sibling === top) {
      picked.push(top);
      continue;
    }
    if (!isTag(sibling)) continue;
    // Neighbouring <article>s are other posts, not more of this one.
    if (top.name === 'article' && sibling.name === 'article') continue;
    let bonus = 0;
    if (sibling.attribs.class && sibling.attribs.class === top.attribs.class) bonus += topScore * 0.2;
    const score = scores.get(sibling);
    if (score !== undefined && score + bonus >= threshold) {
      picked.push(sibling);
      continue;
    }
    if (sibling.name === 'p') {
      const siblingStats = statsOf(stats, sibling);
      const density = linkDensity(siblingStats);
      const text = textOf(sibling);
      if (
        (siblingStats.chars > 80 && density < 0.25) ||
        (siblingStats.chars > 0 && density === 0 && /\.( |$)/.test(text))
      )
        picked.push(sibling);
    }
  }
  return picked;
}

const PICTURE_BLOCK = /(?:^|[\s_-])(?:image|img|photo|picture|figure|media)(?:$|[\s_-])/i;

function countTagLinks(element: Element): number {
  let count = 0;
  const walk = (node: Element) => {
    for (const child of node.children) {
      if (!isTag(child)) continue;
      if (child.name === 'a' && /(?:^|\s)tag(?:\s|$)/i.test(child.attribs.rel ?? '')) count++;
      else walk(child);
    }
  };
  walk(element);
  return count;
}

const CONDITIONAL = new Set(['form', 'fieldset', 'table', 'ul', 'ol', 'div', 'section', 'figure', 'dl']);

/** Inside the chosen content: the blocks that are not the article. */
function clean(root: Element, stats: StatsMap, scores: Scores, title: string): void {
  const drop: Element[] = [];
  const normalizedTitle = normalize(title);
  // A block holding most of the content is its wrapper, whatever its evidence says.
  const wrapperChars = statsOf(stats, root).chars * 0.5;
  const walk = (element: Element) => {
    for (const child of element.children) {
      if (!isTag(child)) continue;
      // A data table is content as a whole (Readability keeps them too): nothing in it is judged.
      if (child.name === 'table' && isDataTable(child)) continue;
      const wrapper = statsOf(stats, child).chars > wrapperChars;
      if (!wrapper && shouldDrop(child, stats, scores, normalizedTitle)) drop.push(child);
      else walk(child);
    }
  };
  walk(root);
  for (const element of drop) removeElement(element);
  dropTails(root, stats);
}

/** A "Related stories" or "Comments" heading ends the article: it and what follows in its block go. */
function dropTails(root: Element, stats: StatsMap): void {
  const wrapperChars = statsOf(stats, root).chars * 0.5;
  const walk = (element: Element) => {
    const children = element.children;
    for (let index = 0; index < children.length; index++) {
      const child = children[index];
      if (!child || !isTag(child)) continue;
      const own = statsOf(stats, child);
      const headingLike =
        /^h[1-6]$/.test(child.name) || (own.chars > 0 && own.chars < 50 && !INLINE_TAGS.has(child.name));
      if (headingLike && own.chars < 60 && TAIL_HEADING.test(textOf(child))) {
        const rest = children.slice(index).filter((node): node is Element => isTag(node));
        const restChars = rest.reduce((sum, node) => sum + statsOf(stats, node).chars, 0);
        if (restChars < wrapperChars) {
          for (const node of rest) removeElement(node);
          return;
        }
      }
      walk(child);
    }
  };
  walk(root);
}

function shouldDrop(element: Element, stats: StatsMap, scores: Scores, title: string): boolean {
  const name = element.name;
  const own = statsOf(stats, element);
  const weight = classWeight(element);
  if (/^h[1-6]$/.test(name)) {
    if (weight < 0) return true;
    const text = normalize(textOf(element));
    return (name === 'h1' || name === 'h2') && text.length >= 10 && title.length > 0 && title.includes(text);
  }
  // A list of the post's tags (rel="tag" links) is navigation, whatever holds it.
  if (own.chars > 0 && own.chars < 2_000 && linkDensity(own) > 0.6 && countTagLinks(element) >= 2)
    return true;
  // The caption under a picture, inside the picture's own block.
  if (
    (name === 'p' || name === 'div' || name === 'span') &&
    own.chars > 0 &&
    own.chars < 300 &&
    element.parent !== null &&
    isTag(element.parent) &&
    PICTURE_BLOCK.test(element.parent.attribs.class ?? '') &&
    element.parent.children.some((sibling) => isTag(sibling) && sibling.name === 'img')
  )
    return true;
  if (name === 'p' || name === 'div' || name === 'span' || name === 'li') {
    if (own.chars > 0 && own.chars < 60 && FURNITURE_LINE.test(textOf(element))) return true;
    if (own.chars > 0 && own.chars < 100 && BYLINE_LINE.test(textOf(element))) return true;
  }
  if (!CONDITIONAL.has(name)) return false;
  if (own.chars === 0) return own.images === 0 && own.embeds === 0 && name !== 'table';
  if (weight + (scores.get(element) ?? 0) < 0) return true;
  if (own.commas >= 10) return false;
  const isList =
    name === 'ul' || name === 'ol' || (own.listItems > 0 && own.chars > 0 && listShare(element, stats) > 0.9);
  const density = linkDensity(own);
  // Text in <br>-separated runs counts as paragraphs too (Readability turns such runs into <p>).
  const paragraphs = Math.max(own.paragraphs, Math.floor(own.chars / 250));
  const inFigure = hasAncestor(element, 'figure');
  if (own.images > 1 && paragraphs / own.images < 0.5 && own.chars < 50 * own.images && !inFigure)
    return true;
  if (!isList && own.listItems - 100 > paragraphs) return true;
  if (own.inputs > Math.floor(paragraphs / 3)) return true;
  if (!isList && own.chars < 25 && (own.images === 0 || own.images > 2) && !inFigure) return true;
  if (!isList && weight < 25 && density > 0.2) return true;
  if (weight >= 25 && density > 0.5) return true;
  if (isList && density > 0.5 && own.chars < 1_000) return true;
  return false;
}

function listShare(element: Element, stats: StatsMap): number {
  let inLists = 0;
  const walk = (node: Element) => {
    for (const child of node.children) {
      if (!isTag(child)) continue;
      if (child.name === 'ul' || child.name === 'ol') inLists += statsOf(stats, child).chars;
      else walk(child);
    }
  };
  walk(element);
  return inLists / Math.max(1, statsOf(stats, element).chars);
}

function hasAncestor(element: Element, name: string): boolean {
  for (let node = element.parent; node; node = node.parent)
    if (isTag(node) && node.name === name) return true;
  return false;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A table of data rather than of layout: headers or a caption, or enough rows and columns. */
function isDataTable(table: Element): boolean {
  if (table.attribs.role === 'presentation') return false;
  let rows = 0;
  let columns = 0;
  let headed = false;
  let nested = false;
  const walk = (element: Element) => {
    for (const child of element.children) {
      if (!isTag(child)) continue;
      switch (child.name) {
        case 'table':
          nested = true;
          break;
        case 'caption':
        case 'thead':
        case 'th':
          headed = true;
          walk(child);
          break;
        case 'tr': {
          rows++;
          const cells = child.children.filter(
            (cell) => isTag(cell) && (cell.name === 'td' || cell.name === 'th'),
          );
          columns = Math.max(columns, cells.length);
          if (cells.some((cell) => isTag(cell) && cell.name === 'th')) headed = true;
          break;
        }
        default:
          walk(child);
      }
    }
  };
  walk(table);
  if (nested || rows <= 1 || columns <= 1) return false;
  return headed || rows >= 10 || columns > 4 || rows * columns > 10;
}
