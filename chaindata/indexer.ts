import { type ChainInfo, ChainKind, findChain } from '../core/chains/registry.ts';
import { decodeRange } from './decode.ts';
import {
  chainBlockHashes,
  chainHead,
  fetchRange,
  LogWindow,
  type RpcClient,
  TraceSupport,
} from './fetchRange.ts';
import type { BlockRange } from './storage/layout.ts';
import type { IndexStore } from './storage/indexStore.ts';
import { TABLE_NAMES, type TableName } from './tables.ts';

export interface RangeSummary {
  chain: string;
  /** The range written: the one asked for, widened over indexed ranges it overlapped. */
  from: number;
  to: number;
  logs: number;
  rows: Record<TableName, number>;
  /** Ranges the write replaced (re-indexed, not added to). */
  replaced: BlockRange[];
  /** Where the time went: reading the node, decoding, writing Parquet. */
  timings_ms: { fetch: number; decode: number; write: number };
}

export interface IndexerDeps {
  store: IndexStore;
  /** The chain's RPC client (viem's, through the failover pool). */
  clientOf(chain: string): RpcClient;
}

/**
 * Indexes EVM chains into the store, framework-free: the Temporal activities only call these.
 * Every method is safe to retry: a range's files are replaced whole, never appended to.
 */
export class ChainIndexer {
  readonly #deps: IndexerDeps;
  readonly #windows = new Map<string, LogWindow>();
  readonly #traces = new Map<string, TraceSupport>();

  constructor(deps: IndexerDeps) {
    this.#deps = deps;
  }

  async indexRange(chain: string, from: number, to: number): Promise<RangeSummary> {
    const info = evmChain(chain);
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from)
      throw new RangeError(`not a block range: ${from}-${to}`);
    const { range, replaces } = await this.#deps.store.coveringRange(chain, { from, to });
    const started = performance.now();
    let window = this.#windows.get(chain);
    if (!window) this.#windows.set(chain, (window = new LogWindow()));
    let traces = this.#traces.get(chain);
    if (!traces) this.#traces.set(chain, (traces = new TraceSupport()));
    const fetched = await fetchRange(this.#deps.clientOf(chain), range.from, range.to, window, traces);
    const fetchedAt = performance.now();
    const rows = decodeRange(
      { chain, chainId: info.evmChainId ?? 0 },
      fetched.blocks,
      fetched.logs,
      fetched.creations,
    );
    const decodedAt = performance.now();
    await this.#deps.store.writeRange(
      chain,
      range,
      rows,
      replaces.filter((r) => r.from !== range.from || r.to !== range.to),
    );
    return {
      chain,
      from: range.from,
      to: range.to,
      logs: fetched.logs.length,
      rows: Object.fromEntries(TABLE_NAMES.map((table) => [table, rows[table].length])) as Record<
        TableName,
        number
      >,
      replaced: replaces,
      timings_ms: {
        fetch: Math.round(fetchedAt - started),
        decode: Math.round(decodedAt - fetchedAt),
        write: Math.round(performance.now() - decodedAt),
      },
    };
  }

  head(chain: string): Promise<number> {
    evmChain(chain);
    return chainHead(this.#deps.clientOf(chain));
  }

  lastIndexed(chain: string): Promise<number | undefined> {
    return this.#deps.store.lastIndexed(chain);
  }

  /**
   * Compares the stored hashes of the last `depth` indexed blocks with the chain's; returns the
   * first block whose hash no longer matches (the fork point), or undefined when none moved.
   */
  async findFork(chain: string, depth: number): Promise<number | undefined> {
    const last = await this.#deps.store.lastIndexed(chain);
    if (last === undefined || depth <= 0) return undefined;
    const from = Math.max(0, last - depth + 1);
    const stored = await this.#deps.store.blockHashes(chain, from, last);
    const numbers = [...stored.keys()].sort((a, b) => a - b);
    const current = await chainBlockHashes(this.#deps.clientOf(chain), numbers);
    return numbers.find((number) => current.get(number) !== stored.get(number));
  }

  /** Forgets everything from `block` on; returns the first block to index again. */
  rewind(chain: string, block: number): Promise<number> {
    return this.#deps.store.rewind(chain, block);
  }
}

/** Chains the indexer runs on: EVM chains of the registry (an RPC is checked when it is used). */
export function evmChain(chain: string): ChainInfo {
  const info = findChain(chain);
  if (!info || info.kind !== ChainKind.evm) throw new UnsupportedChainError(chain);
  return info;
}

export class UnsupportedChainError extends Error {
  override readonly name = 'UnsupportedChainError';
  constructor(chain: string) {
    super(`${chain} is not an EVM chain of the registry; the indexer reads EVM logs`);
  }
}
