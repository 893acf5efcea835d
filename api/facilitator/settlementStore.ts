import type { PendingSettlementStore } from '@x402/core/facilitator';
import type { SettleResponse } from '@x402/core/types';
import type { Redis } from 'ioredis';

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
  readonly pending: PendingSettlementStore;

  constructor(redis: Redis) {
    this.#redis = redis;
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

  async saveResult(key: string, payloadDigest: string, result: SettleResponse): Promise<void> {
    const name = result.success ? `x402:settled:${key}` : `x402:refused:${key}:${payloadDigest}`;
    await this.#redis.set(name, JSON.stringify(result), 'EX', RESULT_TTL_SECONDS);
  }

  /** True when this caller now holds the settlement lock of the authorization. */
  async lock(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.#redis.set(`x402:settling:${key}`, token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async unlock(key: string, token: string): Promise<void> {
    // Only the holder releases; a lock that expired and was taken by another replica stays.
    if ((await this.#redis.get(`x402:settling:${key}`)) === token)
      await this.#redis.del(`x402:settling:${key}`);
  }

  async isLocked(key: string): Promise<boolean> {
    return (await this.#redis.exists(`x402:settling:${key}`)) === 1;
  }
}
