import { z } from 'zod';

// The JSON-RPC shapes the indexer reads, as nodes send them (hex quantities). Parsed at the edge
// so a misbehaving provider fails the range loudly instead of writing wrong rows.
const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const Quantity = z.string().regex(/^0x[0-9a-fA-F]+$/);

export const RawLog = z.object({
  address: Hex,
  topics: z.array(Hex),
  data: Hex,
  blockNumber: Quantity,
  blockHash: Hex,
  transactionHash: Hex,
  transactionIndex: Quantity,
  logIndex: Quantity,
  removed: z.boolean().optional(),
});
export type RawLog = z.infer<typeof RawLog>;

const RawTransaction = z.object({
  hash: Hex,
  from: Hex,
  to: Hex.nullable().optional(),
  value: Quantity,
  transactionIndex: Quantity,
});

export const RawBlock = z.object({
  number: Quantity,
  hash: Hex,
  parentHash: Hex,
  timestamp: Quantity,
  transactions: z.array(RawTransaction),
});
export type RawBlock = z.infer<typeof RawBlock>;

export const RawReceipt = z.object({
  transactionHash: Hex,
  contractAddress: Hex.nullable().optional(),
  status: Quantity.optional(),
});
export type RawReceipt = z.infer<typeof RawReceipt>;

/** One entry of a parity-style `trace_block` answer (the fields a creation needs). */
export const RawTrace = z.object({
  type: z.string(),
  action: z.object({ from: Hex.optional() }),
  result: z.object({ address: Hex.optional(), code: Hex.optional() }).nullable().optional(),
  error: z.string().optional(),
  traceAddress: z.array(z.number()),
  transactionHash: Hex.nullable().optional(),
});

/** A contract created in the range, found by the fetcher (receipt or trace), with its code. */
export interface Creation {
  blockNumber: number;
  txHash: string;
  contract: string;
  deployer: string;
  factory: string | null;
  bytecodeHash: string;
  codeSize: number;
}
