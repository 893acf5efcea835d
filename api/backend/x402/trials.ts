import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isPaid, TOOLS, type ToolDefinition } from '../../../core/catalog/index.ts';
import { asNumbers, luaScript } from '../../../core/stores/lua/luaScript.ts';

/** Who a free call is charged to: a client fingerprint, or a connected wallet (a larger allotment). */
export interface TrialIdentity {
  kind: 'fingerprint' | 'wallet';
  id: string;
}

export interface TrialGrant {
  granted: boolean;
  limit: number;
  remaining: number;
  /** When the next call frees up (ms since epoch), when none is left. */
  resetAt: number | null;
  callId: string;
}

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const WALLET = /^0x[0-9a-fA-F]{40}$/;

/** The caller's trial identity from X-Wallet-Address (a connected wallet) or X-Client-ID. */
export function trialIdentityOf(
  headers: Record<string, string | string[] | undefined>,
): TrialIdentity | undefined {
  const wallet = single(headers['x-wallet-address']);
  if (wallet && WALLET.test(wallet)) return { kind: 'wallet', id: wallet.toLowerCase() };
  const client = single(headers['x-client-id']);
  if (client && SAFE_ID.test(client)) return { kind: 'fingerprint', id: client };
  return undefined;
}

/** Parses the {identifier} of GET /api/v1/x402-databus/trials/{identifier}. */
export function identityFromIdentifier(identifier: string): TrialIdentity | undefined {
  if (WALLET.test(identifier)) return { kind: 'wallet', id: identifier.toLowerCase() };
  if (SAFE_ID.test(identifier)) return { kind: 'fingerprint', id: identifier };
  return undefined;
}

/**
 * Free calls per tool and caller in a rolling window, counted atomically in Redis (one sorted set
 * of call times per caller and tool). A call that fails or finds no data gives its trial back.
 */
export class Trials {
  readonly #redis: Redis;
  readonly #windowMs: number;
  readonly #consume: ReturnType<typeof luaScript>;

  constructor(redis: Redis, windowSeconds: number) {
    this.#redis = redis;
    this.#windowMs = windowSeconds * 1000;
    this.#consume = luaScript(redis, 'trialConsume', 1);
  }

  static key(identity: TrialIdentity, tool: string): string {
    return `trial:${tool}:${identity.kind}:${identity.id}`;
  }

  allotment(identity: TrialIdentity, tool: ToolDefinition): number {
    return identity.kind === 'wallet' ? tool.trials.wallet : tool.trials.fingerprint;
  }

  async consume(identity: TrialIdentity, tool: ToolDefinition): Promise<TrialGrant> {
    const limit = this.allotment(identity, tool);
    const callId = randomUUID();
    if (limit === 0) return { granted: false, limit, remaining: 0, resetAt: null, callId };
    const [granted = 0, used = 0, oldest = 0] = asNumbers(
      await this.#consume([Trials.key(identity, tool.name)], [Date.now(), this.#windowMs, limit, callId]),
    );
    return {
      granted: granted === 1,
      limit,
      remaining: Math.max(0, limit - used),
      resetAt: granted === 1 ? null : oldest + this.#windowMs,
      callId,
    };
  }

  /** Gives a trial call back (the tool failed or had no data). */
  async release(identity: TrialIdentity, tool: ToolDefinition, callId: string): Promise<void> {
    await this.#redis.zrem(Trials.key(identity, tool.name), callId);
  }

  /** Remaining free calls per paid tool. */
  async balances(identity: TrialIdentity) {
    const since = Date.now() - this.#windowMs;
    const paid = TOOLS.filter(isPaid);
    const pipeline = this.#redis.pipeline();
    for (const tool of paid) pipeline.zcount(Trials.key(identity, tool.name), `(${since}`, '+inf');
    const counts = (await pipeline.exec()) ?? [];
    return paid.map((tool, index) => {
      const limit = this.allotment(identity, tool);
      const used = Number(counts[index]?.[1] ?? 0);
      return { tool: tool.name, limit, used, remaining: Math.max(0, limit - used) };
    });
  }

  get windowSeconds(): number {
    return this.#windowMs / 1000;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
