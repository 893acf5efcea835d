import { Redis } from 'ioredis';

export interface RedisOptions {
  /** Fail commands at once while disconnected instead of queueing them (keeps the API responsive). */
  failFast?: boolean;
  /** Prepended to every key (ioredis keyPrefix). */
  keyPrefix?: string;
}

/**
 * A Redis client for request paths: commands fail fast while Redis is down, so a route degrades
 * or answers a problem instead of hanging; the client keeps reconnecting in the background.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const failFast = options.failFast ?? true;
  const redis = new Redis(url, {
    lazyConnect: true,
    keyPrefix: options.keyPrefix ?? '',
    connectTimeout: 2_000,
    maxRetriesPerRequest: failFast ? 1 : 20,
    enableOfflineQueue: !failFast,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Connection errors are reported by health checks; without a listener ioredis logs each one.
  redis.on('error', () => undefined);
  redis.connect().catch(() => undefined);
  return redis;
}
