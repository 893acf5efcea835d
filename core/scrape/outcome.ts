import type { Tier } from './tiers.ts';

/** `raw`: the body as the target sent it (a feed, a sitemap, any XML or text a machine reads). */
export const ScrapeFormat = {
  markdown: 'markdown',
  html: 'html',
  json: 'json',
  text: 'text',
  raw: 'raw',
} as const;
export type ScrapeFormat = (typeof ScrapeFormat)[keyof typeof ScrapeFormat];
export const SCRAPE_FORMATS = Object.values(ScrapeFormat) as [ScrapeFormat, ...ScrapeFormat[]];

/** What one tier's attempt came to; stable snake_case, shown in `attempts[].outcome`. */
export const AttemptOutcome = {
  ok: 'ok',
  /** A block page, challenge or captcha, or a WAF status (403/503 with HTML). */
  blocked: 'blocked',
  /** A 2xx that is empty or a script-only shell: a rendering problem, not a block. */
  needsJs: 'needs_js',
  /** The target answered 429, or the domain is over Vigil's own politeness budget. */
  rateLimited: 'rate_limited',
  /** wait_for never appeared within the tier's budget. */
  selectorMissing: 'selector_missing',
  timeout: 'timeout',
  /** The URL or a redirect resolves to an address the guard refuses: terminal. */
  refused: 'refused',
  /** DNS failure, connection refused, TLS error, too many redirects, oversize body: terminal. */
  failed: 'failed',
  /** robots.txt disallows the path (only when robots are respected): terminal. */
  disallowed: 'disallowed',
  /** The tier itself broke (a browser crash, an unexpected error): the next tier may still work. */
  error: 'error',
} as const;
export type AttemptOutcome = (typeof AttemptOutcome)[keyof typeof AttemptOutcome];

/** Where a stored page lives (Redis, with a TTL): page bodies never enter workflow history. */
export interface PageRef {
  contentKey: string;
  screenshotKey?: string;
  finalUrl: string;
  contentType: string;
  /** Size of the converted content in bytes. */
  bytes: number;
  /** The stored value is a `{ content, links?, chunks? }` envelope, not the bare content. */
  extras?: boolean;
}

export interface TierAttempt {
  tier: Tier;
  outcome: AttemptOutcome;
  /** The target's HTTP status, when it answered. */
  status: number | null;
  /** Why, in a few words a person can read (never a page body). */
  reason: string;
  elapsed_ms: number;
  /** Seconds to wait, from the target's Retry-After or the domain's politeness budget. */
  retry_after_s?: number;
  /** Set when outcome is ok. */
  page?: PageRef;
}

/** A link of the scraped content (include_links). */
export interface PageLink {
  text: string;
  href: string;
}

/** How the page is converted, beyond its format (the LLM options of a scrape request). */
export interface ConvertOptions {
  /** false: the whole page instead of its main content. */
  onlyMainContent: boolean;
  /** Add the content's links as a list. */
  includeLinks: boolean;
  /** Add heading-aware chunks of the content (true: default sizes). */
  chunks?: true | { maxChars?: number; overlapChars?: number };
}

export interface ScrapeJobInput {
  jobId: string;
  url: string;
  format: ScrapeFormat;
  /** Absent in jobs started before the options existed: the defaults apply. */
  options?: ConvertOptions;
  waitFor?: string;
  screenshot: boolean;
  sessionId?: string;
  /** Epoch ms: the whole chain ends by then (timeout_ms from the request's arrival). */
  deadline: number;
  /** Epoch ms the request arrived, for elapsed_ms. */
  startedAt: number;
}

export interface ScrapePlan {
  domain: string;
  /** Tiers to walk in order (the first is the start tier). */
  tiers: Tier[];
  /** Why the chain starts where it does: default, learned, recheck, decayed, forced_browser. */
  startReason: string;
  /** Set when the plan already decided the outcome (refused URL, robots, domain cooling down). */
  stop?: { kind: ScrapeOutcomeKind; reason: string; retryAfterS?: number };
}

export const ScrapeOutcomeKind = {
  ok: 'ok',
  blocked: 'blocked',
  rateLimited: 'rate_limited',
  timeout: 'timeout',
  refused: 'refused',
  failed: 'failed',
  disallowed: 'disallowed',
  /** Every tier broke (a store or the browser is down): nothing was learned about the target. */
  error: 'error',
} as const;
export type ScrapeOutcomeKind = (typeof ScrapeOutcomeKind)[keyof typeof ScrapeOutcomeKind];

/** The workflow's result: small, references only. */
export interface ScrapeOutcome {
  kind: ScrapeOutcomeKind;
  domain: string;
  startReason: string;
  attempts: TierAttempt[];
  /** The winning attempt's page (kind ok). */
  page?: PageRef;
  status?: number;
  tier?: Tier;
  retryAfterS?: number;
  reason?: string;
}
