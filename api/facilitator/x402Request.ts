import { z } from 'zod';
import { ExactEvmPayload } from '../../core/x402/proof.ts';
import { PaymentReason } from '../../core/x402/reasons.ts';
import { SVM_TRANSACTION_FORMAT } from '../../core/x402/svmProof.ts';

/**
 * The bodies of /verify, /settle and /refund as x402 v2 defines them for the `exact` scheme this
 * facilitator serves: an EIP-3009 authorization on an EVM network, or a signed transfer
 * transaction on a Solana cluster. One schema is both what the document says and the structural
 * check each route makes first, so a body the document calls valid reaches the engine (which
 * answers 200 with its verdict), and any other body is refused with 400 and an x402 reason, in
 * the shape x402 clients read, whichever network it names.
 */
const Requirements = (network: z.ZodString) =>
  z.looseObject({
    scheme: z.literal('exact'),
    network,
    amount: z
      .string()
      .regex(/^\d{1,78}$/)
      .describe('atomic units of the asset'),
    asset: z.string().min(1),
    payTo: z.string().min(1),
    maxTimeoutSeconds: z.number().positive(),
    extra: z.record(z.string(), z.unknown()).nullish(),
  });
const EvmRequirements = Requirements(
  z
    .string()
    .regex(/^eip155:\d{1,12}$/)
    .describe('CAIP-2, e.g. eip155:8453'),
);
const SvmRequirements = Requirements(
  z
    .string()
    .regex(/^solana:[1-9A-HJ-NP-Za-km-z]{1,44}$/)
    .describe('CAIP-2 of a Solana cluster'),
);
const AnyRequirements = z.union([EvmRequirements, SvmRequirements]);

const Payload = (accepted: z.ZodObject, payload: z.ZodObject) =>
  z.looseObject({
    x402Version: z.literal(2),
    resource: z.looseObject({ url: z.string().min(1) }).nullish(),
    accepted,
    payload,
    extensions: z.record(z.string(), z.unknown()).nullish(),
  });
const SvmTransaction = z.looseObject({
  transaction: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .meta({ format: SVM_TRANSACTION_FORMAT, description: 'the payer-signed transfer transaction, base64' }),
});

const request = (extra: z.ZodRawShape) =>
  z.union([
    z.looseObject({
      x402Version: z.literal(2),
      paymentPayload: Payload(EvmRequirements, ExactEvmPayload),
      paymentRequirements: EvmRequirements,
      ...extra,
    }),
    z.looseObject({
      x402Version: z.literal(2),
      paymentPayload: Payload(SvmRequirements, SvmTransaction),
      paymentRequirements: SvmRequirements,
      ...extra,
    }),
  ]);

export const PaymentRequestBody = request({}).meta({ id: 'FacilitatorRequest' });
export const RefundRequestBody = request({
  refundOf: z.string().describe('the transaction that settled the payment being sent back'),
}).meta({ id: 'FacilitatorRefundRequest' });

/** Why a body is not one of `schema`'s, as an x402 reason; undefined when it is. */
export function structuralRefusal(
  schema: z.ZodType,
  body: unknown,
): { reason: PaymentReason; message: string; network: string } | undefined {
  const value = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const requirements = value['paymentRequirements'];
  const named =
    typeof requirements === 'object' && requirements !== null
      ? (requirements as Record<string, unknown>)['network']
      : undefined;
  const network = typeof named === 'string' ? named : '';
  if (value['x402Version'] !== 2)
    return { reason: PaymentReason.invalidVersion, message: 'x402Version must be 2.', network };
  if (!AnyRequirements.safeParse(requirements).success)
    return {
      reason: PaymentReason.invalidRequirements,
      message: 'paymentRequirements is not x402 v2 exact PaymentRequirements for an EVM or Solana network.',
      network,
    };
  if (!schema.safeParse(body).success)
    return {
      reason: PaymentReason.invalidPayload,
      message:
        'paymentPayload is not an x402 v2 exact PaymentPayload for its network (an EIP-3009 authorization, or a ' +
        'Solana transaction), or a field of the request is missing.',
      network,
    };
  return undefined;
}

export const asVerify = (refused: { reason: string; message: string }) => ({
  invalidReason: refused.reason,
  invalidMessage: refused.message,
});

export const asSettle = (refused: { reason: string; message: string; network: string }) => ({
  success: false,
  transaction: '',
  network: refused.network,
  errorReason: refused.reason,
  errorMessage: refused.message,
});
