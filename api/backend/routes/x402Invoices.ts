import { z } from 'zod';
import { Invoice } from '../../../core/stores/invoices.ts';
import { PaymentReceipt } from '../../../core/stores/receipts.ts';
import { Problem } from '../../plugins/problem.ts';
import type { Caller } from '../../plugins/caller.ts';
import type { VigilApp } from '../../plugins/service.ts';
import { CreateInvoice } from '../x402/invoiceRequest.ts';
import type { Invoices } from '../x402/invoices.ts';
import type { Refunds } from '../x402/refunds.ts';
import type { InvoiceQuota } from '../x402/invoiceQuota.ts';
import { type Sandbox, SandboxVerdict, SandboxVerify } from '../x402/sandbox.ts';
import { PAID_ROUTE_PROBLEMS, sendAnswer } from './x402Tools.ts';

const InvoiceId = z.string().regex(/^inv_[0-9a-f]{24}$/);
const TxHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

const PaidInvoice = z
  .looseObject({
    invoice: Invoice,
    tool: z.string().nullable(),
    data: z.unknown().describe('the tool’s result once paid; null for an amount, or when the tool had none'),
    reason: z.enum(['no_data', 'tool_failed']).nullable().optional(),
    charged: z.boolean().optional().describe('true on an empty result: it was paid for, and is refundable'),
    refund: z
      .object({ url: z.string().nullable(), until: z.string() })
      .optional()
      .describe('where and until when the charged empty result can be refunded'),
    payment: z.looseObject({ payment_id: z.string(), status: z.string() }).nullable(),
  })
  .meta({ id: 'PaidInvoice' });

const Refund = z
  .object({
    payment_id: z.string(),
    transaction: z.string().describe('the refunded payment’s transaction'),
    refund: PaymentReceipt.shape.refund,
    status_url: z.string().optional(),
  })
  .meta({ id: 'RefundAnswer' });

const problems = PAID_ROUTE_PROBLEMS;

const INVOICE_FLOW =
  'An invoice is a quote with an id, an expiry and a state: open → paid (a proof was accepted) → settled (on ' +
  'chain) → refunded, or open → expired. Paying it settles first, then runs its tool: a tool that then finds ' +
  'nothing is a charged empty result, refundable within the window by transaction hash.';

/** Invoices, paying them, refunds of charged empty results, and the sandbox. */
export function x402InvoiceRoutes(
  app: VigilApp,
  invoices: Invoices,
  refunds: Refunds,
  sandbox: Sandbox,
  quota: InvoiceQuota,
): void {
  /**
   * Who an invoice counts against: the caller as the rate limiter knows it, and its network (an
   * IPv6 client by its /64, not its address, of which it has 2^64 to rotate through).
   */
  const creators = (request: { caller: Caller }) => [request.caller.id, request.caller.network];

  app.post(
    '/api/v1/x402/invoice',
    {
      schema: {
        tags: ['x402'],
        summary: 'Create an invoice for one call of a paid tool, or for an amount',
        description: INVOICE_FLOW,
        body: CreateInvoice,
        response: { 201: Invoice, ...problems },
      },
    },
    async (request, reply) => {
      await quota.take(creators(request));
      return reply.code(201).send(await invoices.create(request.body));
    },
  );

  app.get(
    '/api/v1/x402/invoice/:invoice_id',
    {
      schema: {
        tags: ['x402'],
        summary: 'Read an invoice: its quote, state, payment and (once paid) result',
        params: z.object({ invoice_id: InvoiceId }),
        response: { 200: Invoice, 404: Problem },
      },
    },
    (request) => invoices.get(request.params.invoice_id),
  );

  app.post(
    '/api/v1/x402/pay/:invoice_id',
    {
      schema: {
        tags: ['x402'],
        summary: 'Pay an invoice with an x402 proof (X-PAYMENT or PAYMENT-SIGNATURE)',
        description:
          `${INVOICE_FLOW}\n\nWithout a proof: 402 with the invoice's quote. With one: 200 with the result and the ` +
          'receipt in X-PAYMENT-RESPONSE / PAYMENT-RESPONSE, or 202 while the settlement confirms (send the same ' +
          'proof again for the result). The same proof again always gets the same answer; another proof for a ' +
          'paid invoice is 409.',
        params: z.object({ invoice_id: InvoiceId }),
        response: { 200: PaidInvoice, 202: PaidInvoice, ...problems },
      },
    },
    async (request, reply) => {
      sendAnswer(
        reply,
        await invoices.pay(request.params.invoice_id, {
          headers: request.headers,
          requestId: request.id,
          apiKeyId: request.caller.apiKeyId,
          holder: request.caller.id,
        }),
      );
      return reply;
    },
  );

  app.post(
    '/api/v1/x402/refund/:tx_hash',
    {
      schema: {
        tags: ['x402'],
        summary: 'Refund a charged empty result by its transaction hash (within the refund window, once)',
        description:
          'Sends the payment back to its payer on chain (the payee signs, the facilitator settles). 200 once ' +
          'refunded, 202 while it confirms (follow status_url), 409 refund_not_allowed with `reason`: not_settled, ' +
          'not_an_empty_result, already_requested, already_refunded or window_passed.',
        params: z.object({ tx_hash: TxHash }),
        response: { 200: Refund, 202: Refund, ...problems },
      },
    },
    async (request, reply) => {
      sendAnswer(reply, await refunds.request(request.params.tx_hash));
      return reply;
    },
  );

  app.post(
    '/x402/sandbox/create-invoice',
    {
      schema: {
        tags: ['x402 sandbox'],
        summary: 'Create an invoice on the test network (nothing it quotes is ever settled)',
        body: CreateInvoice,
        response: { 201: Invoice, ...problems },
      },
    },
    async (request, reply) => {
      await quota.take(creators(request));
      return reply.code(201).send(await sandbox.createInvoice(request.body));
    },
  );

  app.post(
    '/x402/sandbox/verify',
    {
      schema: {
        tags: ['x402 sandbox'],
        summary: 'Check a proof against a sandbox invoice with the facilitator’s /verify; never settles',
        body: SandboxVerify,
        response: { 200: SandboxVerdict, ...problems },
      },
    },
    (request) => sandbox.verify(request.body, request.headers),
  );
}
