import type { Redis } from 'ioredis';
import type { PoolStats } from './browser/browserPool.ts';

const KEY = 'scraper:pools';
/** A worker that has not reported for this long is left out of /healthz. */
const POOL_REPORT_STALE_MS = 30_000;

export interface PoolReport extends Partial<PoolStats> {
  worker: string;
  /** False until the first browser tier launches the browser. */
  launched: boolean;
  updated_at: string;
}

/**
 * Each scraper worker publishes its browser pool's state to Redis every few seconds; the API's
 * /healthz reads them (the API process itself runs no browser).
 */
export function startPoolReports(
  redis: Redis,
  worker: string,
  stats: () => PoolStats | null,
  intervalMs = 5_000,
): () => Promise<void> {
  const report = async () => {
    const current = stats();
    const entry: PoolReport = {
      worker,
      launched: current !== null,
      ...(current ?? {}),
      updated_at: new Date().toISOString(),
    };
    await redis.hset(KEY, worker, JSON.stringify(entry)).catch(() => undefined);
  };
  void report();
  const timer = setInterval(() => void report(), intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await redis.hdel(KEY, worker).catch(() => undefined);
  };
}

export async function readPoolReports(redis: Redis, now = Date.now()): Promise<PoolReport[]> {
  const entries = await redis.hgetall(KEY);
  const reports: PoolReport[] = [];
  for (const [worker, raw] of Object.entries(entries)) {
    const report = JSON.parse(raw) as PoolReport;
    if (now - Date.parse(report.updated_at) <= POOL_REPORT_STALE_MS) reports.push(report);
    else await redis.hdel(KEY, worker).catch(() => undefined);
  }
  return reports.sort((a, b) => a.worker.localeCompare(b.worker));
}
