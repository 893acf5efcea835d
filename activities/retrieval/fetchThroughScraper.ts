import { ApplicationFailure } from '@temporalio/activity';
import { IngestFailure } from '../../retrieval/core/ingest.ts';

/** Problems of the scraper service that no retry can change. */
const PERMANENT: Record<number, string> = {
  // The scraper refused this pool's key (SCRAPER_API_KEY): a configuration fault, not a busy service.
  401: IngestFailure.scraperRefused,
  403: IngestFailure.scraperRefused,
  422: IngestFailure.urlNotAllowed,
  451: IngestFailure.fetchFailed,
  502: IngestFailure.fetchFailed,
};

/**
 * A document URL, fetched by the scraper service: its escalation chain, its egress guard (only
 * public addresses, on every redirect) and its politeness apply, and it answers Markdown (or the
 * body as sent: `raw`, for feeds).
 */
export async function fetchThroughScraper(
  scraper: { url: string; apiKey?: string | undefined },
  url: string,
  format: 'markdown' | 'raw' = 'markdown',
): Promise<string> {
  const response = await fetch(`${scraper.url.replace(/\/+$/, '')}/v1/scrape`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(scraper.apiKey ? { 'x-api-key': scraper.apiKey } : {}),
    },
    body: JSON.stringify({ url, format, timeout_ms: 60_000 }),
    signal: AbortSignal.timeout(90_000),
  });
  const body = (await response.json().catch(() => ({}))) as {
    content?: unknown;
    detail?: unknown;
    status?: unknown;
  };
  if (response.ok && typeof body.content === 'string') {
    if (typeof body.status === 'number' && body.status >= 400) {
      throw ApplicationFailure.nonRetryable(`the page answered ${body.status}`, IngestFailure.fetchFailed);
    }
    return body.content;
  }
  const detail = typeof body.detail === 'string' ? body.detail : `the scraper answered ${response.status}`;
  const permanent = PERMANENT[response.status];
  if (permanent) throw ApplicationFailure.nonRetryable(detail, permanent);
  // 429, 503, 504: the scraper or the target is busy; the activity's retry policy waits.
  throw ApplicationFailure.retryable(detail, 'scraper_unavailable');
}
