import { decodePaymentSignatureHeader } from '@x402/core/http';
import { parsePaymentPayload } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import { z } from 'zod';
import { PaymentReason } from './reasons.ts';
import { decodeSvmTransaction, isSolanaNetwork } from './svmProof.ts';

const Hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const AddressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Uint = z.string().regex(/^\d{1,78}$/);

/** The EIP-3009 authorization inside an `exact` EVM payment payload. */
export const Eip3009Authorization = z.object({
  from: AddressString,
  to: AddressString,
  value: Uint,
  validAfter: Uint,
  validBefore: Uint,
  nonce: Hex32,
});
export type Eip3009Authorization = z.infer<typeof Eip3009Authorization>;

export const ExactEvmPayload = z.object({
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
  authorization: Eip3009Authorization,
});

/** An EVM exact proof: an EIP-3009 authorization. */
export interface DecodedProof {
  family: 'evm';
  payload: PaymentPayload;
  authorization: Eip3009Authorization;
  payer: string;
}

/** A Solana exact proof: a transfer transaction the payer signed, the facilitator to pay its fees. */
interface SvmProof {
  family: 'svm';
  payload: PaymentPayload;
  payer: string;
  /** Hash of the transaction's message: one per signed payment (see svmProof.ts). */
  messageHash: string;
}

export type AnyProof = DecodedProof | SvmProof;

const ExactSvmPayload = z.object({ transaction: z.string().min(1).max(8_192) });

export class PaymentProofError extends Error {
  override readonly name = 'PaymentProofError';
  readonly reason: PaymentReason;
  constructor(reason: PaymentReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Reads the proof a client sent: X-PAYMENT (the name the API specification gives it) or
 * PAYMENT-SIGNATURE (x402 v2's), base64 JSON checked with the official schema, then the exact
 * EVM authorization inside it. Throws PaymentProofError with the reason to answer.
 */
export function readPaymentProof(headers: ProofHeaders): DecodedProof | undefined {
  const raw = rawProof(headers);
  return raw === undefined ? undefined : decodePaymentProof(raw);
}

interface ProofHeaders {
  'x-payment'?: string | string[] | undefined;
  'payment-signature'?: string | string[] | undefined;
}

function rawProof(headers: ProofHeaders): string | undefined {
  const raw = first(headers['payment-signature']) ?? first(headers['x-payment']);
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

/** Like readPaymentProof, and a Solana exact transaction is a proof too (the tool gateway takes both). */
export function readAnyPaymentProof(headers: ProofHeaders): AnyProof | undefined {
  const raw = rawProof(headers);
  return raw === undefined ? undefined : proofOfPayload(decodePayload(raw));
}

/** The proof a decoded payment payload carries (EVM or Solana); throws PaymentProofError when none. */
export function proofOfPayload(payload: PaymentPayload): AnyProof {
  if (!isSolanaNetwork(payload.accepted.network)) return decodedEvm(payload);
  const exact = ExactSvmPayload.safeParse(payload.payload);
  let decoded: { messageHash: string; payer: string } | undefined;
  try {
    decoded = exact.success ? decodeSvmTransaction(exact.data.transaction) : undefined;
  } catch {
    decoded = undefined;
  }
  if (!decoded)
    throw new PaymentProofError(
      PaymentReason.invalidPayload,
      'The payment payload carries no Solana transfer transaction (exact scheme on Solana).',
    );
  return { family: 'svm', payload, payer: decoded.payer, messageHash: decoded.messageHash };
}

export function decodePaymentProof(raw: string): DecodedProof {
  return decodedEvm(decodePayload(raw));
}

function decodePayload(raw: string): PaymentPayload {
  if (raw.length > 16_384)
    throw new PaymentProofError(PaymentReason.invalidPayload, 'The payment proof is too large.');
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(raw);
  } catch {
    throw new PaymentProofError(
      PaymentReason.invalidPayload,
      'The payment proof is not base64-encoded JSON.',
    );
  }
  const parsed = parsePaymentPayload(decoded);
  if (!parsed.success) {
    throw new PaymentProofError(
      PaymentReason.invalidPayload,
      'The payment proof is not an x402 payment payload.',
    );
  }
  const payload = parsed.data;
  if (payload.x402Version !== 2) {
    throw new PaymentProofError(
      PaymentReason.invalidVersion,
      'Only x402 version 2 payment payloads are accepted.',
    );
  }
  return payload as PaymentPayload;
}

function decodedEvm(payload: PaymentPayload): DecodedProof {
  const exact = ExactEvmPayload.safeParse(payload.payload);
  if (!exact.success) {
    throw new PaymentProofError(
      PaymentReason.invalidPayload,
      'The payment payload carries no EIP-3009 authorization (exact scheme on EVM).',
    );
  }
  return {
    family: 'evm',
    payload,
    authorization: exact.data.authorization,
    payer: exact.data.authorization.from,
  };
}

/** One key per authorization: the chain rejects a second use of (token, from, nonce) anyway. */
export function authorizationKey(network: string, asset: string, from: string, nonce: string): string {
  return `${network}:${asset.toLowerCase()}:${from.toLowerCase()}:${nonce.toLowerCase()}`;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
