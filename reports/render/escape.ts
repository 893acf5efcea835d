/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A link target that is safe to print: an absolute http(s) URL, normalised by the URL parser.
 * Anything else (javascript:, data:, relative, malformed) is no link at all.
 */
export function safeHref(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

/** Text for Markdown: the characters that start markup (links, HTML, emphasis, code) escaped. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_{}[\]()#+!|~>]/g, (char) => `\\${char}`)
    .replace(/</g, '&lt;')
    .replace(/\r?\n/g, ' ');
}
