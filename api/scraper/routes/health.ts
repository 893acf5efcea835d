import { existsSync } from 'node:fs';
import proto from '@temporalio/proto';
import { z } from 'zod';
import { readPoolReports } from '../../../scraper/poolHealth.ts';
import { ProbeResult, timed } from '../../backend/health.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { ScraperDeps } from '../deps.ts';

const Pool = z.object({
  worker: z.string(),
  launched: z.boolean().describe('False until the first browser tier starts the browser'),
  connected: z.boolean().optional(),
  executable: z.string().optional(),
  launches: z.number().optional(),
  contexts_open: z.number().optional(),
  contexts_waiting: z.number().optional(),
  contexts_served: z.number().optional(),
  max_contexts: z.number().optional(),
  last_error: z.string().nullable().optional(),
  updated_at: z.string(),
});

const Healthz = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    service: z.string(),
    version: z.string(),
    checked_at: z.iso.datetime(),
    stores: z.array(ProbeResult),
    browser_pools: z.array(Pool).describe('One per scraper worker that reported in the last 30 s'),
    chromium: z.object({ path: z.string(), present: z.boolean() }),
    degraded: z.array(z.string()),
  })
  .meta({ id: 'ScraperHealth' });

/**
 * GET /healthz: liveness (always 200 while the process serves) with the state of what scrapes
 * need: Redis, Temporal, and the browser pools the scraper workers report.
 */
export function healthRoutes(app: VigilApp, deps: ScraperDeps): void {
  app.get(
    '/healthz',
    {
      schema: { tags: ['health'], summary: 'Liveness, stores and browser pools', response: { 200: Healthz } },
    },
    async (_request, reply) => {
      const { connection } = deps.temporal;
      const [redis, temporal] = await Promise.all([
        timed({ name: 'redis', kind: 'redis', critical: true }, () => deps.redis.ping()),
        timed({ name: 'temporal', kind: 'temporal', critical: true }, async () => {
          const response = await connection.withDeadline(Date.now() + 1_500, () =>
            connection.healthService.check({}),
          );
          if (response.status !== proto.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING)
            throw new Error(`health status ${response.status ?? 'unknown'}`);
        }),
      ]);
      const pools = redis.status === 'up' ? await readPoolReports(deps.redis).catch(() => []) : [];
      const degraded = [redis, temporal]
        .filter((probe) => probe.status === 'down')
        .map((probe) => probe.name);
      if (pools.length === 0) degraded.push('scraper_workers');
      if (pools.some((pool) => pool.last_error)) degraded.push('browser_pool');
      const status: 'ok' | 'degraded' | 'down' =
        redis.status === 'down' || temporal.status === 'down'
          ? 'down'
          : degraded.length > 0
            ? 'degraded'
            : 'ok';
      if (degraded.length > 0) reply.header('x-degraded-stores', degraded.join(','));
      return {
        status,
        service: deps.version.service,
        version: deps.version.version,
        checked_at: new Date().toISOString(),
        stores: [redis, temporal],
        browser_pools: pools,
        chromium: { path: deps.chromiumPath, present: existsSync(deps.chromiumPath) },
        degraded,
      };
    },
  );
}
