/**
 * Address formats as documents state them (the OpenAPI schemas); the services still parse every
 * address with their chain library.
 */

/** An EVM address: 0x and 20 bytes in hex, any case (a checksum is not required). */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/**
 * A Solana public key: base58 that decodes to exactly 32 bytes. A pattern can only say the
 * alphabet and the length (32 to 44 characters); the byte count is the named format
 * `solana-address`, which the conformance run teaches schemathesis to generate
 * (test/conformance/hooks.py).
 */
export const SOLANA_ADDRESS_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
export const SOLANA_ADDRESS_FORMAT = 'solana-address';
