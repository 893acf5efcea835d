/**
 * Markdown as a reader sees it once rendered: the words without the syntax (link targets,
 * images, emphasis marks, fences, table pipes, escapes). The extraction benchmark compares
 * words, so a link's URL or an image left in would count as extracted text.
 */
export function stripMarkdown(markdown: string): string {
  return markdown
    .replace(/!\[(?:\\.|[^\]\\])*\]\([^)]*\)/g, '')
    .replace(/\[((?:\\.|[^\]\\])*)\]\([^)]*\)/g, '$1')
    .replace(/^ {0,3}(`{3,}|~{3,}).*$/gm, '')
    .replace(/^ {0,3}#{1,6}\s+/gm, '')
    .replace(/^ {0,3}>\s?/gm, '')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
    .replace(/^\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, '')
    .replace(/\s*\|\s*/g, '\t')
    .replace(/(\*\*|__|~~|\*|`)/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
