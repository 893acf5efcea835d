import type { Redis } from 'ioredis';
import { publishWord, type WordLost } from '../clients/jobWords.ts';
import type { ScrapeOutcome } from '../core/scrape/outcome.ts';
import type { Content } from './convert/convert.ts';

/**
 * Converted pages and screenshots, kept in Redis for a short TTL under the job's id: page bodies
 * never enter workflow history (Temporal payloads are limited to a few MB and history is kept
 * for the retention period); activities and the API pass keys.
 */
export class PageStore {
  readonly #redis: Redis;
  readonly #ttlSeconds: number;
  readonly #onWordLost: WordLost | undefined;

  /** `onWordLost`: told when a scrape's word could not be published (the Redis user may not, say). */
  constructor(redis: Redis, ttlSeconds: number, onWordLost?: WordLost) {
    this.#redis = redis;
    this.#ttlSeconds = ttlSeconds;
    this.#onWordLost = onWordLost;
  }

  /** Stores a page; returns its key and size in bytes. */
  async putContent(jobId: string, tier: string, content: Content): Promise<{ key: string; bytes: number }> {
    const key = `scraper:page:${jobId}:${tier}:content`;
    const value = JSON.stringify(content);
    await this.#redis.set(key, value, 'EX', this.#ttlSeconds);
    return { key, bytes: Buffer.byteLength(value) };
  }

  async putScreenshot(jobId: string, tier: string, png: Buffer): Promise<string> {
    const key = `scraper:page:${jobId}:${tier}:screenshot`;
    await this.#redis.set(key, png, 'EX', this.#ttlSeconds);
    return key;
  }

  /**
   * The channel a tier that got a page announces the scrape's answer on (`<job id> <outcome
   * JSON>`), read by the service's waiting request (clients/jobWords.ts). ioredis does not prefix
   * channels, so the deployment's key prefix is added here.
   */
  static doneChannel(redis: Redis): string {
    return `${redis.options.keyPrefix ?? ''}scraper:done`;
  }

  /** Tells the waiting request the answer (best effort: a lost word costs only time). */
  announce(jobId: string, outcome: ScrapeOutcome): void {
    publishWord(
      this.#redis,
      PageStore.doneChannel(this.#redis),
      `${jobId} ${JSON.stringify(outcome)}`,
      this.#onWordLost,
    );
  }

  /** A stored page's content; undefined once it expired or was evicted. */
  async content(key: string): Promise<Content> {
    const value = await this.#redis.get(key);
    return value === null ? undefined : (JSON.parse(value) as Content);
  }

  async screenshotBase64(key: string): Promise<string | undefined> {
    const value = await this.#redis.getBuffer(key);
    return value === null ? undefined : value.toString('base64');
  }
}
