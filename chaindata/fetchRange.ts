import { keccak256, numberToHex, type Hex } from 'viem';
import { z } from 'zod';
import { ALL_TOPICS } from './events.ts';
import { type Creation, RawBlock, RawLog, RawReceipt } from './rpcShapes.ts';

/** The one RPC method the indexer needs from a client: viem's `request`, raw JSON-RPC results. */
export interface RpcClient {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

export interface FetchedRange {
  blocks: RawBlock[];
  logs: RawLog[];
  creations: Creation[];
}

/**
 * Reads what the decoders need for [from, to]: every block with its transactions (time, hash,
 * native transfers, creations), the logs of the decoded events in one eth_getLogs, and for each
 * contract-creating transaction its receipt and the new contract's code. Requests issued together
 * travel as JSON-RPC batches (the client batches).
 */
export async function fetchRange(client: RpcClient, from: number, to: number): Promise<FetchedRange> {
  const numbers = Array.from({ length: to - from + 1 }, (_, index) => from + index);
  const [blocks, logs] = await Promise.all([
    Promise.all(
      numbers.map(async (number) =>
        parse(
          RawBlock,
          await client.request({ method: 'eth_getBlockByNumber', params: [numberToHex(number), true] }),
          `block ${number}`,
        ),
      ),
    ),
    client
      .request({
        method: 'eth_getLogs',
        params: [{ fromBlock: numberToHex(from), toBlock: numberToHex(to), topics: [ALL_TOPICS] }],
      })
      .then((result) => parse(z.array(RawLog), result, `logs ${from}-${to}`)),
  ]);
  const creators = blocks.flatMap((block) =>
    block.transactions.filter((tx) => !tx.to).map((tx) => ({ block: Number(block.number), tx })),
  );
  const creations = await Promise.all(
    creators.map(async ({ block, tx }): Promise<Creation | undefined> => {
      const receipt = parse(
        RawReceipt,
        await client.request({ method: 'eth_getTransactionReceipt', params: [tx.hash] }),
        `receipt ${tx.hash}`,
      );
      if (!receipt.contractAddress || receipt.status === '0x0') return undefined;
      const code = (await client.request({
        method: 'eth_getCode',
        params: [receipt.contractAddress, numberToHex(block)],
      })) as Hex;
      return {
        blockNumber: block,
        txHash: tx.hash,
        contract: receipt.contractAddress,
        deployer: tx.from,
        factory: null,
        bytecodeHash: keccak256(code),
        codeSize: (code.length - 2) / 2,
      };
    }),
  );
  return { blocks, logs, creations: creations.filter((creation) => creation !== undefined) };
}

export async function chainHead(client: RpcClient): Promise<number> {
  return Number(parse(z.string(), await client.request({ method: 'eth_blockNumber' }), 'block number'));
}

/** The chain's current hashes of the given blocks (a missing block has no hash). */
export async function chainBlockHashes(
  client: RpcClient,
  numbers: readonly number[],
): Promise<Map<number, string>> {
  const hashes = await Promise.all(
    numbers.map(async (number) => {
      const block = (await client.request({
        method: 'eth_getBlockByNumber',
        params: [numberToHex(number), false],
      })) as { hash?: string } | null;
      return [number, block?.hash?.toLowerCase()] as const;
    }),
  );
  return new Map(hashes.filter((entry): entry is readonly [number, string] => entry[1] !== undefined));
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new Error(
      `the node answered an unexpected ${what}: ${result.error.issues[0]?.message ?? 'invalid'}`,
    );
  return result.data;
}
