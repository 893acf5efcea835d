import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { luaScript } from '../../core/stores/lua/luaScript.ts';

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
  readonly #redis: Redis;
  readonly #release: ReturnType<typeof luaScript>;

  constructor(redis: Redis) {
    this.#redis = redis;
    this.#release = luaScript(redis, 'releaseDocumentLock', 1, new URL('./lua/', import.meta.url));
  }

  static key(docId: string): string {
    return `ingest:v1:commit-lock:${docId}`;
  }

  /** Runs `work` holding the document's lock; waits up to `waitMs` for it (then throws, and the activity retries). */
  async withLock<T>(docId: string, work: () => Promise<T>, waitMs = HOLD_MS): Promise<T> {
    const key = DocumentLocks.key(docId);
    const token = randomUUID();
    const deadline = Date.now() + waitMs;
    while ((await this.#redis.set(key, token, 'PX', HOLD_MS, 'NX')) !== 'OK') {
      if (Date.now() > deadline) throw new Error(`document ${docId} is being committed by another job`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    try {
      return await work();
    } finally {
      await this.#release([key], [token]).catch(() => undefined);
    }
  }
}
