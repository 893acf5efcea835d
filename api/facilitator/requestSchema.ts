import { parsePaymentPayload, parsePaymentRequirements } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactEvmPayload, type Eip3009Authorization } from '../../core/x402/proof.ts';
import { PaymentReason } from '../../core/x402/reasons.ts';

export interface FacilitatorRequest {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  authorization: Eip3009Authorization;
}

export type ParsedRequest =
  | { ok: true; request: FacilitatorRequest }
  | { ok: false; reason: PaymentReason; message: string; network: string };

/** The body of POST /verify and /settle, checked with the official schemas, then the exact EVM payload. */
export function parseFacilitatorRequest(body: unknown): ParsedRequest {
  const value = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const requirements = parsePaymentRequirements(value.paymentRequirements);
  const network =
    requirements.success && typeof requirements.data.network === 'string' ? requirements.data.network : '';
  if (value.x402Version !== 2) {
    return { ok: false, reason: PaymentReason.invalidVersion, message: 'x402Version must be 2.', network };
  }
  if (!requirements.success || !('amount' in requirements.data)) {
    return {
      ok: false,
      reason: PaymentReason.invalidRequirements,
      message: 'paymentRequirements is not an x402 v2 PaymentRequirements object.',
      network,
    };
  }
  const payload = parsePaymentPayload(value.paymentPayload);
  if (!payload.success || payload.data.x402Version !== 2) {
    return {
      ok: false,
      reason: PaymentReason.invalidPayload,
      message: 'paymentPayload is not an x402 v2 PaymentPayload.',
      network,
    };
  }
  const exact = ExactEvmPayload.safeParse(payload.data.payload);
  if (!exact.success) {
    return {
      ok: false,
      reason: PaymentReason.invalidPayload,
      message: 'The payload carries no EIP-3009 authorization.',
      network,
    };
  }
  return {
    ok: true,
    request: {
      payload: payload.data as PaymentPayload,
      requirements: requirements.data as PaymentRequirements,
      authorization: exact.data.authorization,
    },
  };
}
