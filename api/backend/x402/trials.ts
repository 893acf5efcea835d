import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isPaid, TOOLS, type ToolDefinition } from '../../../core/catalog/index.ts';
import { orStoreUnavailable } from '../../../core/errors/storeUnavailable.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { asNumbers, luaScript } from '../../../core/stores/lua/luaScript.ts';
import { type Caller, fingerprintOf, NETWORKS_PER_SITE, SAFE_CLIENT_ID } from '../../plugins/caller.ts';
import type { WalletProofs } from './walletProofs.ts';

/**
 * Who a free call is charged to: a network fingerprint (the client's network and X-Client-ID, or
 * an API key), or a wallet proven by a signed message (a larger allotment).
 */
export interface TrialIdentity {
  kind: 'fingerprint' | 'wallet';
  id: string;
  /** The network whose trial windows also bound the call (null: an API key's, not bound). */
  network: string | null;
  /** The IPv6 site (/48) whose windows bound it too (null: IPv4, or an API key). */
  site: string | null;
}

export interface TrialGrant {
  granted: boolean;
  limit: number;
  remaining: number;
  /** When the next call frees up (ms since epoch), when none is left. */
  resetAt: number | null;
  callId: string;
}

const WALLET = /^0x[0-9a-fA-F]{40}$/;

/**
 * The caller's trial identity: a wallet when X-Wallet-Proof carries a valid proof token (a bad
 * one is refused with 401, never silently downgraded), else, when it sent X-Client-ID, the caller
 * itself (its API key, or its network fingerprint). X-Wallet-Address alone proves nothing.
 */
export async function trialIdentityOf(
  caller: Caller,
  headers: Record<string, string | string[] | undefined>,
  proofs: WalletProofs,
  options: { withoutClientId?: boolean } = {},
): Promise<TrialIdentity | undefined> {
  const network = caller.apiKeyId ? null : caller.network;
  const site = caller.apiKeyId ? null : caller.site;
  const token = single(headers['x-wallet-proof']);
  if (token !== undefined) {
    const wallet = await proofs.resolve(token);
    if (!wallet)
      throw new VigilError(
        'wallet_proof_invalid',
        'X-Wallet-Proof is unknown or expired; sign a new message (GET /api/v1/x402/wallet-proof/nonce).',
        { extensions: { reason: 'token_unknown' } },
      );
    return { kind: 'wallet', id: wallet.toLowerCase(), network, site };
  }
  // A trial is asked for with X-Client-ID; it is counted on the caller (its API key, or its
  // network fingerprint), so a key holder cannot mint trials by rotating client ids either.
  if (caller.clientId) return { kind: 'fingerprint', id: caller.id, network, site };
  // The MCP door's free tier needs no X-Client-ID (agents' clients seldom send headers): the
  // caller is its API key, or its network alone, which every client id on it also draws from.
  if (options.withoutClientId)
    return {
      kind: 'fingerprint',
      id: caller.apiKeyId ? caller.id : fingerprintOf(caller.network, null),
      network,
      site,
    };
  return undefined;
}

/**
 * Parses the {identifier} of GET /api/v1/x402-databus/trials/{identifier}: a wallet, or a client
 * id, which names the fingerprint it makes on the asking caller's own network.
 */
export function identityFromIdentifier(identifier: string, caller: Caller): TrialIdentity | undefined {
  const network = caller.apiKeyId ? null : caller.network;
  const site = caller.apiKeyId ? null : caller.site;
  if (WALLET.test(identifier)) return { kind: 'wallet', id: identifier.toLowerCase(), network, site };
  if (SAFE_CLIENT_ID.test(identifier))
    return { kind: 'fingerprint', id: fingerprintOf(caller.network, identifier), network, site };
  return undefined;
}

/**
 * A free tier other than the catalog's trials: its own counters (keys under `trial:<scope>:`) and
 * the same allotment for every tool and identity. The MCP door's is 5 calls a day per tool.
 */
export interface TrialTier {
  scope: string;
  callsPerWindow: number;
}

/**
 * Free calls per tool and caller in a rolling window, counted atomically in Redis (one sorted set
 * of call times per caller and tool, and one per network and tool that every fingerprint and
 * wallet on that network also draws from). A call that fails or finds no data gives its trial back.
 */
export class Trials {
  readonly #redis: Redis;
  readonly #windowMs: number;
  readonly #clientsPerNetwork: number;
  readonly #consume: ReturnType<typeof luaScript>;
  readonly #tier: TrialTier | undefined;
  readonly #prefix: string;

  constructor(redis: Redis, windowSeconds: number, clientsPerNetwork = 4, tier?: TrialTier) {
    this.#redis = redis;
    this.#windowMs = windowSeconds * 1000;
    this.#clientsPerNetwork = clientsPerNetwork;
    this.#consume = luaScript(redis, 'trialConsume', 'variadic');
    this.#tier = tier;
    this.#prefix = tier ? `trial:${tier.scope}:` : 'trial:';
  }

  key(identity: TrialIdentity, tool: string): string {
    return `${this.#prefix}${tool}:${identity.kind}:${identity.id}`;
  }

  allotment(identity: TrialIdentity, tool: ToolDefinition): number {
    if (this.#tier) return this.#tier.callsPerWindow;
    return identity.kind === 'wallet' ? tool.trials.wallet : tool.trials.fingerprint;
  }

  /** What one network may take of a tool in a window, across all its fingerprints and wallets. */
  networkAllotment(tool: ToolDefinition): number {
    const most = this.#tier
      ? this.#tier.callsPerWindow
      : Math.max(tool.trials.fingerprint, tool.trials.wallet);
    return most * this.#clientsPerNetwork;
  }

  #keys(identity: TrialIdentity, tool: ToolDefinition): { keys: string[]; allotments: number[] } {
    const keys = [this.key(identity, tool.name)];
    const allotments = [this.allotment(identity, tool)];
    if (identity.network) {
      keys.push(`${this.#prefix}${tool.name}:network:${identity.network}`);
      allotments.push(this.networkAllotment(tool));
    }
    if (identity.site) {
      keys.push(`${this.#prefix}${tool.name}:site:${identity.site}`);
      allotments.push(this.networkAllotment(tool) * NETWORKS_PER_SITE);
    }
    return { keys, allotments };
  }

  async consume(identity: TrialIdentity, tool: ToolDefinition): Promise<TrialGrant> {
    const limit = this.allotment(identity, tool);
    const callId = randomUUID();
    if (limit === 0) return { granted: false, limit, remaining: 0, resetAt: null, callId };
    const { keys, allotments } = this.#keys(identity, tool);
    const [granted = 0, used = 0, oldest = 0] = asNumbers(
      await storeCall(() => this.#consume(keys, [Date.now(), this.#windowMs, callId, ...allotments])),
    );
    return {
      granted: granted === 1,
      limit,
      remaining: granted === 1 ? Math.max(0, limit - used) : 0,
      resetAt: granted === 1 ? null : oldest + this.#windowMs,
      callId,
    };
  }

  /** Gives a trial call back (the tool failed or had no data). */
  async release(identity: TrialIdentity, tool: ToolDefinition, callId: string): Promise<void> {
    const { keys } = this.#keys(identity, tool);
    const pipeline = this.#redis.pipeline();
    for (const key of keys) pipeline.zrem(key, callId);
    await pipeline.exec();
  }

  /** Remaining free calls per paid tool (what the caller's own window and its network's allow). */
  async balances(identity: TrialIdentity) {
    const since = Date.now() - this.#windowMs;
    const paid = TOOLS.filter(isPaid);
    const pipeline = this.#redis.pipeline();
    for (const tool of paid)
      for (const key of this.#keys(identity, tool).keys) pipeline.zcount(key, `(${since}`, '+inf');
    const counts = (await storeCall(() => pipeline.exec())) ?? [];
    let at = 0;
    return paid.map((tool) => {
      const { keys, allotments } = this.#keys(identity, tool);
      const used = keys.map(() => Number(counts[at++]?.[1] ?? 0));
      const limit = this.allotment(identity, tool);
      const remaining = Math.max(
        0,
        Math.min(...allotments.map((allotment, index) => allotment - (used[index] ?? 0))),
      );
      return { tool: tool.name, limit, used: used[0] ?? 0, remaining };
    });
  }

  get windowSeconds(): number {
    return this.#windowMs / 1000;
  }
}

/** Trials count in Redis; without it nothing is given away (the call fails closed, 503). */
const storeCall = <T>(call: () => Promise<T>) => orStoreUnavailable('Free trials', call);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
