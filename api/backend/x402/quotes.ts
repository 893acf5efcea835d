import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentRequirements, ResourceInfo } from '@x402/core/types';
import { VigilError } from '../../../core/errors/vigilError.ts';

/**
 * The 402 problem: a problem document that is also an x402 v2 PaymentRequired (`x402Version`,
 * `resource`, `accepts`, `error` = the machine reason), the same document base64 in
 * PAYMENT-REQUIRED, and never cached.
 */
export async function paymentRequiredProblem(
  resourceServer: x402ResourceServer,
  parameters: {
    /** One option, or every option the call can be paid with (EVM, Solana). */
    requirements: PaymentRequirements | PaymentRequirements[];
    resource: ResourceInfo;
    reason: string;
    detail: string;
    extensions?: Record<string, unknown>;
  },
): Promise<VigilError> {
  const required = await resourceServer.createPaymentRequiredResponse(
    Array.isArray(parameters.requirements) ? parameters.requirements : [parameters.requirements],
    parameters.resource,
    parameters.reason,
  );
  return new VigilError('payment_required', parameters.detail, {
    extensions: { ...parameters.extensions, ...required, reason: parameters.reason },
    headers: { 'payment-required': encodePaymentRequiredHeader(required), 'cache-control': 'no-store' },
  });
}
