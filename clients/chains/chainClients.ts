import { Connection } from '@solana/web3.js';
import { type Chain, createPublicClient, defineChain, http, type PublicClient } from 'viem';
import { splitLargeBatches } from './splitBatches.ts';
import { VigilError } from '../../core/errors/vigilError.ts';
import { type ChainIdentity, ProviderPool, type ProviderStatus } from './providerPool.ts';
import { type ChainId, type ChainInfo, ChainKind, findChain } from '../../core/chains/registry.ts';
import { Reason } from '../../core/errors/reasons.ts';

export interface ChainClientsOptions {
  /** RPC endpoints per chain, in order of preference (see rpcConfig.ts). */
  rpcUrls: ReadonlyMap<ChainId, readonly string[]>;
  /** Per-request timeout; a provider slower than this is skipped for the next one. */
  requestTimeoutMs?: number;
  /** The same for a simulation (the scanner's probes, traces); 30 s when omitted, never below the read's. */
  simulationTimeoutMs?: number;
  /** How long a dead or slow provider is passed over before it is tried again. */
  providerCooldownMs?: number;
}

/**
 * Read clients per chain, created once per process and shared. Every read goes through the
 * chain's ProviderPool: failover over its configured providers, each checked once for serving
 * the right chain, with dead and slow ones skipped and named by `degraded()`. Retries across
 * attempts are left to the caller (Temporal retries activities with backoff).
 */
export class ChainClients {
  readonly #rpcUrls: ReadonlyMap<ChainId, readonly string[]>;
  readonly #timeoutMs: number;
  readonly #simulationTimeoutMs: number;
  readonly #cooldownMs: number;
  readonly #pools = new Map<string, ProviderPool>();
  readonly #evm = new Map<string, PublicClient>();
  readonly #solana = new Map<string, Connection>();

  constructor(options: ChainClientsOptions) {
    this.#rpcUrls = options.rpcUrls;
    this.#timeoutMs = options.requestTimeoutMs ?? 5_000;
    this.#simulationTimeoutMs = Math.max(options.simulationTimeoutMs ?? 30_000, this.#timeoutMs);
    this.#cooldownMs = options.providerCooldownMs ?? 30_000;
  }

  /** Chains with at least one configured endpoint. */
  configured(): ChainId[] {
    return [...this.#rpcUrls.keys()];
  }

  rpcUrls(chain: string): readonly string[] {
    return this.#rpcUrls.get(chain as ChainId) ?? [];
  }

  /** Providers of the chain that are currently skipped, as `rpc:<chain>:<index>`. */
  degraded(chain: string): string[] {
    return this.#pools.get(chain)?.degraded() ?? [];
  }

  providerStatus(chain: string): ProviderStatus[] {
    return this.#pools.get(chain)?.status() ?? [];
  }

  /** A viem client for an EVM chain; a problem when the chain is unknown, not EVM or not configured. */
  evm(chainId: string): PublicClient {
    const existing = this.#evm.get(chainId);
    if (existing) return existing;
    const chain = this.#require(chainId, ChainKind.evm);
    const evmChainId = chain.evmChainId ?? 0;
    const pool = this.#pool(chain, {
      method: 'eth_chainId',
      matches: (result) => typeof result === 'string' && Number.parseInt(result, 16) === evmChainId,
      expected: `chain id ${evmChainId}`,
    });
    const client = createPublicClient({
      chain: toViemChain(chain, evmChainId, this.rpcUrls(chainId)),
      // Reads issued together (an engine's dozen calls) travel as one JSON-RPC batch. The pool
      // times out each provider; this outer timeout only bounds the whole failover.
      transport: http(this.rpcUrls(chainId)[0], {
        fetchFn: splitLargeBatches(pool.fetch),
        timeout: this.#simulationTimeoutMs * (2 * pool.size + 1),
        retryCount: 0,
        batch: { batchSize: 64, wait: 0 },
      }),
      // Scans pin a block and read at it; nothing here benefits from polling caches.
      cacheTime: 0,
      batch: { multicall: false },
    });
    this.#evm.set(chainId, client);
    return client;
  }

  /** A @solana/web3.js connection for a Solana chain, over the same failover pool. */
  solana(chainId: string): Connection {
    const existing = this.#solana.get(chainId);
    if (existing) return existing;
    const chain = this.#require(chainId, ChainKind.solana);
    // CAIP-2 names a Solana cluster by the first 32 characters of its genesis hash.
    const reference = chain.caip2.split(':')[1] ?? '';
    const pool = this.#pool(chain, {
      method: 'getGenesisHash',
      matches: (result) => typeof result === 'string' && result.slice(0, 32) === reference,
      expected: `genesis ${reference}…`,
    });
    const url = this.rpcUrls(chainId)[0] ?? '';
    const connection = new Connection(url, {
      commitment: 'confirmed',
      fetch: pool.fetch,
      // The pool fails over on 429; web3.js's own retry loop would only add delay.
      disableRetryOnRateLimit: true,
    });
    this.#solana.set(chainId, connection);
    return connection;
  }

  #require(chainId: string, kind: ChainKind): ChainInfo {
    const chain = findChain(chainId);
    if (!chain || chain.kind !== kind) {
      throw new VigilError(
        Reason.capabilityNotSupported,
        `${chainId} is not ${kind === 'evm' ? 'an EVM' : `a ${kind}`} chain`,
      );
    }
    if (this.rpcUrls(chainId).filter(isHttp).length === 0) {
      throw new VigilError(Reason.chainUnavailable, `No RPC endpoint is configured for ${chain.name}.`, {
        extensions: { chain: chainId },
      });
    }
    return chain;
  }

  #pool(chain: ChainInfo, identity: ChainIdentity): ProviderPool {
    let pool = this.#pools.get(chain.id);
    if (!pool) {
      pool = new ProviderPool({
        chain: chain.id,
        urls: this.rpcUrls(chain.id).filter(isHttp),
        timeoutMs: this.#timeoutMs,
        simulationTimeoutMs: this.#simulationTimeoutMs,
        cooldownMs: this.#cooldownMs,
        identity,
      });
      this.#pools.set(chain.id, pool);
    }
    return pool;
  }
}

function isHttp(url: string): boolean {
  return url.startsWith('http:') || url.startsWith('https:');
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
    rpcUrls: { default: { http: urls.filter(isHttp) } },
  });
}
