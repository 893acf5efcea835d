import { z } from 'zod';
import { RawQueryInput } from '../../core/catalog/dataInputs.ts';
import type { Analytics } from '../analytics/sandbox.ts';

/** Datasets parquet_query answers, with the columns an address or a token filter matches. */
const DATASETS = {
  transfers: { address: ['from_address', 'to_address'], token: 'token' },
  swaps: { address: ['sender', 'recipient', 'pool'], token: 'pool_token' },
  deployments: { address: ['deployer', 'contract_address'], token: 'contract_address' },
  pools: { address: ['pool'], token: 'pool_token' },
  pool_events: { address: ['pool', 'sender', 'to_address', 'owner'], token: null },
} as const;
export type Dataset = keyof typeof DATASETS;

/** Keyset position: rows are ordered by (block_number, log_index, tx_hash). */
const Cursor = z.object({
  b: z.number().int().min(0),
  i: z.number().int(),
  h: z.string().regex(/^0x[0-9a-f]{64}$/),
});

export class BadCursor extends Error {
  override readonly name = 'BadCursor';
}

export interface RawQueryPage {
  dataset: Dataset;
  rows: Record<string, unknown>[];
  count: number;
  next_cursor: string | null;
  elapsed_ms: number;
}

/**
 * Raw chain data by structured filters, a page at a time (keyset pagination: a cursor names the
 * last row's position, so pages stay stable while the indexer appends). Every value is bound as a
 * parameter; only column names chosen here reach the SQL text.
 */
export async function rawQuery(engine: Analytics, raw: unknown): Promise<RawQueryPage> {
  const parsed = RawQueryInput.parse(raw);
  const input = {
    ...parsed,
    address: parsed.address?.toLowerCase(),
    token: parsed.token?.toLowerCase(),
    limit: parsed.limit ?? 100,
  };
  const spec = DATASETS[input.dataset];
  const where: string[] = [];
  const values: Record<string, string | number> = {};
  if (input.chain) {
    where.push('chain = $chain');
    values.chain = input.chain;
  }
  if (input.address) {
    where.push(`(${spec.address.map((column) => `${column} = $address`).join(' OR ')})`);
    values.address = input.address;
  }
  if (input.token) {
    if (spec.token === null) throw new BadCursor(`${input.dataset} cannot be filtered by token`);
    where.push(
      spec.token === 'pool_token' ? '(token0 = $token OR token1 = $token)' : `${spec.token} = $token`,
    );
    values.token = input.token;
  }
  if (input.from_block !== undefined) {
    where.push('block_number >= $from_block');
    values.from_block = input.from_block;
  }
  if (input.to_block !== undefined) {
    where.push('block_number <= $to_block');
    values.to_block = input.to_block;
  }
  if (input.from_time) {
    where.push('block_time >= CAST($from_time AS TIMESTAMPTZ)');
    values.from_time = input.from_time;
  }
  if (input.to_time) {
    where.push('block_time < CAST($to_time AS TIMESTAMPTZ)');
    values.to_time = input.to_time;
  }
  const position = 'coalesce(log_index, -1)';
  if (input.cursor) {
    const cursor = decodeCursor(input.cursor);
    where.push(`(block_number, ${position}, tx_hash) > ($cb, $ci, $ch)`);
    Object.assign(values, { cb: cursor.b, ci: cursor.i, ch: cursor.h });
  }
  const sql =
    `SELECT * EXCLUDE (date) FROM ${input.dataset}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY block_number, ${position}, tx_hash LIMIT ${input.limit + 1}`;
  const result = await engine.internal(sql, values, input.limit + 1);
  const rows = result.rows.slice(0, input.limit);
  const last = rows.at(-1);
  const more = result.rows.length > input.limit && last !== undefined;
  return {
    dataset: input.dataset,
    rows,
    count: rows.length,
    next_cursor: more
      ? encodeCursor({
          b: Number(last.block_number),
          i: last.log_index === null ? -1 : Number(last.log_index),
          h: String(last.tx_hash),
        })
      : null,
    elapsed_ms: result.elapsed_ms,
  };
}

function encodeCursor(cursor: z.infer<typeof Cursor>): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): z.infer<typeof Cursor> {
  try {
    return Cursor.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw new BadCursor('The cursor is not one this service issued.');
  }
}
