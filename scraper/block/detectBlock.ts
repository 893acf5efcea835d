import { AttemptOutcome } from '../../core/scrape/outcome.ts';
import { NEEDS_JS_MARKERS, STRONG_MARKERS, WEAK_MARKERS } from './markers.ts';

export interface Verdict {
  outcome:
    | typeof AttemptOutcome.ok
    | typeof AttemptOutcome.blocked
    | typeof AttemptOutcome.needsJs
    | typeof AttemptOutcome.rateLimited;
  reason: string;
  retryAfterS?: number;
}

export interface PageSignals {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  contentType: string;
  body: string;
  /** The page was rendered by a browser (scripts already ran): an empty page is then a block. */
  rendered?: boolean;
  /** The caller's wait_for matched: the page has what was asked for, however little text it has. */
  selectorFound?: boolean;
}

const SCAN_BYTES = 20_000;

/**
 * Was this answer the page, or a block? False positives cost one more tier; false negatives
 * hand a challenge page to the caller as content, so the detector leans towards "blocked".
 * Real errors (404, 410, 500 without markers) are not blocks: their status passes through.
 */
export function detectBlock(page: PageSignals): Verdict {
  const { status, headers, contentType, body } = page;
  if (status === 429) {
    return {
      outcome: AttemptOutcome.rateLimited,
      reason: 'HTTP 429',
      retryAfterS: parseRetryAfter(headers['retry-after']),
    };
  }
  if (headers['cf-mitigated'] === 'challenge')
    return { outcome: AttemptOutcome.blocked, reason: 'cloudflare_challenge' };
  const isJson = /\bjson\b/i.test(contentType);
  const head = body.slice(0, SCAN_BYTES);
  for (const marker of STRONG_MARKERS) {
    if (marker.pattern.test(head)) return { outcome: AttemptOutcome.blocked, reason: marker.reason };
  }
  if ((status === 403 || status === 503) && !isJson) {
    const weak = WEAK_MARKERS.find((marker) => marker.pattern.test(head));
    return { outcome: AttemptOutcome.blocked, reason: `HTTP ${status}${weak ? ` ${weak.reason}` : ''}` };
  }
  if (status >= 400 && body.length < 10_000) {
    const weak = WEAK_MARKERS.find((marker) => marker.pattern.test(head));
    if (weak) return { outcome: AttemptOutcome.blocked, reason: `HTTP ${status} ${weak.reason}` };
  }
  if (status >= 200 && status < 300 && !isJson && /html|^$/i.test(contentType)) {
    const emptiness = page.selectorFound ? null : emptyPageReason(body);
    if (emptiness) {
      // After a browser ran the scripts, nothing more can render it: treat it as a block.
      return { outcome: page.rendered ? AttemptOutcome.blocked : AttemptOutcome.needsJs, reason: emptiness };
    }
    if (status === 200 && body.length < 10_000) {
      const weak = WEAK_MARKERS.find(
        (marker) => marker.reason === 'js_challenge' && marker.pattern.test(head),
      );
      if (weak) return { outcome: AttemptOutcome.blocked, reason: weak.reason };
    }
  }
  return { outcome: AttemptOutcome.ok, reason: status >= 400 ? `HTTP ${status}` : 'ok' };
}

/** Why a 2xx HTML page has nothing to read, or null when it has. */
export function emptyPageReason(html: string): string | null {
  if (html.trim().length === 0) return 'empty_body';
  if (html.length > 50_000) return null;
  const scripts = (html.match(/<script\b/gi) ?? []).length;
  const visible = html
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (visible.length < 50) return scripts > 0 ? 'script_only' : 'no_visible_text';
  if (visible.length < 300 && NEEDS_JS_MARKERS.test(html)) return 'needs_javascript';
  return null;
}

/** Retry-After as seconds (delta or HTTP date), bounded to an hour; 30 s when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number {
  if (!value) return 30;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(3_600, Math.max(1, Number(trimmed)));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return 30;
  return Math.min(3_600, Math.max(1, Math.ceil((date - now) / 1000)));
}
