import { z } from 'zod';
import { anyOfFields } from '../schema/fieldRules.ts';

// Inputs of the chain-data tools, the single source of their validation and JSON Schema. No
// transforms: every shape here must be expressible as JSON Schema for the catalog's documents.

const MAX_SQL_LENGTH = 20_000;
const MAX_SQL_ROWS = 1_000;
const MAX_PAGE = 1_000;

export const AnalyticsQueryInput = z
  .object({
    sql: z
      .string()
      .min(1)
      .max(MAX_SQL_LENGTH)
      .describe(
        'One read-only SELECT (or WITH ... SELECT) over the views blocks, transfers, swaps, pools, pool_events, deployments and labels',
      ),
    max_rows: z
      .number()
      .int()
      .min(1)
      .max(MAX_SQL_ROWS)
      .optional()
      .describe(`row cap (at most ${MAX_SQL_ROWS})`),
  })
  .strict();

const DATASET_NAMES = ['transfers', 'swaps', 'deployments', 'pools', 'pool_events'] as const;

const AddressText = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte address');
const Block = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Time = z.iso.datetime({ offset: true });

export const RawQueryInput = z
  .object({
    dataset: z.enum(DATASET_NAMES).describe('which raw data to read'),
    chain: z
      .string()
      .regex(/^[a-z0-9_]{1,32}$/)
      .optional()
      .describe('chain slug, e.g. ethereum, devnet'),
    address: AddressText.optional().describe(
      'a wallet or contract on either side (sender, recipient, deployer, pool...)',
    ),
    token: AddressText.optional().describe(
      'a token: its transfers, the swaps and pools that trade it, its deployment',
    ),
    from_block: Block.optional(),
    to_block: Block.optional(),
    from_time: Time.optional().describe('ISO 8601, inclusive'),
    to_time: Time.optional().describe('ISO 8601, exclusive'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_PAGE)
      .optional()
      .describe(`page size (default 100, at most ${MAX_PAGE})`),
    cursor: z.string().max(200).optional().describe('next_cursor of the previous page'),
  })
  .strict();
export type RawQueryInput = z.infer<typeof RawQueryInput>;

export const LabelsQueryInput = anyOfFields(
  z
    .object({
      address: AddressText.optional().describe('the labels of one address'),
      label: z.string().min(1).max(64).optional().describe("the source's label, e.g. exchange, phish-hack"),
      category: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .describe('normalised category, e.g. exchange, phish_hack, token'),
      name: z
        .string()
        .min(2)
        .max(64)
        .optional()
        .describe('case-insensitive substring of the name tag, e.g. binance'),
      chain: z
        .string()
        .regex(/^[a-z0-9_]{1,32}$/)
        .optional(),
      limit: z.number().int().min(1).max(1_000).optional(),
    })
    .strict(),
  ['address', 'label', 'category', 'name'],
  'give at least one of address, label, category or name',
);
export type LabelsQueryInput = z.infer<typeof LabelsQueryInput>;
