import { createHash } from 'node:crypto';
import { canonicalJson } from './canonicalJson.ts';

/**
 * What a stored payment outcome is bound to: the whole signed payload (for EIP-3009 the
 * authorization's to, value, validAfter, validBefore, nonce and the signature; for Solana the
 * signed transaction) and the requirements it was presented against. Two payloads that share a
 * nonce but differ anywhere else have different digests, so one can never be answered with the
 * other's settlement.
 */
export function paymentDigest(paymentPayload: unknown, requirements: unknown): string {
  return createHash('sha256').update(canonicalJson({ paymentPayload, requirements })).digest('hex');
}

/**
 * Payment ids are derived from the payload's digest, so the same proof always names the same
 * payment, and two payloads sharing a nonce never do.
 */
export function paymentIdOf(digest: string): string {
  return `pay_${createHash('sha256').update(digest).digest('hex').slice(0, 32)}`;
}
