/**
 * Every machine reason Vigil answers with, in one registry: stable snake_case, never reused.
 * A problem reason reaches an HTTP caller as a problem document's `code` (codes.ts gives each its
 * status, title and page); a job reason says why a job that ran did not complete (`error.reason`).
 * Some are both: a scan refused by the chain (`address_not_contract`) fails its job with that
 * reason, and the API answers the request with the same problem. Code names a reason by its
 * constant here, never by a string of its own.
 */
export const Reason = {
  // Requests that cannot be read or are not valid.
  badRequest: 'bad_request',
  validationFailed: 'validation_failed',
  invalidAddress: 'invalid_address',
  addressNotContract: 'address_not_contract',
  capabilityNotSupported: 'capability_not_supported',
  chainUnavailable: 'chain_unavailable',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  // Routing.
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  // Callers, limits and payments.
  unauthorized: 'unauthorized',
  paymentRequired: 'payment_required',
  unknownTool: 'unknown_tool',
  receiptNotFound: 'receipt_not_found',
  paymentInProgress: 'payment_in_progress',
  refundNotAllowed: 'refund_not_allowed',
  invoiceNotFound: 'invoice_not_found',
  invoiceNotPayable: 'invoice_not_payable',
  rateLimited: 'rate_limited',
  toolFailed: 'tool_failed',
  facilitatorUnavailable: 'facilitator_unavailable',
  paymentsNotConfigured: 'payments_not_configured',
  refundFailed: 'refund_failed',
  rateLimitUnavailable: 'rate_limit_unavailable',
  walletProofInvalid: 'wallet_proof_invalid',
  trialUnavailable: 'trial_unavailable',
  storeUnavailable: 'store_unavailable',
  // Jobs.
  jobNotFound: 'job_not_found',
  jobNotRunning: 'job_not_running',
  jobNotOwned: 'job_not_owned',
  reportNotReady: 'report_not_ready',
  // The scraper.
  urlNotAllowed: 'url_not_allowed',
  scrapeBlocked: 'scrape_blocked',
  scrapeFailed: 'scrape_failed',
  scrapeTimeout: 'scrape_timeout',
  // Retrieval.
  emptyDocument: 'empty_document',
  indexUnavailable: 'index_unavailable',
  // The service and what it depends on.
  internalError: 'internal_error',
  streamExpired: 'stream_expired',
  notReady: 'not_ready',
  chainUnreachable: 'chain_unreachable',
  engineUnavailable: 'engine_unavailable',
  // Chain data and analytics SQL.
  sqlRejected: 'sql_rejected',
  queryFailed: 'query_failed',
  analyticsUnavailable: 'analytics_unavailable',
  // Why a job that ran did not complete (never an HTTP problem of their own).
  engineError: 'engine_error',
  allEnginesFailed: 'all_engines_failed',
  cancelled: 'cancelled',
  terminated: 'terminated',
  timedOut: 'timed_out',
  failed: 'failed',
  fetchFailed: 'fetch_failed',
  bodyExpired: 'body_expired',
  scraperRefused: 'scraper_refused',
  reportSectionUnavailable: 'report_section_unavailable',
  narrativeModelFailed: 'narrative_model_failed',
  reportScanFailed: 'report_scan_failed',
} as const;
export type Reason = (typeof Reason)[keyof typeof Reason];

/** Reasons only a job fails with; every other reason is also a problem with an HTTP status. */
export const JOB_ONLY_REASONS = [
  Reason.engineError,
  Reason.allEnginesFailed,
  Reason.cancelled,
  Reason.terminated,
  Reason.timedOut,
  Reason.failed,
  Reason.fetchFailed,
  Reason.bodyExpired,
  Reason.scraperRefused,
  Reason.reportSectionUnavailable,
  Reason.narrativeModelFailed,
  Reason.reportScanFailed,
] as const;
type JobOnlyReason = (typeof JOB_ONLY_REASONS)[number];

/** A reason an HTTP caller can receive as a problem document's `code`. */
export type ProblemCode = Exclude<Reason, JobOnlyReason>;
