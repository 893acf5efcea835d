import { parsePaymentPayload, parsePaymentRequirements } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { authorizationKey, ExactEvmPayload, type Eip3009Authorization } from '../../core/x402/proof.ts';
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

/** The EIP-3009 authorization a request carries: token, payer and nonce (the chain lets it pay once). */
export function authorizationKeyOf({ requirements, authorization }: FacilitatorRequest): string {
  return authorizationKey(requirements.network, requirements.asset, authorization.from, authorization.nonce);
}

/** A settle answer that moved nothing, with the reason. */
export function failureOf({ requirements, authorization }: FacilitatorRequest) {
  return (reason: string, message?: string): SettleResponse => ({
    success: false,
    errorReason: reason,
    ...(message ? { errorMessage: message } : {}),
    transaction: '',
    network: requirements.network,
    payer: authorization.from,
  });
}
