import { Client, Connection } from '@temporalio/client';
import type { Redis } from 'ioredis';
import { JobWords } from '../../clients/jobWords.ts';
import { createRedis } from '../../clients/redis.ts';
import { temporalClientPlugins, temporalConnectionOptions } from '../../clients/temporal.ts';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';
import { resolveChromiumPath } from '../../scraper/browser/launchOptions.ts';
import { PageStore } from '../../scraper/pageStore.ts';
import { CallerLimiter } from '../../scraper/politeness/callerLimiter.ts';
import { DomainLimiter } from '../../scraper/politeness/domainLimiter.ts';
import { parseAllowlist, parsePortPolicy } from '../../scraper/ssrf/addressPolicy.ts';
import type { ApiKeyEntry, TrustProxy } from '../plugins/callerConfig.ts';
import { EgressGuard } from '../../scraper/ssrf/guard.ts';
import { StrategyStore } from '../../scraper/strategy/strategyStore.ts';
import { readVersionInfo, type VersionInfo } from '../backend/version.ts';
import type { ScraperApiEnv } from './config.ts';

/** Everything the scraper service talks to; tests build it from real local services. */
export interface ScraperDeps {
  temporal: { client: Client; connection: Connection };
  /** The scraper's own Redis (SCRAPER_REDIS_URL, else REDIS_URL): nothing here touches payment state. */
  redis: Redis;
  /** Who may call (SCRAPER_API_KEYS) and how the client address is read. */
  access: { apiKeys: ApiKeyEntry[]; trustProxy: TrustProxy; ipv6Prefix: number };
  pages: PageStore;
  /** Word of a page a tier got, ahead of the workflow's result (PageStore.announce). */
  words: JobWords;
  strategies: StrategyStore;
  callers: CallerLimiter;
  /** Read-only here: a domain's back-off, shown by the strategies route. */
  domains: DomainLimiter;
  /** URL shape and literal-address checks before a job starts (DNS is checked by the job). */
  guard: EgressGuard;
  taskQueue: string;
  timeoutMaxMs: number;
  strategy: { decayMs: number; recheckRatio: number; proxyConfigured: boolean };
  chromiumPath: string;
  version: VersionInfo;
}

export function createScraperDeps(env: ScraperApiEnv): ScraperDeps {
  const connection = Connection.lazy(temporalConnectionOptions(env));
  const client = new Client({
    connection,
    namespace: env.TEMPORAL_NAMESPACE,
    plugins: temporalClientPlugins(),
  });
  const redis = createRedis(env.SCRAPER_REDIS_URL ?? env.REDIS_URL, {
    keyPrefix: env.REDIS_KEY_PREFIX,
    tlsCaPath: env.REDIS_TLS_CA_PATH,
  });
  return {
    temporal: { client, connection },
    redis,
    access: {
      apiKeys: env.SCRAPER_API_KEYS,
      trustProxy: env.TRUST_PROXY,
      ipv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
    },
    pages: new PageStore(redis, env.SCRAPER_PAGE_TTL_SECONDS),
    words: new JobWords(redis, PageStore.doneChannel(redis)),
    strategies: new StrategyStore(redis, {
      ttlSeconds: env.SCRAPER_STRATEGY_TTL_SECONDS,
      halfLifeMs: env.SCRAPER_STRATEGY_DECAY_SECONDS * 1000,
    }),
    callers: new CallerLimiter(redis, env.SCRAPER_CALLER_RATE_PER_MINUTE),
    domains: new DomainLimiter(redis, {
      maxInFlight: env.SCRAPER_DOMAIN_CONCURRENCY,
      perSecond: env.SCRAPER_DOMAIN_RATE_PER_SECOND,
      burst: env.SCRAPER_DOMAIN_BURST,
      maxWaitMs: env.SCRAPER_DOMAIN_MAX_WAIT_MS,
    }),
    guard: new EgressGuard({
      allow: parseAllowlist(env.SCRAPER_ALLOWLIST),
      ports: parsePortPolicy(env.SCRAPER_ALLOWED_PORTS),
    }),
    taskQueue: taskQueueName(TaskQueue.scraper, env.TASK_QUEUE_PREFIX),
    timeoutMaxMs: env.SCRAPER_TIMEOUT_MAX_MS,
    strategy: {
      decayMs: env.SCRAPER_STRATEGY_DECAY_SECONDS * 1000,
      recheckRatio: env.SCRAPER_RECHECK_RATIO,
      proxyConfigured: Boolean(env.SCRAPER_PROXY_URLS),
    },
    chromiumPath: resolveChromiumPath(env.CHROMIUM_PATH),
    version: readVersionInfo('vigil-scraper', env.VIGIL_COMMIT),
  };
}

export async function closeScraperDeps(deps: ScraperDeps): Promise<void> {
  deps.words.close();
  await Promise.allSettled([deps.temporal.connection.close(), deps.redis.quit()]);
}
