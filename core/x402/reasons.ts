/**
 * Machine reasons a payment is refused with. Where the official @x402/evm facilitator has a code
 * for the condition, it is the same string, so clients match one vocabulary; the rest are Vigil's
 * additions for checks the SDK does not make.
 */
export const PaymentReason = {
  invalidPayload: 'invalid_payload',
  invalidRequirements: 'invalid_payment_requirements',
  invalidVersion: 'invalid_x402_version',
  unsupportedScheme: 'unsupported_scheme',
  invalidNetwork: 'invalid_network',
  unsupportedAsset: 'unsupported_asset',
  assetMismatch: 'invalid_exact_evm_asset_mismatch',
  recipientMismatch: 'invalid_exact_evm_recipient_mismatch',
  valueMismatch: 'invalid_exact_evm_payload_authorization_value_mismatch',
  networkMismatch: 'invalid_exact_evm_network_mismatch',
  validBefore: 'invalid_exact_evm_payload_authorization_valid_before',
  validityTooLong: 'invalid_exact_evm_authorization_window_too_long',
  nonceUsed: 'invalid_exact_evm_nonce_already_used',
  insufficientBalance: 'invalid_exact_evm_insufficient_balance',
  amountAboveLimit: 'amount_above_limit',
  /** Below the smallest price: nothing Vigil sells costs less, so it is no payment of ours. */
  amountBelowMinimum: 'amount_below_minimum',
  /** The payment goes to an address that is not one of this deployment's payees. */
  recipientNotAccepted: 'recipient_not_accepted',
  /** The requirements' EIP-712 domain (extra.name, extra.version) is not the asset's own. */
  domainMismatch: 'invalid_exact_evm_eip712_domain_mismatch',
  /** A refund that does not send a settled payment back to its payer, once. */
  refundNotAllowed: 'refund_not_allowed',
  settlementPending: 'settlement_pending',
  unexpectedVerify: 'unexpected_verify_error',
  unexpectedSettle: 'unexpected_settle_error',
  /** The proof already paid for another request. */
  proofUsedElsewhere: 'payment_already_used',
  missingPayment: 'payment_required',
} as const;
export type PaymentReason = (typeof PaymentReason)[keyof typeof PaymentReason];

/** Outcomes that are final for an authorization: retrying the same one can never succeed. */
export const TERMINAL_SETTLE_REASONS: readonly string[] = [
  PaymentReason.invalidPayload,
  PaymentReason.invalidRequirements,
  PaymentReason.invalidVersion,
  PaymentReason.unsupportedScheme,
  PaymentReason.invalidNetwork,
  PaymentReason.unsupportedAsset,
  PaymentReason.assetMismatch,
  PaymentReason.recipientMismatch,
  PaymentReason.valueMismatch,
  PaymentReason.networkMismatch,
  PaymentReason.validBefore,
  PaymentReason.validityTooLong,
  PaymentReason.nonceUsed,
  PaymentReason.amountAboveLimit,
  PaymentReason.amountBelowMinimum,
  PaymentReason.recipientNotAccepted,
  PaymentReason.domainMismatch,
  PaymentReason.refundNotAllowed,
  'invalid_exact_evm_signature',
  'invalid_exact_evm_payload_signature',
  'invalid_exact_evm_payload_authorization_valid_after',
  'invalid_exact_evm_missing_eip712_domain',
  'invalid_exact_evm_scheme',
  'invalid_exact_evm_failed_to_parse_signature',
  // Solana (@x402/svm): what the signed transaction is can never change by retrying it.
  ...[
    'network_mismatch',
    'unsupported_scheme',
    'payload_missing_fee_payer',
    'fee_payer_not_managed_by_facilitator',
    'fee_payer_mismatch',
    'payload_transaction',
    'payload_transaction_could_not_be_decoded',
    'payload_signature_invalid',
    'payload_excessive_signers',
    'payload_transaction_instructions_length',
    'payload_transaction_instructions_compute_limit_instruction',
    'payload_transaction_instructions_compute_limit_instruction_too_high',
    'payload_transaction_instructions_compute_price_instruction',
    'payload_transaction_instructions_compute_price_instruction_too_high',
    'payload_unknown_fourth_instruction',
    'payload_unknown_fifth_instruction',
    'payload_unknown_sixth_instruction',
    'payload_unknown_seventh_instruction',
    'payload_unknown_optional_instruction',
    'payload_no_transfer_instruction',
    'payload_transaction_fee_payer_transferring_funds',
    'payload_mint_mismatch',
    'payload_recipient_mismatch',
    'payload_amount_mismatch',
    'payload_memo_mismatch',
    'payload_memo_count',
  ].map((reason) => `invalid_exact_svm_${reason}`),
];

/**
 * A Solana payment whose simulation fails (the payer lacks the tokens, the blockhash expired) is
 * final for the settlement in hand, like an EVM payer without the balance, but not stored as the
 * transaction's answer.
 */
export const SVM_SIMULATION_FAILED = 'invalid_exact_svm_transaction_simulation_failed';

/**
 * How a settlement through the facilitator is retried (payments and refunds alike): backing off up
 * to 30 s for as long as the authorization can still be settled (a slow confirmation answers
 * settlement_pending and is reconciled by the facilitator on the next attempt); a refusal, or a
 * payer without the funds, is final at once.
 */
export const SETTLE_RETRY = {
  initialInterval: '500ms',
  backoffCoefficient: 2,
  maximumInterval: '30s',
  maximumAttempts: 60,
  nonRetryableErrorTypes: [
    ...TERMINAL_SETTLE_REASONS,
    PaymentReason.insufficientBalance,
    SVM_SIMULATION_FAILED,
  ],
};
