import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { luaScript } from './lua/luaScript.ts';

export interface RedisLockOptions {
  /** Longest a holder keeps the lock: past it the lock lapses, so a crashed holder blocks no one for long. */
  holdMs: number;
  /** How often a waiter tries again. */
  pollMs: number;
}

/** The lock stayed taken for as long as the caller would wait. */
export class LockBusyError extends Error {
  override readonly name = 'LockBusyError';
}

/**
 * A mutual-exclusion lock per name across every process sharing the Redis: SET NX PX to take it,
 * released only by its holder (a token compared in Lua). For read-modify-write sequences the
 * database cannot make atomic itself; FerretDB, the embedded stack's MongoDB, applies concurrent
 * updates of one document as unlocked reads and writes, so two `$set`s at once may lose one.
 */
export class RedisLock {
  readonly #redis: Redis;
  readonly #release: ReturnType<typeof luaScript>;
  readonly #options: RedisLockOptions;

  constructor(redis: Redis, options: RedisLockOptions) {
    this.#redis = redis;
    this.#release = luaScript(redis, 'releaseLock', 1);
    this.#options = options;
  }

  /** Runs `work` holding the lock `key`; waits up to `waitMs` for it, then throws (callers retry). */
  async withLock<T>(key: string, work: () => Promise<T>, waitMs = this.#options.holdMs): Promise<T> {
    const token = randomUUID();
    const deadline = Date.now() + waitMs;
    while ((await this.#redis.set(key, token, 'PX', this.#options.holdMs, 'NX')) !== 'OK') {
      if (Date.now() > deadline) throw new LockBusyError(`${key} is held by another writer`);
      await new Promise((resolve) => setTimeout(resolve, this.#options.pollMs));
    }
    try {
      return await work();
    } finally {
      await this.#release([key], [token]).catch(() => undefined);
    }
  }
}
