import type { ProblemCode } from './reasons.ts';

/**
 * How the HTTP edge answers each problem reason of the registry (reasons.ts): its status, a title
 * and what it means. The problem `type` is `<public url>/errors/<code>`, and GET /errors/<code>
 * serves this entry, so a type URL always resolves to its documentation. The compiler holds this
 * table and the registry together: a reason without an entry, or an entry without a reason, fails.
 */
export const ErrorCodes = {
  bad_request: {
    status: 400,
    title: 'Bad request',
    description:
      'The request could not be read: malformed JSON, a bad path or query parameter, or a missing body.',
  },
  validation_failed: {
    status: 422,
    title: 'Validation failed',
    description:
      'The body was read but a field is invalid. `errors` names every failing field with `loc`, `msg` and `type`.',
  },
  invalid_address: {
    status: 422,
    title: 'Invalid address',
    description: 'The address is not a valid address for the chain it was sent for.',
  },
  address_not_contract: {
    status: 422,
    title: 'Address has no contract code',
    description:
      'A token scan needs a contract; the scan found no code at the address at the block it pinned (on Solana: the ' +
      'account is not a mint). `job_id` names the refused job.',
  },
  capability_not_supported: {
    status: 422,
    title: 'Not supported on this chain',
    description:
      'The tool does not apply to this chain (for example a token risk scan on Bitcoin). No result is made up.',
  },
  chain_unavailable: {
    status: 422,
    title: 'Chain not configured',
    description: 'The chain is known but this deployment has no RPC endpoint configured for it.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    description:
      'The X-API-Key is not one this deployment knows, or a route needs a caller identity (an API key). The ' +
      'facilitator answers it to /verify, /settle and /refund without a caller token.',
  },
  wallet_proof_invalid: {
    status: 401,
    title: 'Wallet proof invalid',
    description:
      'The signed sign-in message (EIP-4361) or the X-Wallet-Proof token was refused; `reason` says why: ' +
      '`malformed`, `wrong_domain`, `bad_signature`, `nonce_unknown` (never issued, expired or already used), ' +
      '`expired`, `not_yet_valid`, or `token_unknown` (the proof token expired or was revoked). Sign a new message.',
  },
  trial_unavailable: {
    status: 402,
    title: 'Trial unavailable',
    description:
      'Anonymous use of this route is trial-gated and no free call is left: send X-Client-ID (or X-Wallet-Proof) ' +
      'while the rolling window has calls (`reason`: `no_client_id` or `exhausted`, with `trial_resets_at`), or ' +
      'an X-API-Key. `pay_at` names the paid tool that answers the same question per call with x402.',
  },
  job_not_owned: {
    status: 403,
    title: 'Not your job',
    description:
      'Only a caller that started or joined a job (the same API key, or the same network fingerprint) or an ' +
      'operator key may cancel it; anonymous callers read only the jobs they started or joined.',
  },
  payment_required: {
    status: 402,
    title: 'Payment required',
    description:
      'No free trial is left and no valid x402 payment came with the call. The body is also an x402 v2 PaymentRequired ' +
      '(`x402Version`, `accepts`, `error`); the same document is base64 in the PAYMENT-REQUIRED header.',
  },
  unknown_tool: { status: 404, title: 'Unknown tool', description: 'No tool in the catalog has this name.' },
  receipt_not_found: {
    status: 404,
    title: 'Receipt not found',
    description: 'No payment, receipt or invoice has this id or transaction hash.',
  },
  payment_in_progress: {
    status: 409,
    title: 'Payment in progress',
    description:
      'A request with the same payment proof is still running; retry after Retry-After for its answer. Nothing is charged twice.',
  },
  refund_not_allowed: {
    status: 409,
    title: 'Refund not allowed',
    description:
      'Only a settled payment for an empty result is refundable, once, within 48 hours of settlement.',
  },
  invoice_not_found: {
    status: 404,
    title: 'Invoice not found',
    description: 'No invoice has this id.',
  },
  invoice_not_payable: {
    status: 409,
    title: 'Invoice not payable',
    description:
      'The invoice cannot take this payment: it expired, was paid (or is being paid) with another authorization, was ' +
      'refunded, or is a sandbox invoice (verify those, never pay them). `state` says which.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    description:
      'Too many requests for the caller’s tier in the current window; retry after Retry-After seconds. x402-paid calls are not capped. The scraper also answers it when a target domain is over its politeness budget or the target itself kept answering 429 (`scope`: caller, domain or target).',
  },
  tool_failed: {
    status: 503,
    title: 'Tool failed',
    description:
      'The tool could not produce an answer (its scan failed or did not finish in time). Nothing was charged.',
  },
  facilitator_unavailable: {
    status: 503,
    title: 'Facilitator unavailable',
    description:
      'The payment facilitator could not be reached, so no quote or payment could be made. Nothing was charged.',
  },
  payments_not_configured: {
    status: 503,
    title: 'Payments not configured',
    description:
      'This deployment takes no payments (no asset or recipient configured); free trials still work.',
  },
  refund_failed: {
    status: 503,
    title: 'Refund failed',
    description:
      'The refund could not be sent (`reason` says why, e.g. no refund signer is configured, or the payee lacks the ' +
      'funds). Nothing moved; it can be requested again within the window.',
  },
  rate_limit_unavailable: {
    status: 503,
    title: 'Rate limiting unavailable',
    description: 'Redis could not count the request and rate limits are configured to fail closed.',
  },
  store_unavailable: {
    status: 503,
    title: 'Store unavailable',
    description:
      'A store this answer depends on (Redis) did not answer, so nothing was served for free and nothing was ' +
      'charged; retry after the Retry-After delay.',
  },
  sql_rejected: {
    status: 400,
    title: 'SQL rejected',
    description:
      'analytics_query runs exactly one read-only SELECT (or WITH ... SELECT) over Vigil’s views; `reason` says what was refused: ' +
      'another statement kind, several statements, a table that is not a view, a file or URL table function, a settings function.',
  },
  query_failed: {
    status: 422,
    title: 'Query failed',
    description:
      'The query was allowed but did not answer: `reason` is timeout (cancelled at the time limit), memory (past the memory limit, or its process past its memory bound), ' +
      'too_large (the answer exceeds the size limit) or error (DuckDB refused it, e.g. an unknown column).',
  },
  analytics_unavailable: {
    status: 503,
    title: 'Analytics unavailable',
    description:
      'The analytics engine is busy (every query slot taken) or could not be opened; retry after Retry-After.',
  },
  not_found: { status: 404, title: 'Not found', description: 'No route answers this path.' },
  job_not_found: {
    status: 404,
    title: 'Job not found',
    description: 'No job has this id (or it is past retention).',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not for this HTTP method; the Allow header lists the methods it takes.',
  },
  report_not_ready: {
    status: 409,
    title: 'Report not ready',
    description:
      'The report is still being written, so it has no file to download yet. `events_url` streams its progress; ' +
      'retry after it completes.',
  },
  job_not_running: {
    status: 409,
    title: 'Job is not running',
    description: 'The job has already finished, so it cannot be cancelled.',
  },
  url_not_allowed: {
    status: 422,
    title: 'URL not allowed',
    description:
      'The scraper refuses the URL, or an address it or one of its redirects resolves to: only http(s) to public addresses (no loopback, private, link-local, CGNAT or cloud-metadata addresses, IPv4-mapped IPv6 included).',
  },
  scrape_blocked: {
    status: 451,
    title: 'Blocked by the target',
    description:
      'Every tier of the escalation chain was blocked (or robots.txt disallows the URL, when respected); `attempts` lists each tier with its outcome and reason.',
  },
  scrape_failed: {
    status: 502,
    title: 'Page could not be fetched',
    description:
      'The target could not be fetched within the scraper’s limits: its name does not resolve, it refuses connections, its TLS is invalid, it redirects too often or its body is too large. No tier can help.',
  },
  scrape_timeout: {
    status: 504,
    title: 'Scrape timed out',
    description:
      'No tier got the page within the request’s timeout_ms; `attempts` lists what each tier came to.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    description:
      'The request body exceeds the limit: 64 KiB for JSON requests, RETRIEVAL_MAX_DOCUMENT_BYTES for a document sent to ingest.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description:
      'Send JSON bodies with Content-Type: application/json; ingest also takes text/plain, text/markdown and text/html.',
  },
  empty_document: {
    status: 422,
    title: 'Empty document',
    description: 'The document has no text to index (empty, or only whitespace and markup).',
  },
  index_unavailable: {
    status: 503,
    title: 'Index unavailable',
    description:
      'The vector store or the embedding model could not answer; `/healthz` says which. Retry after the Retry-After delay.',
  },
  stream_expired: {
    status: 408,
    title: 'Stream expired',
    description:
      "A report's event stream stayed open as long as it may (REPORT_EVENTS_MAX_SECONDS) and ended with an `error` " +
      'event of this reason; the report goes on. Reconnect to follow it (EventSource does so by itself).',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description:
      'An unexpected error. Nothing internal is disclosed; quote the X-Request-ID when reporting it.',
  },
  not_ready: {
    status: 503,
    title: 'Not ready',
    description: 'A critical store (Redis or MongoDB) does not answer; `checks` lists each probe.',
  },
  chain_unreachable: {
    status: 503,
    title: 'Chain unreachable',
    description:
      "None of the chain's configured RPC providers answered; X-Degraded-Stores names them. Retry after the Retry-After delay.",
  },
  engine_unavailable: {
    status: 503,
    title: 'Job engine unavailable',
    description:
      'The workflow engine could not be reached to start or read the job. Retry after the Retry-After delay.',
  },
} as const satisfies Record<ProblemCode, { status: number; title: string; description: string }>;

export type ErrorCode = ProblemCode;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ErrorCodes, value);
}
