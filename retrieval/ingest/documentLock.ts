import type { Redis } from 'ioredis';
import { LockBusyError, RedisLock } from '../../core/stores/redisLock.ts';

/** Longest a commit may hold its document: past it the lock lapses, so a crashed holder blocks no one for long. */
const HOLD_MS = 60_000;
const POLL_MS = 50;

/**
 * One commit at a time per document, across every ingest worker. A commit reads the document's
 * indexed version and then replaces its chunks; two versions committing at once could both read
 * the same old version and the older could land last. Under the lock the later commit reads what
 * the earlier wrote, and an older version is dropped as superseded.
 */
export class DocumentLocks {
  readonly #lock: RedisLock;

  constructor(redis: Redis) {
    this.#lock = new RedisLock(redis, { holdMs: HOLD_MS, pollMs: POLL_MS });
  }

  static key(docId: string): string {
    return `ingest:v1:commit-lock:${docId}`;
  }

  /** Runs `work` holding the document's lock; waits up to `waitMs` for it (then throws, and the activity retries). */
  async withLock<T>(docId: string, work: () => Promise<T>, waitMs = HOLD_MS): Promise<T> {
    return this.#lock.withLock(DocumentLocks.key(docId), work, waitMs).catch((error: unknown) => {
      if (error instanceof LockBusyError)
        throw new Error(`document ${docId} is being committed by another job`);
      throw error;
    });
  }
}
