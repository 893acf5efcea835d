import type { PendingSettlementStore } from '@x402/core/facilitator';
import type { SettleResponse } from '@x402/core/types';
import type { Redis } from 'ioredis';
import { luaScript } from '../../core/stores/lua/luaScript.ts';

const RESULT_TTL_SECONDS = 30 * 86_400;
const PENDING_TTL_SECONDS = 3_600;

/**
 * What makes settlement idempotent across requests and facilitator replicas, in Redis: the final
 * answer per authorization (a success belongs to the authorization, since the chain lets its nonce
 * pay once; a final refusal belongs to the signed payload that earned it, so a re-signed
 * authorization with the same nonce is judged on its own), a lock so one replica settles at a
 * time, and the SDK's store of broadcast-but-unconfirmed transactions, so a retried settle
 * reconciles against the hash instead of sending again.
 */
export class SettlementStore {
  readonly #redis: Redis;
  readonly #claim: ReturnType<typeof luaScript>;
  readonly #release: ReturnType<typeof luaScript>;
  readonly pending: PendingSettlementStore;

  constructor(redis: Redis) {
    this.#redis = redis;
    this.#claim = luaScript(redis, 'settleClaim', 3);
    this.#release = luaScript(redis, 'settleRelease', 2);
    this.pending = {
      get: async (key) => (await redis.get(`x402:pending:${key}`)) ?? undefined,
      set: async (key, txHash) => {
        await redis.set(`x402:pending:${key}`, txHash, 'EX', PENDING_TTL_SECONDS);
      },
      delete: async (key) => {
        await redis.del(`x402:pending:${key}`);
      },
    };
  }

  async result(key: string, payloadDigest: string): Promise<SettleResponse | undefined> {
    const [settled, refused] = await this.#redis.mget(
      `x402:settled:${key}`,
      `x402:refused:${key}:${payloadDigest}`,
    );
    const raw = settled ?? refused;
    return raw === null || raw === undefined ? undefined : (JSON.parse(raw) as SettleResponse);
  }

  /**
   * In one round trip: the final answer when there is one, otherwise the settlement lock of the
   * authorization (`claimed`) or the news that another request holds it.
   */
  async claim(
    key: string,
    payloadDigest: string,
    token: string,
    ttlMs: number,
  ): Promise<{ answer: SettleResponse } | { claimed: boolean }> {
    const reply = await this.#claim(
      [`x402:settled:${key}`, `x402:refused:${key}:${payloadDigest}`, `x402:settling:${key}`],
      [token, ttlMs],
    );
    if (!Array.isArray(reply)) throw new Error('unexpected settlement claim reply');
    const [state, answer] = reply;
    if (Number(state) === 2) return { answer: JSON.parse(String(answer)) as SettleResponse };
    return { claimed: Number(state) === 1 };
  }

  /** In one round trip: stores the final answer (when there is one) and releases the lock if still ours. */
  async release(key: string, payloadDigest: string, token: string, result: SettleResponse | undefined) {
    const name = result?.success ? `x402:settled:${key}` : `x402:refused:${key}:${payloadDigest}`;
    await this.#release(
      [name, `x402:settling:${key}`],
      [token, result ? JSON.stringify(result) : '', RESULT_TTL_SECONDS],
    );
  }

  async isLocked(key: string): Promise<boolean> {
    return (await this.#redis.exists(`x402:settling:${key}`)) === 1;
  }
}
