import { keccak256, numberToHex, type Hex } from 'viem';
import { z } from 'zod';
import { ALL_TOPICS } from './events.ts';
import { type Creation, RawBlock, RawLog, RawReceipt, RawTrace } from './rpcShapes.ts';

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
 * native transfers, creations), the logs of the decoded events in one eth_getLogs, for each
 * contract-creating transaction its receipt and the new contract's code, and, where the node
 * serves `trace_block`, the contracts that other contracts created (factories: pairs, clones).
 * Requests issued together travel as JSON-RPC batches (the client batches).
 */
export async function fetchRange(
  client: RpcClient,
  from: number,
  to: number,
  window?: LogWindow,
  traces: TraceSupport = new TraceSupport(),
): Promise<FetchedRange> {
  const numbers = Array.from({ length: to - from + 1 }, (_, index) => from + index);
  // One after the other: requests issued together share a JSON-RPC batch, and a large log answer
  // would make the whole batch too large.
  const logs = await fetchLogs(client, from, to, window);
  const blocks = await fetchBlocks(client, numbers);
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
  const created = await traceCreations(client, blocks, traces);
  return { blocks, logs, creations: [...creations.filter((creation) => creation !== undefined), ...created] };
}

/**
 * Whether a chain's node answers `trace_block`, learnt from its first answer and then kept: a
 * node that does not know the method (or refuses it) is not asked again, and its ranges have the
 * top-level deployments only.
 */
export class TraceSupport {
  available: boolean | undefined;
  /** Blocks traced per batch, learnt like the log window (halved when an answer is too large). */
  batch = 8;
}

const UNSUPPORTED =
  /method not found|not supported|unsupported|does not exist|not available|not enabled|unknown method|-32601/i;

/** Contracts created by other contracts in the blocks (top-level creations come from receipts). */
async function traceCreations(
  client: RpcClient,
  blocks: readonly RawBlock[],
  support: TraceSupport,
): Promise<Creation[]> {
  if (support.available === false) return [];
  const busy = blocks.filter((block) => block.transactions.length > 0);
  const senders = new Map(
    busy.flatMap((block) => block.transactions.map((tx) => [tx.hash.toLowerCase(), tx.from] as const)),
  );
  const creations: Creation[] = [];
  // Traces carry every created contract's code: a batch of them can pass what a transport takes,
  // so a batch that is too large is halved, down to one block (a block too large alone is left
  // untraced).
  let size = Math.min(support.batch, BLOCKS_PER_BATCH);
  for (let start = 0; start < busy.length;) {
    const batch = busy.slice(start, start + size);
    let answers: unknown[];
    try {
      answers = await Promise.all(
        batch.map((block) => client.request({ method: 'trace_block', params: [block.number] })),
      );
    } catch (error) {
      if (UNSUPPORTED.test(errorText(error))) {
        support.available = false;
        return [];
      }
      if (!isTooMuch(error)) throw error;
      if (size > 1) {
        size = Math.ceil(size / 2);
        support.batch = size;
        continue;
      }
      start += 1;
      continue;
    }
    support.available = true;
    start += batch.length;
    for (const [index, answer] of answers.entries()) {
      const number = Number((batch[index] as RawBlock).number);
      for (const trace of parse(z.array(RawTrace), answer ?? [], `traces of block ${number}`)) {
        const { address, code } = trace.result ?? {};
        if (trace.type !== 'create' || trace.traceAddress.length === 0 || trace.error) continue;
        if (!address || !code || !trace.action.from || !trace.transactionHash) continue;
        creations.push({
          blockNumber: number,
          txHash: trace.transactionHash,
          contract: address,
          deployer: senders.get(trace.transactionHash.toLowerCase()) ?? trace.action.from,
          factory: trace.action.from,
          bytecodeHash: keccak256(code as Hex),
          codeSize: (code.length - 2) / 2,
        });
      }
    }
  }
  return creations;
}

/** Blocks travel in batches of this many: a batch of full mainnet blocks must stay a few MB. */
const BLOCKS_PER_BATCH = 16;

async function fetchBlocks(client: RpcClient, numbers: readonly number[]): Promise<RawBlock[]> {
  const blocks: RawBlock[] = [];
  for (let start = 0; start < numbers.length; start += BLOCKS_PER_BATCH) {
    const batch = numbers.slice(start, start + BLOCKS_PER_BATCH);
    blocks.push(
      ...(await Promise.all(
        batch.map(async (number) =>
          parse(
            RawBlock,
            await client.request({ method: 'eth_getBlockByNumber', params: [numberToHex(number), true] }),
            `block ${number}`,
          ),
        ),
      )),
    );
  }
  return blocks;
}

/**
 * How many blocks one eth_getLogs asks for, learnt per chain: halved when an answer is too large
 * for the node or the transport (providers cap results at 10,000 logs or a few MB), doubled again
 * after a run of answers that fit. Without it, every range would first pay for an answer too
 * large to use.
 */
export class LogWindow {
  size: number;
  #fits = 0;
  /** Below the smallest window that was too large: a node's limit does not move. */
  #ceiling: number;

  constructor(max = 100_000) {
    this.size = max;
    this.#ceiling = max;
  }

  /** A window of `failed` blocks was too large. */
  tooLarge(failed: number): void {
    this.#ceiling = Math.max(1, Math.min(this.#ceiling, failed - 1));
    this.size = Math.max(1, Math.min(this.#ceiling, Math.ceil(failed / 2)));
    this.#fits = 0;
  }

  fit(): void {
    if (++this.#fits >= 8 && this.size < this.#ceiling) {
      this.size = Math.min(this.#ceiling, this.size * 2);
      this.#fits = 0;
    }
  }
}

/** The decoded events' logs of [from, to], asked for in windows the node can answer. */
async function fetchLogs(
  client: RpcClient,
  from: number,
  to: number,
  window = new LogWindow(),
): Promise<RawLog[]> {
  const logs: RawLog[] = [];
  let start = from;
  while (start <= to) {
    const end = Math.min(to, start + window.size - 1);
    try {
      const result = await client.request({
        method: 'eth_getLogs',
        params: [{ fromBlock: numberToHex(start), toBlock: numberToHex(end), topics: [ALL_TOPICS] }],
      });
      logs.push(...parse(z.array(RawLog), result, `logs ${start}-${end}`));
      window.fit();
      start = end + 1;
    } catch (error) {
      if (end <= start || !isTooMuch(error)) throw error;
      window.tooLarge(end - start + 1);
    }
  }
  return logs;
}

function errorText(error: unknown): string {
  const details = (error as { details?: unknown }).details;
  const code = (error as { code?: unknown }).code;
  return error instanceof Error
    ? `${error.message} ${typeof details === 'string' ? details : ''} ${typeof code === 'number' ? code : ''}`
    : String(error);
}

function isTooMuch(error: unknown): boolean {
  return /too large|exceed|more than \d+ results|too many|limit/i.test(errorText(error));
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
