import type { Redis } from 'ioredis';
import type { PreparedChunk } from './document.ts';

/** How long an uploaded body and its chunks wait for the ingest that reads them. */
const TTL_SECONDS = 24 * 3_600;

/**
 * Documents in flight between the API and the ingest pool, in Redis: the uploaded body, and the
 * chunks the prepare step made (so a retried or resumed ingest re-embeds from the same chunks).
 * Only their keys pass through workflow history, which keeps large documents out of it.
 */
export class IngestBodies {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  static bodyKey(name: string): string {
    return `ingest:v1:body:${name}`;
  }

  static chunksKey(jobKey: string): string {
    return `ingest:v1:chunks:${jobKey}`;
  }

  async putBody(key: string, body: string): Promise<void> {
    await this.#redis.set(key, body, 'EX', TTL_SECONDS);
  }

  async body(key: string): Promise<string | undefined> {
    return (await this.#redis.get(key)) ?? undefined;
  }

  async putChunks(jobKey: string, chunks: readonly PreparedChunk[]): Promise<void> {
    await this.#redis.set(IngestBodies.chunksKey(jobKey), JSON.stringify(chunks), 'EX', TTL_SECONDS);
  }

  async chunks(jobKey: string): Promise<PreparedChunk[] | undefined> {
    const raw = await this.#redis.get(IngestBodies.chunksKey(jobKey));
    return raw === null ? undefined : (JSON.parse(raw) as PreparedChunk[]);
  }

  async forget(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.#redis.del(...keys);
  }
}
