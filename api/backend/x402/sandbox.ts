import type { HTTPFacilitatorClient } from '@x402/core/http';
import { type PaymentRequirements, VerifyError } from '@x402/core/types';
import { type FacilitatorAccess, facilitatorClient } from '../../../core/x402/facilitatorClient.ts';
import { z } from 'zod';
import { VigilError } from '../../../core/errors/vigilError.ts';
import type { Invoice } from '../../../core/stores/invoices.ts';
import { decodePaymentProof, PaymentProofError, readPaymentProof } from '../../../core/x402/proof.ts';
import { TEST_NETWORKS } from '../../../core/x402/networks.ts';
import { PaymentReason } from '../../../core/x402/reasons.ts';
import type { CreateInvoice } from './invoiceRequest.ts';
import type { Invoices } from './invoices.ts';
import type { PaymentOptions } from './paymentOptions.ts';

/** The sandbox's test network quotes and facilitator, or why this deployment has no sandbox. */
export type SandboxConfig =
  { options: PaymentOptions; facilitator: FacilitatorAccess } | { disabled: string };

export const SandboxVerify = z
  .object({
    invoice_id: z.string().max(64).describe('a sandbox invoice'),
    payment: z
      .string()
      .max(16_384)
      .optional()
      .describe('the base64 x402 payment payload; or send it in X-PAYMENT / PAYMENT-SIGNATURE'),
  })
  .strict()
  .meta({ id: 'SandboxVerify' });

export const SandboxVerdict = z
  .object({
    invoice_id: z.string(),
    valid: z.boolean(),
    reason: z.string().nullable().describe('the machine reason of a refusal (the facilitator’s vocabulary)'),
    message: z.string().nullable(),
    payer: z.string().nullable(),
    network: z.string(),
    network_name: z.string(),
    asset: z.string(),
    amount: z.string(),
    settled: z.literal(false).describe('the sandbox never settles'),
  })
  .meta({ id: 'SandboxVerdict' });

/**
 * The sandbox: invoices quoted on a test network (the devnet here) and proofs checked against them
 * by the facilitator's /verify, with nothing ever settled, so an integration can be built and
 * debugged without moving money.
 */
export class Sandbox {
  readonly #invoices: Invoices;
  readonly #config: SandboxConfig;
  readonly #facilitator: HTTPFacilitatorClient | undefined;

  constructor(invoices: Invoices, config: SandboxConfig) {
    this.#invoices = invoices;
    this.#config = config;
    this.#facilitator = 'options' in config ? facilitatorClient(config.facilitator, 10_000) : undefined;
  }

  async createInvoice(request: CreateInvoice): Promise<Invoice> {
    return this.#invoices.create(request, { sandbox: this.#options() });
  }

  async verify(
    body: z.infer<typeof SandboxVerify>,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<z.infer<typeof SandboxVerdict>> {
    this.#options();
    const invoice = await this.#invoices.get(body.invoice_id);
    if (!invoice.sandbox) {
      throw new VigilError('validation_failed', 'Invalid body.invoice_id: not a sandbox invoice.', {
        extensions: {
          errors: [{ loc: ['body', 'invoice_id'], msg: 'not a sandbox invoice', type: 'custom' }],
        },
      });
    }
    const requirements = invoice.accepts[0] as PaymentRequirements;
    const verdict = (
      valid: boolean,
      reason: string | null,
      message: string | null,
      payer: string | null,
    ) => ({
      invoice_id: invoice.invoice_id,
      valid,
      reason,
      message,
      payer,
      network: invoice.network,
      network_name: TEST_NETWORKS[invoice.network] ?? invoice.network,
      asset: invoice.asset,
      amount: invoice.amount,
      settled: false as const,
    });
    let proof;
    try {
      proof =
        body.payment === undefined ? readPaymentProof(headers) : decodePaymentProof(body.payment.trim());
    } catch (error) {
      if (error instanceof PaymentProofError) return verdict(false, error.reason, error.message, null);
      throw error;
    }
    if (!proof) {
      throw new VigilError('validation_failed', 'Invalid body.payment: send a proof here or in X-PAYMENT.', {
        extensions: { errors: [{ loc: ['body', 'payment'], msg: 'Required', type: 'missing' }] },
      });
    }
    try {
      const result = await this.#facilitator?.verify(proof.payload, requirements);
      if (!result) throw new Error('no sandbox facilitator');
      return verdict(
        result.isValid,
        result.isValid ? null : (result.invalidReason ?? PaymentReason.unexpectedVerify),
        result.invalidMessage ?? null,
        result.payer ?? proof.authorization.from,
      );
    } catch (error) {
      if (error instanceof VerifyError)
        return verdict(
          false,
          error.invalidReason ?? PaymentReason.unexpectedVerify,
          error.invalidMessage ?? null,
          proof.authorization.from,
        );
      throw new VigilError('facilitator_unavailable', 'The sandbox facilitator did not answer.', {
        headers: { 'retry-after': '5' },
        cause: error,
      });
    }
  }

  #options(): PaymentOptions {
    if ('disabled' in this.#config) throw new VigilError('payments_not_configured', this.#config.disabled);
    return this.#config.options;
  }
}
