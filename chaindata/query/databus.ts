import { numberToHex, pad } from 'viem';
import { z } from 'zod';
import type { Analytics } from '../analytics/sandbox.ts';
import { decodeRange } from '../decode.ts';
import { Topic } from '../events.ts';
import { evmChain } from '../indexer.ts';
import type { RpcClient } from '../fetchRange.ts';
import { RawLog } from '../rpcShapes.ts';
import { balancesSql } from './catalog.ts';
import { type Dataset, rawQuery } from './rawQuery.ts';

/** What a data route answers: the data and the providers that gave it, or the empty-data result. */
export type BusAnswer =
  | { kind: 'data'; data: unknown; sources: string[]; degraded: string[] }
  | { kind: 'empty'; sourcesTried: string[]; degraded: string[] };

export interface DataBusDeps {
  engine: () => Promise<Analytics>;
  /** The chain's RPC client (viem's, through the failover pool) and the providers it skipped. */
  rpc(chain: string): { client: RpcClient; degraded: () => string[] };
  /** Blocks behind the head the live fallback reads. */
  liveWindowBlocks: number;
}

const INDEX_SOURCE = 'index';

export interface ListQuery {
  chain: string;
  address: string;
  limit: number;
  cursor?: string | undefined;
}

/**
 * The data bus: the index first, live RPC second. A chain the index does not cover (or an index
 * that fails) is read from the chain's RPC over the last `liveWindowBlocks` blocks, for the
 * questions logs can answer; the failed index is named as degraded.
 */
export class DataBus {
  readonly #deps: DataBusDeps;

  constructor(deps: DataBusDeps) {
    this.#deps = deps;
  }

  transfersOfToken(query: ListQuery) {
    return this.#list('transfers', { token: query.address }, query, (client, from, to) =>
      liveLogs(client, from, to, { address: query.address, topics: [Topic.transfer] }),
    );
  }

  transfersOfWallet(query: ListQuery) {
    const topic = pad(query.address.toLowerCase() as `0x${string}`);
    return this.#list('transfers', { address: query.address }, query, async (client, from, to) => [
      ...(await liveLogs(client, from, to, { topics: [Topic.transfer, topic] })),
      ...(await liveLogs(client, from, to, { topics: [Topic.transfer, null, topic] })),
    ]);
  }

  swapsOfToken(query: ListQuery) {
    return this.#list('swaps', { token: query.address }, query);
  }

  swapsOfWallet(query: ListQuery) {
    return this.#list('swaps', { address: query.address }, query);
  }

  poolsOfToken(query: ListQuery) {
    return this.#list('pools', { token: query.address }, query, async (client, from, to) => [
      ...(await liveLogs(client, from, to, {
        topics: [Topic.pairCreated, pad(query.address.toLowerCase() as `0x${string}`)],
      })),
      ...(await liveLogs(client, from, to, {
        topics: [Topic.pairCreated, null, pad(query.address.toLowerCase() as `0x${string}`)],
      })),
    ]);
  }

  deploymentsOfWallet(query: ListQuery) {
    return this.#list('deployments', { address: query.address }, query);
  }

  deploymentsOnChain(query: Omit<ListQuery, 'address'>) {
    return this.#list('deployments', {}, { ...query, address: '' });
  }

  async holdersOfToken(query: ListQuery): Promise<BusAnswer> {
    return this.#fromIndex(query.chain, async (engine) => {
      const values = { chain: query.chain, token: query.address.toLowerCase() };
      const result = await engine.internal(
        `SELECT address, balance::VARCHAR AS balance_raw, balance_f AS balance FROM (${balancesSql()})
         WHERE balance_f > 0 ORDER BY balance_f DESC, address LIMIT ${query.limit}`,
        values,
        query.limit,
      );
      return result.rows.length === 0
        ? undefined
        : { chain: query.chain, token: values.token, holders: result.rows, count: result.row_count };
    });
  }

  /** Which chains the index covers and how far; the RPC providers of those it does not. */
  async health(chains: readonly string[]) {
    const started = performance.now();
    try {
      const engine = await this.#deps.engine();
      const covered = await engine.internal(
        'SELECT chain, max(block_number) AS last_block, max(block_time) AS last_time FROM blocks GROUP BY chain',
      );
      return {
        index: {
          status: 'up' as const,
          latency_ms: Math.round(performance.now() - started),
          chains: covered.rows,
        },
        rpc: chains.map((chain) => ({ chain, degraded: this.#deps.rpc(chain).degraded() })),
      };
    } catch (error) {
      return {
        index: {
          status: 'down' as const,
          latency_ms: null,
          detail: error instanceof Error ? error.message.slice(0, 200) : 'down',
          chains: [],
        },
        rpc: chains.map((chain) => ({ chain, degraded: this.#deps.rpc(chain).degraded() })),
      };
    }
  }

  async #list(
    dataset: Dataset,
    filter: { token?: string; address?: string },
    query: ListQuery,
    live?: (client: RpcClient, from: number, to: number) => Promise<RawLog[]>,
  ): Promise<BusAnswer> {
    return this.#fromIndex(
      query.chain,
      async (engine) => {
        const page = await rawQuery(engine, {
          dataset,
          chain: query.chain,
          ...filter,
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        });
        return page.count === 0 ? undefined : { chain: query.chain, ...page };
      },
      live && (async (client) => this.#live(client, query, dataset, live)),
    );
  }

  /** The index's answer when it covers the chain; else (or when it fails) the live one, if any. */
  async #fromIndex(
    chain: string,
    fromIndex: (engine: Analytics) => Promise<unknown>,
    live?: (client: RpcClient) => Promise<unknown>,
  ): Promise<BusAnswer> {
    const tried = [INDEX_SOURCE];
    const degraded: string[] = [];
    let covered = false;
    try {
      const engine = await this.#deps.engine();
      covered =
        (await engine.internal('SELECT 1 AS x FROM blocks WHERE chain = $chain LIMIT 1', { chain }, 1))
          .row_count > 0;
      if (covered) {
        const data = await fromIndex(engine);
        if (data !== undefined) return { kind: 'data', data, sources: [INDEX_SOURCE], degraded };
      }
    } catch (error) {
      if (!(error instanceof Error) || error.name === 'SqlRejected') throw error;
      if (error.name === 'BadCursor' || error.name === 'ZodError') throw error;
      degraded.push(INDEX_SOURCE);
    }
    if (!live || covered) return { kind: 'empty', sourcesTried: tried, degraded };
    evmChain(chain);
    const rpc = this.#deps.rpc(chain);
    tried.push(`rpc:${chain}`);
    const data = await live(rpc.client);
    degraded.push(...rpc.degraded());
    return data === undefined
      ? { kind: 'empty', sourcesTried: tried, degraded }
      : { kind: 'data', data, sources: [`rpc:${chain}`], degraded };
  }

  async #live(
    client: RpcClient,
    query: ListQuery,
    dataset: Dataset,
    read: (client: RpcClient, from: number, to: number) => Promise<RawLog[]>,
  ): Promise<unknown> {
    const head = Number(await client.request({ method: 'eth_blockNumber' }));
    const from = Math.max(0, head - this.#deps.liveWindowBlocks);
    const logs = await read(client, from, head);
    if (logs.length === 0) return undefined;
    const numbers = [...new Set(logs.map((log) => Number(log.blockNumber)))];
    const blocks = await Promise.all(
      numbers.map(async (number) => {
        const block = (await client.request({
          method: 'eth_getBlockByNumber',
          params: [numberToHex(number), false],
        })) as Record<string, string>;
        return {
          number: numberToHex(number),
          hash: block.hash ?? '0x',
          parentHash: block.parentHash ?? '0x',
          timestamp: block.timestamp ?? '0x0',
          transactions: [],
        };
      }),
    );
    const info = evmChain(query.chain);
    const rows = decodeRange({ chain: query.chain, chainId: info.evmChainId ?? 0 }, blocks, logs, [])[
      dataset
    ];
    const page = rows
      .sort(
        (a, b) =>
          Number(a.block_number) - Number(b.block_number) || Number(a.log_index) - Number(b.log_index),
      )
      .slice(0, query.limit)
      .map(({ date: _date, block_time, ...rest }) => ({
        ...rest,
        block_time: new Date(Number(block_time) * 1000).toISOString(),
      }));
    return {
      chain: query.chain,
      dataset,
      rows: page,
      count: page.length,
      next_cursor: null,
      window: { from_block: from, to_block: head },
    };
  }
}

async function liveLogs(
  client: RpcClient,
  from: number,
  to: number,
  filter: { address?: string; topics: (string | null)[] },
): Promise<RawLog[]> {
  const result = await client.request({
    method: 'eth_getLogs',
    params: [
      {
        fromBlock: numberToHex(from),
        toBlock: numberToHex(to),
        ...(filter.address ? { address: filter.address } : {}),
        topics: filter.topics,
      },
    ],
  });
  return z.array(RawLog).parse(result);
}
