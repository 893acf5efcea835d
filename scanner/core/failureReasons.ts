/** Machine reasons a scan or an engine can fail with; stable snake_case, shown as `error.reason`. */
export const ScanFailureReason = {
  chainUnreachable: 'chain_unreachable',
  engineError: 'engine_error',
  allEnginesFailed: 'all_engines_failed',
} as const;
export type ScanFailureReason = (typeof ScanFailureReason)[keyof typeof ScanFailureReason];

/** Problem codes no retry can fix: activities raising them are not retried. */
export const NON_RETRYABLE_SCAN_ERRORS = [
  'address_not_contract',
  'invalid_address',
  'chain_unavailable',
  'capability_not_supported',
  'validation_failed',
];
