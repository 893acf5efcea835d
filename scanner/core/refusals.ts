import { Reason } from '../../core/errors/reasons.ts';

/**
 * Reasons a scan refuses its target with: no retry can change them, so the activities raising
 * them are not retried, and the API answers a job failing with one as that problem (a 422).
 */
export const SCAN_REFUSALS: readonly string[] = [
  Reason.addressNotContract,
  Reason.invalidAddress,
  Reason.chainUnavailable,
  Reason.capabilityNotSupported,
  Reason.validationFailed,
];
