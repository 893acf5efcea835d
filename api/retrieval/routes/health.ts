import proto from '@temporalio/proto';
import { z } from 'zod';
import { redactUrl } from '../../../core/errors/redactUrl.ts';
import { ProbeResult, timed } from '../../backend/health.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { RetrievalDeps } from '../deps.ts';

const Healthz = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    service: z.string(),
    version: z.string(),
    checked_at: z.iso.datetime(),
    vector_store: ProbeResult.extend({
      uri: z.string(),
      chunks: z.number().nullable(),
      dimensions: z.number().nullable(),
    }),
    embedding: ProbeResult.extend({ model: z.string(), dimensions: z.number() }),
    stores: z.array(ProbeResult),
    degraded: z.array(z.string()),
  })
  .meta({ id: 'RetrievalHealth' });

/** Object-store URIs may carry credentials in their query; a local folder is shown as it is. */
function shownUri(uri: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(uri) ? redactUrl(uri) : uri;
}

/**
 * GET /healthz: liveness (200 while the process serves) with the connectivity of what queries
 * and ingests need: the vector store (a count read), the embedding model (one embedding), Redis
 * and Temporal, each with its latency.
 */
export function healthRoutes(app: VigilApp, deps: RetrievalDeps): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        summary: 'Vector store, embedding model and stores, with latency',
        response: { 200: Healthz },
      },
    },
    async (_request, reply) => {
      let stats: { chunks: number; dimensions: number | null } | undefined;
      const { connection } = deps.temporal;
      const [vector, embedding, redis, temporal] = await Promise.all([
        timed({ name: 'vector_store', kind: 'vector_store', critical: true }, async () => {
          stats = await deps.store.stats();
        }),
        timed({ name: 'embedding', kind: 'embedding', critical: true }, () =>
          deps.embedder.embed(['health probe']),
        ),
        timed({ name: 'redis', kind: 'redis', critical: false }, () => deps.stores.redis.ping()),
        timed({ name: 'temporal', kind: 'temporal', critical: false }, async () => {
          const response = await connection.withDeadline(Date.now() + 1_500, () =>
            connection.healthService.check({}),
          );
          if (response.status !== proto.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING)
            throw new Error(`health status ${response.status ?? 'unknown'}`);
        }),
      ]);
      const probes = [vector, embedding, redis, temporal];
      const degraded = probes.filter((probe) => probe.status === 'down').map((probe) => probe.name);
      const status: 'ok' | 'degraded' | 'down' =
        vector.status === 'down' || embedding.status === 'down'
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
        vector_store: {
          ...vector,
          uri: shownUri(deps.indexUri),
          chunks: stats?.chunks ?? null,
          dimensions: stats?.dimensions ?? null,
        },
        embedding: { ...embedding, model: deps.embedder.model, dimensions: deps.embedder.dimensions },
        stores: [redis, temporal],
        degraded,
      };
    },
  );
}
