import { startWithin } from '../../clients/temporal.ts';
import { createHash, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { isGrpcDeadlineError, isGrpcServiceError, WorkflowFailedError } from '@temporalio/client';
import { orStoreUnavailable } from '../../core/errors/storeUnavailable.ts';
import { VigilError } from '../../core/errors/vigilError.ts';
import type { ScrapeJobInput, ScrapeOutcome, TierAttempt } from '../../core/scrape/outcome.ts';
import { isDeadlinePassed } from '../../core/temporal/deadline.ts';
import { JobKind, SearchAttr } from '../../core/temporal/searchAttributes.ts';
import { bareHost, UrlRefusedError } from '../../scraper/ssrf/guard.ts';
import type { scrapePage } from '../../workflows/scrapePage.ts';
import type { Content, Converted } from '../../scraper/convert/convert.ts';
import type { ScraperDeps } from './deps.ts';
import { parseOutcome, type RefusedWord } from './outcomeWord.ts';
import type { Attempt, ScrapeRequest, ScrapeResponse } from './schemas.ts';

/** How long past the deadline the API waits for the workflow's own timeout verdict. */
const RESULT_GRACE_MS = 2_000;

export interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * Scrapes on top of Temporal: a request is a scrapePage workflow run that the API starts and
 * waits for, up to the request's timeout_ms. The API only checks what it can check without the
 * network (the caller's rate, the URL's shape and literal addresses); the workflow does the rest.
 */
/** Where a refused tier word is told (the service's logger): the job and a fixed reason, never the word. */
export interface WordLog {
  warn(fields: { job_id: string; reason: RefusedWord }, message: string): void;
}

export class ScrapeJobs {
  readonly #deps: ScraperDeps;
  readonly #log: WordLog | undefined;

  constructor(deps: ScraperDeps, log?: WordLog) {
    this.#deps = deps;
    this.#log = log;
  }

  /** Counts the caller's request; 429 with Retry-After past the per-minute rate. */
  async admit(callerId: string): Promise<RateHeaders | undefined> {
    // Fails closed: without Redis no scrape could be stored anyway, and none is started uncounted.
    const verdict = await orStoreUnavailable('The caller’s rate', () => this.#deps.callers.check(callerId));
    if (!verdict.allowed) {
      throw new VigilError(
        'rate_limited',
        `This caller may send ${this.#deps.callers.perMinute} scrape requests a minute.`,
        {
          headers: { 'retry-after': String(verdict.retryAfterS) },
          extensions: { scope: 'caller', retry_after_s: verdict.retryAfterS },
        },
      );
    }
    return { limit: this.#deps.callers.perMinute, remaining: verdict.remaining, reset: verdict.resetS };
  }

  /** Runs a scrape for `owner` (its sessions are its own: another caller's same session_id is another jar). */
  async scrape(request: ScrapeRequest, owner: string): Promise<ScrapeResponse> {
    this.#checkUrl(request.url);
    const startedAt = Date.now();
    const timeoutMs = Math.min(request.timeout_ms, this.#deps.timeoutMaxMs);
    const deadline = startedAt + timeoutMs;
    const jobId = `scrape:${randomUUID()}`;
    const input: ScrapeJobInput = {
      jobId,
      url: request.url,
      format: request.format,
      options: {
        onlyMainContent: request.only_main_content,
        includeLinks: request.include_links,
        ...(request.chunks === true
          ? { chunks: true as const }
          : request.chunks
            ? { chunks: { maxChars: request.chunks.max_chars, overlapChars: request.chunks.overlap_chars } }
            : {}),
      },
      screenshot: request.screenshot,
      deadline,
      startedAt,
      ...(request.wait_for ? { waitFor: request.wait_for } : {}),
      ...(request.session_id ? { sessionId: scopedSessionId(owner, request.session_id) } : {}),
    };
    let answer: { outcome: ScrapeOutcome; stored?: Content };
    // Listening before the start, so a tier quicker than the start's answer is still heard.
    const hearing = new AbortController();
    const heard = this.#deps.words.next(jobId, hearing.signal).then((payload) => {
      const read = parseOutcome(payload, jobId);
      if ('outcome' in read) return read.outcome;
      // Not an answer: the workflow's result is awaited. Said, so a tier that publishes words the
      // service cannot take (a field added on one side only, say) shows before anyone wonders
      // why every scrape waits for its run to close.
      this.#log?.warn(
        { job_id: jobId, reason: read.refused },
        "a tier's word was refused; awaiting the workflow's result",
      );
      return undefined;
    });
    try {
      const { client, connection } = this.#deps.temporal;
      const handle = await startWithin(connection, () =>
        client.workflow.start<typeof scrapePage>('scrapePage', {
          taskQueue: this.#deps.taskQueue,
          workflowId: jobId,
          args: [input],
          // A safety net only: the workflow ends itself at the deadline.
          workflowExecutionTimeout: timeoutMs + 60_000,
          typedSearchAttributes: [{ key: SearchAttr.JobKind, value: JobKind.pageScrape }],
          staticSummary: `Scrape of ${hostOf(request.url)}`,
        }),
      );
      try {
        const result = this.#deps.temporal.connection.withDeadline(deadline + RESULT_GRACE_MS, () =>
          this.#deps.temporal.connection.withAbortSignal(hearing.signal, () => handle.result()),
        );
        // The tier's word, when it got the page, else the workflow's own result. The result
        // poll left behind ends with the run a moment later.
        result.catch(() => undefined);
        const polled = result.then((outcome) => ({ outcome }));
        // A word whose page is gone from the store (expired, evicted) is no answer either; the
        // page read to know it is the one answered with.
        const usable = heard.then(async (early) => {
          if (!early?.page) return polled;
          // A store that cannot answer now leaves the answer to the workflow's result.
          const stored = await this.#deps.pages.content(early.page.contentKey).catch(() => undefined);
          return stored === undefined ? polled : { outcome: early, stored };
        });
        answer = await Promise.race([usable, polled]);
      } catch (error) {
        if (isDeadlinePassed(error, deadline + RESULT_GRACE_MS)) {
          void handle.cancel().catch(() => undefined);
          throw timeoutError(timeoutMs, [], jobId);
        }
        throw error;
      }
    } catch (error) {
      throw asEngineError(error);
    } finally {
      hearing.abort();
    }
    return this.#answer(request, answer, startedAt, timeoutMs, jobId);
  }

  async #answer(
    request: ScrapeRequest,
    { outcome, stored: read }: { outcome: ScrapeOutcome; stored?: Content },
    startedAt: number,
    timeoutMs: number,
    jobId: string,
  ): Promise<ScrapeResponse> {
    const attempts = outcome.attempts.map(publicAttempt);
    const extensions = { job_id: jobId, domain: outcome.domain, start_reason: outcome.startReason, attempts };
    switch (outcome.kind) {
      case 'ok': {
        const page = outcome.page;
        const stored = read ?? (page ? await this.#deps.pages.content(page.contentKey) : undefined);
        if (!page || stored === undefined || !outcome.tier)
          throw new Error('the scraped page is missing from the page store');
        const { content, links, chunks } = page.extras
          ? (stored as Converted)
          : { content: stored, links: undefined, chunks: undefined };
        const screenshot = page.screenshotKey
          ? await this.#deps.pages.screenshotBase64(page.screenshotKey)
          : undefined;
        const first = outcome.attempts[0];
        return {
          job_id: jobId,
          url: request.url,
          final_url: page.finalUrl,
          status: outcome.status ?? 200,
          format: request.format,
          content,
          elapsed_ms: Date.now() - startedAt,
          ...(screenshot ? { screenshot } : {}),
          ...(links ? { links } : {}),
          ...(chunks ? { chunks } : {}),
          tier: outcome.tier,
          start: { tier: first?.tier ?? outcome.tier, reason: outcome.startReason },
          attempts,
        };
      }
      case 'rate_limited': {
        const retryAfter = outcome.retryAfterS ?? 30;
        const targetSaid =
          outcome.attempts.some((attempt) => attempt.status === 429) || outcome.attempts.length === 0;
        throw new VigilError(
          'rate_limited',
          targetSaid
            ? `${outcome.domain} is rate limiting requests (${outcome.reason ?? '429'}); retry after ${retryAfter} s.`
            : `${outcome.domain} is over this service's politeness budget; retry after ${retryAfter} s.`,
          {
            headers: { 'retry-after': String(retryAfter) },
            extensions: { ...extensions, scope: targetSaid ? 'target' : 'domain', retry_after_s: retryAfter },
          },
        );
      }
      case 'blocked':
        throw new VigilError(
          'scrape_blocked',
          `${outcome.domain} blocked every tier of the escalation chain.`,
          { extensions },
        );
      case 'disallowed':
        throw new VigilError('scrape_blocked', `${outcome.reason ?? 'robots.txt disallows this URL'}.`, {
          extensions: { ...extensions, reason: 'robots_disallowed' },
        });
      case 'timeout':
        throw timeoutError(timeoutMs, attempts, jobId);
      case 'refused':
        throw new VigilError('url_not_allowed', `The URL is refused: ${stripPrefix(outcome.reason)}.`, {
          extensions,
        });
      case 'error':
        throw new VigilError('engine_unavailable', 'The scraper could not run its tiers; retry shortly.', {
          headers: { 'retry-after': '5' },
          extensions,
        });
      case 'failed':
        throw new VigilError(
          'scrape_failed',
          `The page could not be fetched: ${outcome.reason ?? 'unknown reason'}.`,
          {
            extensions: { ...extensions, reason: outcome.reason ?? null },
          },
        );
    }
  }

  #checkUrl(raw: string): void {
    try {
      const url = this.#deps.guard.checkUrl(raw);
      const host = bareHost(url.hostname);
      if (isIP(host)) this.#deps.guard.checkAddress(host);
    } catch (error) {
      if (error instanceof UrlRefusedError)
        throw new VigilError('url_not_allowed', `The URL is refused: ${error.message}.`, {
          extensions: { field: 'url' },
        });
      throw error;
    }
  }
}

/**
 * The session a caller's session_id names: its owner's scope and the id, so two callers that pick
 * the same session_id never read or plant each other's cookies.
 */
function scopedSessionId(owner: string, sessionId: string): string {
  return `${createHash('sha256').update(owner).digest('hex').slice(0, 24)}:${sessionId}`;
}

function publicAttempt(attempt: TierAttempt): Attempt {
  return {
    tier: attempt.tier,
    outcome: attempt.outcome,
    status: attempt.status,
    reason: attempt.reason,
    elapsed_ms: attempt.elapsed_ms,
    ...(attempt.retry_after_s !== undefined ? { retry_after_s: attempt.retry_after_s } : {}),
  };
}

function timeoutError(timeoutMs: number, attempts: Attempt[], jobId: string): VigilError {
  return new VigilError('scrape_timeout', `No tier got the page within timeout_ms (${timeoutMs} ms).`, {
    extensions: { job_id: jobId, timeout_ms: timeoutMs, attempts },
  });
}

function asEngineError(error: unknown): unknown {
  if (error instanceof VigilError) return error;
  if (isGrpcServiceError(error) || isGrpcDeadlineError(error)) {
    return new VigilError('engine_unavailable', 'The workflow engine did not answer.', {
      headers: { 'retry-after': '5' },
      cause: error,
    });
  }
  if (error instanceof WorkflowFailedError) {
    return new VigilError('engine_unavailable', 'The scrape job failed unexpectedly; retry shortly.', {
      headers: { 'retry-after': '5' },
      cause: error,
    });
  }
  return error;
}

function stripPrefix(reason: string | undefined): string {
  return (reason ?? 'the address is not allowed').replace(/^refused: /, '');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}
