import type { Redis } from 'ioredis';
import type { WordLost } from './jobWords.ts';
import type { StoresEnv } from '../core/config/stores.ts';
import { InvoiceStore } from '../core/stores/invoices.ts';
import { ReceiptStore } from '../core/stores/receipts.ts';
import { TokenFingerprintStore } from '../scanner/fingerprint/fingerprintStore.ts';
import { ScanStore } from '../scanner/scanStore.ts';
import { ReportStore } from '../reports/store.ts';
import { NewsStore } from '../news/store.ts';
import { createMongo, type MongoHandle } from './mongo.ts';
import { createRedis } from './redis.ts';

/** Every store a Vigil process reads or writes, over one MongoDB and one Redis connection. */
export interface Stores {
  mongo: MongoHandle;
  redis: Redis;
  scans: ScanStore;
  /** Every scanned EVM token's bytecode fingerprint with its verdict (similar-token search). */
  fingerprints: TokenFingerprintStore;
  receipts: ReceiptStore;
  invoices: InvoiceStore;
  /** Research reports: the record, the rendered formats, who asked for which. */
  reports: ReportStore;
  /** News items read from the feeds, deduplicated, with their sentiment and linked tokens. */
  news: NewsStore;
}

type StoreSettings = Pick<
  StoresEnv,
  | 'MONGODB_URI'
  | 'MONGODB_DB'
  | 'REDIS_URL'
  | 'REDIS_KEY_PREFIX'
  | 'REDIS_TLS_CA_PATH'
  | 'SCAN_CACHE_TTL_SECONDS'
  | 'SCAN_JOB_CACHE_TTL_SECONDS'
>;

export interface StoreOptions {
  /**
   * Request paths fail fast while Redis is down (a route degrades or answers a problem at once);
   * workers wait for it instead, since Temporal retries their activities anyway.
   */
  failFast: boolean;
  /** Told when a job's word could not be published (see clients/jobWords.ts). */
  onWordLost?: WordLost;
}

/**
 * The one store factory: the API services and the worker pools build their stores here, from the
 * same settings, so a store is configured the same way in every process. A new domain adds its
 * store to `Stores` and builds it here.
 */
export function createStores(env: StoreSettings, { failFast, onWordLost }: StoreOptions): Stores {
  const mongo = createMongo(env.MONGODB_URI, env.MONGODB_DB);
  const redis = createRedis(env.REDIS_URL, {
    failFast,
    keyPrefix: env.REDIS_KEY_PREFIX,
    tlsCaPath: env.REDIS_TLS_CA_PATH,
  });
  return {
    mongo,
    redis,
    scans: new ScanStore({
      db: mongo.db,
      redis,
      ttlSeconds: env.SCAN_CACHE_TTL_SECONDS,
      jobTtlSeconds: env.SCAN_JOB_CACHE_TTL_SECONDS,
      ...(onWordLost ? { onWordLost } : {}),
    }),
    fingerprints: new TokenFingerprintStore(mongo.db, redis),
    receipts: new ReceiptStore(mongo.db, redis),
    invoices: new InvoiceStore(mongo.db, redis),
    reports: new ReportStore(mongo.db),
    news: new NewsStore(mongo.db),
  };
}

export async function closeStores(stores: Pick<Stores, 'mongo' | 'redis'>): Promise<void> {
  await Promise.allSettled([stores.mongo.close(), stores.redis.quit()]);
}
