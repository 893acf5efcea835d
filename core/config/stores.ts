import { z } from 'zod';
import { BoolEnv, IntEnv, LogLevel, OptionalEnv } from './env.ts';

/** Connection settings every Vigil process shares: the workflow engine and the two stores. */
export const StoresEnv = z.object({
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  /**
   * How a deployment's Temporal knows Vigil: mTLS (a client certificate and key, PEM files), an
   * API key (Temporal Cloud), server TLS alone, or none (the embedded stack on loopback).
   */
  TEMPORAL_TLS: OptionalEnv.pipe(BoolEnv.optional()),
  TEMPORAL_TLS_CA_PATH: OptionalEnv,
  TEMPORAL_TLS_CERT_PATH: OptionalEnv,
  TEMPORAL_TLS_KEY_PATH: OptionalEnv,
  TEMPORAL_TLS_SERVER_NAME: OptionalEnv,
  TEMPORAL_API_KEY: OptionalEnv,
  /** Prepended to every task queue name, so deployments can share a namespace. */
  TASK_QUEUE_PREFIX: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9._-]*$/)
    .default(''),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URI')
    .default('mongodb://127.0.0.1:27017'),
  MONGODB_DB: z.string().min(1).default('vigil'),
  /**
   * redis://[user:password@]host:port[/db], or rediss:// for TLS: a password or an ACL user is
   * how a deployment's Redis knows each process (docs/security.md).
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URI')
    .default('redis://127.0.0.1:6379'),
  /** The CA that signed the Redis server's certificate (rediss:// with a private CA). */
  REDIS_TLS_CA_PATH: OptionalEnv,
  /** Prefix of every Redis key Vigil writes, so deployments (or test runs) can share a Redis. */
  REDIS_KEY_PREFIX: z.string().max(64).default('vigil:'),
  /** How long a finished scan answers from the Redis cache before a new scan runs. */
  SCAN_CACHE_TTL_SECONDS: IntEnv(0, 86_400).default(300),
  /** How long a finished job's result stays in Redis for status reads (then Temporal, then MongoDB). */
  SCAN_JOB_CACHE_TTL_SECONDS: IntEnv(1, 604_800).default(3_600),
  LOG_LEVEL: LogLevel.default('info'),
});
export type StoresEnv = z.infer<typeof StoresEnv>;
