import { z } from 'zod';
import { oneOfFields } from '../../../core/schema/fieldRules.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';

/** POST /api/v1/x402/invoice: one call of a paid tool (`tool` and `input`), or an amount. */
export const CreateInvoice = oneOfFields(
  z
    .object({
      tool: z.string().max(128).optional().describe('a paid tool of the catalog'),
      input: z.unknown().optional().describe('its input, as POST /api/v1/x402-tools/{tool} takes it'),
      amount_usd: z
        .number()
        // The smallest invoice, and whole micro-dollars: said here so the document says them.
        .min(0.01)
        .multipleOf(0.000_001)
        // A bound the conversion to atomic units stays exact under (the facilitator's own limit
        // is usually lower); without it 1e308 reached a BigInt of Infinity and answered 500.
        .max(1_000_000)
        .optional()
        .describe('an amount instead of a tool call (USD, whole micro-dollars, from 0.01 to 1,000,000)'),
      description: z.string().min(1).max(200).optional(),
    })
    .strict(),
  ['tool', 'amount_usd'],
  'give either tool (with input) or amount_usd',
).meta({ id: 'CreateInvoice' });
export type CreateInvoice = z.infer<typeof CreateInvoice>;

/** A 422 naming one field of the request body. */
export function fieldError(field: string, message: string): VigilError {
  return new VigilError('validation_failed', `Invalid body.${field}: ${message}`, {
    extensions: { errors: [{ loc: ['body', field], msg: message, type: 'custom' }] },
  });
}
