import {
  type Chain,
  createPublicClient,
  defineChain,
  fallback,
  http,
  type PublicClient,
  webSocket,
} from 'viem';
import { VigilError } from '../errors/vigilError.ts';
import { type ChainId, type ChainInfo, ChainKind, findChain } from './registry.ts';

export interface ChainClientsOptions {
  /** RPC endpoints per chain, in order of preference (see rpcConfig.ts). */
  rpcUrls: ReadonlyMap<ChainId, readonly string[]>;
  /** Per-request timeout; a provider slower than this is skipped for the next one. */
  requestTimeoutMs?: number;
}

/**
 * Read clients per chain, created once per process and shared. Every read goes through a
 * fallback transport over the chain's configured providers; retries across attempts are left to
 * the caller (Temporal retries activities with backoff).
 */
export class ChainClients {
  readonly #rpcUrls: ReadonlyMap<ChainId, readonly string[]>;
  readonly #timeoutMs: number;
  readonly #evm = new Map<string, PublicClient>();

  constructor(options: ChainClientsOptions) {
    this.#rpcUrls = options.rpcUrls;
    this.#timeoutMs = options.requestTimeoutMs ?? 5_000;
  }

  /** Chains with at least one configured endpoint. */
  configured(): ChainId[] {
    return [...this.#rpcUrls.keys()];
  }

  rpcUrls(chain: string): readonly string[] {
    return this.#rpcUrls.get(chain as ChainId) ?? [];
  }

  /** A viem client for an EVM chain; a problem when the chain is unknown, not EVM or not configured. */
  evm(chainId: string): PublicClient {
    const existing = this.#evm.get(chainId);
    if (existing) return existing;
    const chain = findChain(chainId);
    if (!chain || chain.kind !== ChainKind.evm || chain.evmChainId === undefined) {
      throw new VigilError('capability_not_supported', `${chainId} is not an EVM chain`);
    }
    const urls = this.rpcUrls(chainId);
    if (urls.length === 0) {
      throw new VigilError('chain_unavailable', `No RPC endpoint is configured for ${chain.name}.`, {
        extensions: { chain: chainId },
      });
    }
    const transports = urls.map((url) =>
      url.startsWith('ws')
        ? webSocket(url, { timeout: this.#timeoutMs, retryCount: 0 })
        : // Reads issued together (an engine's dozen calls) travel as one JSON-RPC batch.
          http(url, { timeout: this.#timeoutMs, retryCount: 0, batch: { batchSize: 64, wait: 0 } }),
    );
    const client = createPublicClient({
      chain: toViemChain(chain, chain.evmChainId, urls),
      transport:
        transports.length === 1 && transports[0] ? transports[0] : fallback(transports, { retryCount: 0 }),
      // Scans pin a block and read at it; nothing here benefits from polling caches.
      cacheTime: 0,
      batch: { multicall: false },
    });
    this.#evm.set(chainId, client);
    return client;
  }
}

function toViemChain(chain: ChainInfo, id: number, urls: readonly string[]): Chain {
  return defineChain({
    id,
    name: chain.name,
    nativeCurrency: {
      name: chain.native.symbol,
      symbol: chain.native.symbol,
      decimals: chain.native.decimals,
    },
    rpcUrls: { default: { http: urls.filter((url) => url.startsWith('http')) } },
  });
}
