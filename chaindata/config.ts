import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigError, IntEnv } from '../core/config/env.ts';
import { type AnalyticsLimits, sizeInBytes } from './analytics/engine.ts';
import {
  type ChaindataLocation,
  isObjectRoot,
  type ObjectStorage,
  parseObjectRoot,
} from './storage/location.ts';

const REPO_DATA_DIR = fileURLToPath(new URL('../.data', import.meta.url));

/** Settings of the chain-data readers (the backend's analytics engine and data bus). */
export const ChaindataEnvShape = {
  VIGIL_DATA_DIR: z.string().optional(),
  /** Root of the indexed chain data: a folder, or s3://bucket/prefix; default: <VIGIL_DATA_DIR>/chaindata. */
  CHAINDATA_DIR: z.string().optional(),
  ...ObjectStorageEnvShape(),
  ANALYTICS_QUERY_TIMEOUT_MS: IntEnv(100, 600_000).default(5_000),
  ANALYTICS_MAX_ROWS: IntEnv(1, 1_000).default(1_000),
  ANALYTICS_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'a size such as 512MB')
    .default('512MB'),
  ANALYTICS_THREADS: IntEnv(1, 64).default(2),
  ANALYTICS_CONCURRENCY: IntEnv(1, 64).default(2),
  /**
   * Resident memory a query's process may reach (MiB); default twice ANALYTICS_MEMORY_LIMIT + 512.
   * At least 512 and ANALYTICS_MEMORY_LIMIT + 256: a process idles at about 250 MiB, and a bound
   * under that would stop every query that runs longer than one reading of it.
   */
  ANALYTICS_PROCESS_MEMORY_MB: IntEnv(512, 1_048_576).optional(),
  /** How far back the data bus reads live from a chain's RPC when the index does not cover it. */
  DATABUS_LIVE_WINDOW_BLOCKS: IntEnv(1, 1_000_000).default(5_000),
};

export interface ChaindataSettings {
  location: ChaindataLocation;
  limits: Partial<AnalyticsLimits>;
  liveWindowBlocks: number;
}

export function chaindataSettings(
  env: ObjectStorageEnv & {
    VIGIL_DATA_DIR?: string | undefined;
    CHAINDATA_DIR?: string | undefined;
    ANALYTICS_QUERY_TIMEOUT_MS: number;
    ANALYTICS_MAX_ROWS: number;
    ANALYTICS_MEMORY_LIMIT: string;
    ANALYTICS_THREADS: number;
    ANALYTICS_CONCURRENCY: number;
    ANALYTICS_PROCESS_MEMORY_MB?: number | undefined;
    DATABUS_LIVE_WINDOW_BLOCKS: number;
  },
): ChaindataSettings {
  const engineMib = sizeInBytes(env.ANALYTICS_MEMORY_LIMIT) / 2 ** 20;
  if (env.ANALYTICS_PROCESS_MEMORY_MB !== undefined && env.ANALYTICS_PROCESS_MEMORY_MB < engineMib + 256)
    throw new ConfigError([
      `ANALYTICS_PROCESS_MEMORY_MB: must be at least ANALYTICS_MEMORY_LIMIT + 256 MiB (${Math.ceil(engineMib + 256)}): the process needs room beside the engine's own limit`,
    ]);
  return {
    location: chaindataLocation(env),
    limits: {
      timeoutMs: env.ANALYTICS_QUERY_TIMEOUT_MS,
      maxRows: env.ANALYTICS_MAX_ROWS,
      memoryLimit: env.ANALYTICS_MEMORY_LIMIT,
      threads: env.ANALYTICS_THREADS,
      concurrency: env.ANALYTICS_CONCURRENCY,
      ...(env.ANALYTICS_PROCESS_MEMORY_MB === undefined
        ? {}
        : { processMemoryMb: env.ANALYTICS_PROCESS_MEMORY_MB }),
    },
    liveWindowBlocks: env.DATABUS_LIVE_WINDOW_BLOCKS,
  };
}

/** CHAINDATA_DIR, else <VIGIL_DATA_DIR>/chaindata, else the repository's .data/chaindata; absolute. */
function chaindataRoot(env: {
  VIGIL_DATA_DIR?: string | undefined;
  CHAINDATA_DIR?: string | undefined;
}): string {
  return path.resolve(env.CHAINDATA_DIR ?? path.join(env.VIGIL_DATA_DIR ?? REPO_DATA_DIR, 'chaindata'));
}

/** Object storage settings, read only when CHAINDATA_DIR is an s3:// root. */
function ObjectStorageEnvShape() {
  return {
    /** The S3-compatible service's URL (http://minio:9000, say); unset for AWS S3. */
    CHAINDATA_S3_ENDPOINT: z.url().optional(),
    CHAINDATA_S3_REGION: z.string().min(1).default('us-east-1'),
    CHAINDATA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    CHAINDATA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** path (bucket in the path; most S3-compatible stores) or vhost (AWS); default path with an endpoint. */
    CHAINDATA_S3_URL_STYLE: z.enum(['path', 'vhost']).optional(),
  };
}
export const ObjectStorageEnv = z.object(ObjectStorageEnvShape());
export type ObjectStorageEnv = Partial<z.infer<typeof ObjectStorageEnv>>;

/**
 * Where the chain data is: the folder chaindataRoot() names, or, for an s3://bucket/prefix root,
 * that prefix with its object storage settings (the labels then stay on the local disk, under
 * <VIGIL_DATA_DIR>/chaindata).
 */
export function chaindataLocation(
  env: ObjectStorageEnv & { VIGIL_DATA_DIR?: string | undefined; CHAINDATA_DIR?: string | undefined },
): ChaindataLocation {
  const configured = env.CHAINDATA_DIR?.trim();
  if (!configured || !isObjectRoot(configured)) {
    const root = chaindataRoot(env);
    return { root, localRoot: root };
  }
  // Checked here, at boot, with messages that never repeat a value (a mistyped one may hold a
  // credential): a root or endpoint DuckDB and the AWS SDK read differently would otherwise fail
  // every query later, or read one place and write another.
  const issues: string[] = [];
  let root: { bucket: string; prefix: string } | undefined;
  try {
    root = parseObjectRoot(configured);
  } catch {
    issues.push(
      'CHAINDATA_DIR: not s3://bucket/prefix (a bucket name, then /-separated names of letters, digits and ._-=, without . or ..)',
    );
  }
  if (!env.CHAINDATA_S3_ACCESS_KEY_ID || !env.CHAINDATA_S3_SECRET_ACCESS_KEY)
    issues.push(
      'CHAINDATA_DIR is an s3:// root: set CHAINDATA_S3_ACCESS_KEY_ID and CHAINDATA_S3_SECRET_ACCESS_KEY',
    );
  const endpoint = env.CHAINDATA_S3_ENDPOINT === undefined ? undefined : URL.parse(env.CHAINDATA_S3_ENDPOINT);
  if (
    endpoint !== undefined &&
    (!endpoint ||
      !['http:', 'https:'].includes(endpoint.protocol) ||
      endpoint.username !== '' ||
      endpoint.password !== '' ||
      endpoint.pathname !== '/' ||
      endpoint.search !== '' ||
      endpoint.hash !== '')
  )
    issues.push(
      'CHAINDATA_S3_ENDPOINT: the service as http(s)://host[:port], without a path, query or credentials',
    );
  if (env.CHAINDATA_S3_REGION !== undefined && !/^[a-z0-9-]{1,64}$/.test(env.CHAINDATA_S3_REGION))
    issues.push('CHAINDATA_S3_REGION: a region name such as us-east-1');
  if (!root || !env.CHAINDATA_S3_ACCESS_KEY_ID || !env.CHAINDATA_S3_SECRET_ACCESS_KEY || issues.length > 0)
    throw new ConfigError(issues);
  const { bucket, prefix } = root;
  const objectStorage: ObjectStorage = {
    endpoint: env.CHAINDATA_S3_ENDPOINT,
    region: env.CHAINDATA_S3_REGION ?? 'us-east-1',
    accessKeyId: env.CHAINDATA_S3_ACCESS_KEY_ID,
    secretAccessKey: env.CHAINDATA_S3_SECRET_ACCESS_KEY,
    urlStyle: env.CHAINDATA_S3_URL_STYLE ?? (env.CHAINDATA_S3_ENDPOINT ? 'path' : 'vhost'),
  };
  return {
    root: prefix ? `s3://${bucket}/${prefix}` : `s3://${bucket}`,
    localRoot: chaindataRoot({ VIGIL_DATA_DIR: env.VIGIL_DATA_DIR }),
    objectStorage,
  };
}
