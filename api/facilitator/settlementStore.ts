import type { PendingSettlementStore } from '@x402/core/facilitator';
import type { SettleResponse } from '@x402/core/types';
import type { Redis } from 'ioredis';

const RESULT_TTL_SECONDS = 30 * 86_400;
const PENDING_TTL_SECONDS = 3_600;

/**
 * What makes settlement idempotent across requests and facilitator replicas, in Redis: the final
 * answer per authorization (the same authorization always gets the same result), a lock so one
 * replica settles at a time, and the SDK's store of broadcast-but-unconfirmed transactions, so a
 * retried settle reconciles against the hash instead of sending again.
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

  async result(key: string): Promise<SettleResponse | undefined> {
    const raw = await this.#redis.get(`x402:settled:${key}`);
    return raw === null ? undefined : (JSON.parse(raw) as SettleResponse);
  }

  async saveResult(key: string, result: SettleResponse): Promise<void> {
    await this.#redis.set(`x402:settled:${key}`, JSON.stringify(result), 'EX', RESULT_TTL_SECONDS);
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
