import { z } from 'zod';
import { BoolEnv, IntEnv, OptionalEnv } from '../core/config/env.ts';
import { parsePortPolicy } from './ssrf/addressPolicy.ts';

const MIB = 1024 * 1024;

/** The scraping engine's settings (worker side); see the README's configuration table. */
export const ScraperEngineEnv = z.object({
  /** Chromium to launch; defaults to the distribution's binary. */
  CHROMIUM_PATH: OptionalEnv,
  /** Addresses or CIDR ranges reachable although private (tests target loopback sites). */
  SCRAPER_ALLOWLIST: OptionalEnv,
  /** Ports dialled besides 80 and 443 (`8080, 8443, 9000-9100`); everything else is refused. */
  SCRAPER_ALLOWED_PORTS: OptionalEnv.refine(
    (value) => {
      try {
        parsePortPolicy(value);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be ports or ranges (8080, 9000-9100) within 1-65535' },
  ),
  /**
   * The scraper's own Redis (pages, sessions, strategies, politeness), kept apart from payment
   * state: its own instance, database or ACL user. Unset: REDIS_URL.
   */
  SCRAPER_REDIS_URL: OptionalEnv.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URI')
      .optional(),
  ),
  /** Upstream proxies for the last tier, comma-separated http://user:pass@host:port; none = no proxy tier. */
  SCRAPER_PROXY_URLS: OptionalEnv,
  SCRAPER_MAX_BODY_BYTES: IntEnv(1_024, 100 * 1024 * 1024).default(10 * 1024 * 1024),
  SCRAPER_MAX_REDIRECTS: IntEnv(0, 20).default(10),
  /** Browser contexts open at once per worker process. */
  SCRAPER_BROWSER_CONTEXTS: IntEnv(1, 32).default(2),
  /** Contexts a browser serves before it is replaced. */
  SCRAPER_BROWSER_RECYCLE_AFTER: IntEnv(1, 100_000).default(500),
  /** Bytes one browser page may receive in all (document, subresources, websockets). */
  SCRAPER_BROWSER_MAX_BYTES: IntEnv(64 * 1024, 1024 * MIB).default(32 * MIB),
  /** DOM nodes one browser page may hold. */
  SCRAPER_BROWSER_MAX_DOM_NODES: IntEnv(1_000, 10_000_000).default(200_000),
  /** JavaScript heap of one page's renderer, in MB (a hard V8 limit; the renderer dies past it). */
  SCRAPER_BROWSER_MAX_HEAP_MB: IntEnv(16, 4_096).default(256),
  /** Resident memory of one page's renderer in all (buffers, images, workers), in MB. */
  SCRAPER_BROWSER_MAX_MEMORY_MB: IntEnv(64, 16_384).default(512),
  /**
   * Run Chromium with its sandbox (the default). Off only where the kernel gives no user
   * namespaces, and then only with the pool isolated from the stores (docs/security.md).
   */
  SCRAPER_BROWSER_SANDBOX: BoolEnv.default(true),
  /** The unprivileged user Chromium runs as when the worker itself runs as root. */
  SCRAPER_BROWSER_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/)
    .default('nobody'),
  /** Per-domain politeness, shared by every worker. */
  SCRAPER_DOMAIN_CONCURRENCY: IntEnv(1, 1_000).default(4),
  SCRAPER_DOMAIN_RATE_PER_SECOND: z.coerce.number().positive().max(100_000).default(5),
  SCRAPER_DOMAIN_BURST: IntEnv(1, 100_000).default(10),
  SCRAPER_DOMAIN_MAX_WAIT_MS: IntEnv(0, 60_000).default(2_000),
  /** Honour robots.txt (RFC 9309) before fetching. */
  SCRAPER_RESPECT_ROBOTS: BoolEnv.default(false),
  /** Strategy memory: kept this long without requests; the remembered tier decays one step per SCRAPER_STRATEGY_DECAY_SECONDS. */
  SCRAPER_STRATEGY_TTL_SECONDS: IntEnv(60, 90 * 86_400).default(7 * 86_400),
  SCRAPER_STRATEGY_DECAY_SECONDS: IntEnv(1, 30 * 86_400).default(6 * 3_600),
  /** Share of requests that re-check one tier cheaper than the remembered one. */
  SCRAPER_RECHECK_RATIO: z.coerce.number().min(0).max(1).default(0.1),
  /** Session cookie jars live this long after their last use. */
  SCRAPER_SESSION_TTL_SECONDS: IntEnv(60, 30 * 86_400).default(86_400),
  /** Threads that convert pages (parse, extract, markdown); 0 converts on the main thread. Unset: the cores, at most 4. */
  SCRAPER_CONVERT_THREADS: IntEnv(0, 64).optional(),
  /** How long scraped pages stay in Redis for the API to read. */
  SCRAPER_PAGE_TTL_SECONDS: IntEnv(10, 86_400).default(600),
});
export type ScraperEngineEnv = z.infer<typeof ScraperEngineEnv>;

export function proxyUrls(env: ScraperEngineEnv): string[] {
  return (env.SCRAPER_PROXY_URLS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}
