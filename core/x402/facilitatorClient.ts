import { HTTPFacilitatorClient } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import type { SignedRefund } from './refund.ts';

export interface FacilitatorAccess {
  url: string;
  /** This caller's token of the facilitator's FACILITATOR_CALLERS; unset = anonymous (refused). */
  token?: string | undefined;
}

/** The official facilitator client, sending this caller's token on every request. */
export function facilitatorClient(access: FacilitatorAccess, timeoutMs: number): HTTPFacilitatorClient {
  const headers = access.token ? { authorization: `Bearer ${access.token}` } : {};
  return new HTTPFacilitatorClient({
    url: access.url,
    timeoutMs,
    createAuthHeaders: () => Promise.resolve({ verify: headers, settle: headers, supported: headers }),
  });
}

/**
 * Sends a signed refund to the facilitator's /refund (the official client knows no refunds).
 * Answers the facilitator's SettleResponse, or throws when it gave none.
 */
export async function settleRefund(
  access: FacilitatorAccess,
  refund: SignedRefund,
  timeoutMs: number,
): Promise<SettleResponse> {
  const response = await fetch(`${access.url.replace(/\/+$/, '')}/refund`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(access.token ? { authorization: `Bearer ${access.token}` } : {}),
    },
    body: JSON.stringify({
      x402Version: 2,
      paymentPayload: refund.paymentPayload,
      paymentRequirements: refund.requirements,
      refundOf: refund.refundOf,
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json().catch(() => undefined)) as SettleResponse | undefined;
  if (!body || typeof body.success !== 'boolean')
    throw new Error(`the facilitator answered ${response.status} without a settlement`);
  return body;
}
