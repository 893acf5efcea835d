import type { Redis } from 'ioredis';
import { z } from 'zod';
import { mergeCookies, StoredCookie } from './cookies.ts';

const Jar = z.array(StoredCookie);

/**
 * Cookie jars of scrape sessions, one Redis key each, created on first use and kept for the TTL
 * after the last use. A jar never leaves the server and is never shared between sessions.
 */
export class SessionStore {
  readonly #redis: Redis;
  readonly #ttlSeconds: number;

  constructor(redis: Redis, ttlSeconds: number) {
    this.#redis = redis;
    this.#ttlSeconds = ttlSeconds;
  }

  #key(sessionId: string): string {
    return `scraper:session:${sessionId}`;
  }

  async load(sessionId: string): Promise<StoredCookie[]> {
    const raw = await this.#redis.get(this.#key(sessionId));
    if (!raw) return [];
    const parsed = Jar.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  }

  /** Writes what a request ended with, keeping cookies other requests added meanwhile. */
  async save(
    sessionId: string,
    before: readonly StoredCookie[],
    after: readonly StoredCookie[],
  ): Promise<void> {
    const stored = await this.load(sessionId);
    const merged = mergeCookies(stored, before, after);
    await this.#redis.set(this.#key(sessionId), JSON.stringify(merged), 'EX', this.#ttlSeconds);
  }
}
