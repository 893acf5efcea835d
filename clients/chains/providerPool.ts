import { redactUrl } from '../../core/errors/redactUrl.ts';

/** How a provider stands, as the pool last saw it. */
export const ProviderState = {
  healthy: 'healthy',
  /** Refused the connection, or answered with a server error. */
  down: 'down',
  /** Did not answer within the request timeout. */
  slow: 'slow',
  /** Serves another chain than the one it is configured for; never used again by this process. */
  wrongChain: 'wrong_chain',
} as const;
export type ProviderState = (typeof ProviderState)[keyof typeof ProviderState];

export interface ProviderStatus {
  /** `rpc:<chain>:<index>`: the name X-Degraded-Stores and /health use; never the URL. */
  name: string;
  endpoint: string;
  state: ProviderState;
  detail?: string;
}

/** How to ask a provider which chain it serves, and whether the answer is the expected one. */
export interface ChainIdentity {
  method: string;
  params?: unknown[];
  matches(result: unknown): boolean;
  expected: string;
}

export interface ProviderPoolOptions {
  chain: string;
  urls: readonly string[];
  /** Per attempt; a provider slower than this is skipped for the next one. */
  timeoutMs: number;
  /**
   * Per attempt, for a simulation (isSimulation): code run in the node's EVM that a read is not,
   * which a loaded node may queue behind others. `timeoutMs` when omitted.
   */
  simulationTimeoutMs?: number;
  /** Checked once per provider before its first use; absent for chains without one. */
  identity?: ChainIdentity;
  /** How long a dead or slow provider is passed over before it is tried again. */
  cooldownMs?: number;
}

interface Provider {
  name: string;
  url: string;
  state: ProviderState;
  detail?: string;
  /** When a down or slow provider may be tried again. */
  retryAt: number;
  identity?: Promise<boolean> | undefined;
}

/** A JSON-RPC request that no provider could answer; the cause is the last provider's failure. */
export class ProvidersUnavailableError extends TypeError {
  override readonly name = 'ProvidersUnavailableError';
}

/**
 * Failover over a chain's JSON-RPC providers at the fetch level, so viem and @solana/web3.js
 * both use it unchanged (it is their `fetch`). Providers are tried in configured order; one that
 * refuses, errors with 5xx/429 or times out is marked and skipped for a cooldown, and one that
 * serves another chain is dropped for good. A JSON-RPC error in a 200 answer is the node's
 * answer (a revert, say) and is returned as is: failing over would not change it.
 */
export class ProviderPool {
  readonly chain: string;
  readonly #providers: Provider[];
  readonly #timeoutMs: number;
  readonly #simulationTimeoutMs: number;
  readonly #identity: ChainIdentity | undefined;
  readonly #cooldownMs: number;

  constructor(options: ProviderPoolOptions) {
    this.chain = options.chain;
    this.#providers = options.urls.map((url, index) => ({
      name: `rpc:${options.chain}:${index}`,
      url,
      state: ProviderState.healthy,
      retryAt: 0,
    }));
    this.#timeoutMs = options.timeoutMs;
    this.#simulationTimeoutMs = options.simulationTimeoutMs ?? options.timeoutMs;
    this.#identity = options.identity;
    this.#cooldownMs = options.cooldownMs ?? 30_000;
  }

  get size(): number {
    return this.#providers.length;
  }

  /** A fetch that sends the request body to the first provider that answers. */
  readonly fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const now = Date.now();
    const usable = this.#providers.filter((provider) => provider.state !== ProviderState.wrongChain);
    // Providers in their cooldown are kept as a last resort: better a slow answer than none.
    const ordered = [
      ...usable.filter((provider) => provider.retryAt <= now),
      ...usable.filter((provider) => provider.retryAt > now),
    ];
    let lastError: unknown = new Error('no provider serves this chain');
    const timeoutMs = isSimulation(init?.body) ? this.#simulationTimeoutMs : this.#timeoutMs;
    for (const provider of ordered) {
      if (init?.signal?.aborted) break;
      if (!(await this.#verified(provider))) {
        lastError = new Error(provider.detail ?? 'wrong chain');
        continue;
      }
      try {
        const response = await this.#send(provider, init, timeoutMs);
        if (response.status >= 500 || response.status === 429) {
          this.#mark(provider, ProviderState.down, `HTTP ${response.status}`);
          lastError = new Error(`HTTP ${response.status}`);
          continue;
        }
        this.#mark(provider, ProviderState.healthy);
        return response;
      } catch (error) {
        if (init?.signal?.aborted) throw error;
        const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
        this.#mark(
          provider,
          timedOut ? ProviderState.slow : ProviderState.down,
          timedOut ? `no answer within ${timeoutMs} ms` : describe(error),
        );
        lastError = error;
      }
    }
    throw new ProvidersUnavailableError(
      `no RPC provider of ${this.chain} answered (${this.#providers.map((p) => `${p.name} ${p.state}`).join(', ')})`,
      { cause: lastError },
    );
  };

  /** Providers currently not healthy, by name. */
  degraded(): string[] {
    return this.#providers
      .filter((provider) => provider.state !== ProviderState.healthy)
      .map((provider) => provider.name);
  }

  status(): ProviderStatus[] {
    return this.#providers.map((provider) => ({
      name: provider.name,
      endpoint: redactUrl(provider.url),
      state: provider.state,
      ...(provider.detail === undefined ? {} : { detail: provider.detail }),
    }));
  }

  async #send(
    provider: Provider,
    init: RequestInit | undefined,
    timeoutMs = this.#timeoutMs,
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(provider.url, { ...init, signal });
    // Read the body inside the timeout: a provider that sends headers and then stalls is slow too.
    const body = await response.arrayBuffer();
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** Asks the provider once which chain it serves; false when it serves another one. */
  #verified(provider: Provider): Promise<boolean> {
    const identity = this.#identity;
    if (!identity) return Promise.resolve(true);
    provider.identity ??= (async () => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: identity.method,
        params: identity.params ?? [],
      });
      try {
        const response = await this.#send(provider, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const json = (await response.json()) as { result?: unknown };
        if (identity.matches(json.result)) return true;
        this.#mark(
          provider,
          ProviderState.wrongChain,
          `serves ${JSON.stringify(json.result ?? null).slice(0, 80)}, expected ${identity.expected}`,
        );
        return false;
      } catch {
        // Unreachable is not wrong: ask again next time, and let the request itself find it down.
        provider.identity = undefined;
        return true;
      }
    })();
    return provider.identity;
  }

  #mark(provider: Provider, state: ProviderState, detail?: string): void {
    if (provider.state === ProviderState.wrongChain) return;
    provider.state = state;
    provider.retryAt = state === ProviderState.healthy ? 0 : Date.now() + this.#cooldownMs;
    if (detail === undefined) delete provider.detail;
    else provider.detail = detail;
  }
}

/**
 * A request that runs code in the node's EVM beyond a read: eth_simulateV1, a traced call, or a
 * call with code put in place by a state override (the scanner's detector). Told from the body's
 * text, which viem and web3.js send as a string.
 */
export function isSimulation(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  return (
    body.includes('"eth_simulateV1"') || body.includes('"debug_traceCall"') || body.includes('"code":"0x')
  );
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const text = cause instanceof Error ? `${cause.message}` : String(cause);
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"')]+/gi, (url) => redactUrl(url)).slice(0, 200);
}
