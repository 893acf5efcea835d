import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { traceRedis } from './tracing.ts';

export interface RedisOptions {
  /** Fail commands within about a second while Redis is down, instead of waiting for it. */
  failFast?: boolean;
  /** Prepended to every key (ioredis keyPrefix). */
  keyPrefix?: string;
  /** The CA of a rediss:// server with a private certificate (REDIS_TLS_CA_PATH). */
  tlsCaPath?: string | undefined;
}

/**
 * A Redis client for request paths. Credentials come with the URL (`redis://user:password@host`:
 * ioredis sends AUTH with the ACL user, or the password alone), TLS with `rediss://`. while Redis is down, commands fail after one reconnection
 * attempt or a short timeout, so a route degrades or answers a problem instead of hanging; the
 * client keeps reconnecting in the background. Commands sent while the first connection is being
 * made wait for it.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const failFast = options.failFast ?? true;
  const redis = new Redis(url, {
    lazyConnect: true,
    keyPrefix: options.keyPrefix ?? '',
    connectTimeout: 2_000,
    maxRetriesPerRequest: failFast ? 1 : 20,
    ...(failFast ? { commandTimeout: 2_000 } : {}),
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    ...(options.tlsCaPath ? { tls: { ca: readFileSync(options.tlsCaPath) } } : {}),
  });
  // Connection errors are reported by health checks; without a listener ioredis logs each one.
  redis.on('error', () => undefined);
  traceRedis(redis);
  redis.connect().catch(() => undefined);
  return redis;
}
