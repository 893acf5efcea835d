/** The charset a response declares: Content-Type first, then a BOM, then a `<meta>` in the head. */
function detectCharset(contentType: string, bytes: Uint8Array): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (fromHeader) return fromHeader.toLowerCase();
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (/html|xml/i.test(contentType) || contentType === '') {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4_096));
    const meta =
      /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
      /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1];
    if (meta) return meta.toLowerCase();
  }
  return 'utf-8';
}

/** Decodes a body in its declared charset, falling back to UTF-8 for labels the runtime lacks. */
export function decodeBody(contentType: string, bytes: Uint8Array): string {
  const charset = detectCharset(contentType, bytes);
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
