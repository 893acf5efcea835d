import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's metrics registry: a service's own counters register here (see scraper/wordLog.ts). */
    metrics: Registry;
  }
}

/**
 * Prometheus metrics for every service, added once in the service factory: the process's own
 * (CPU, memory, event-loop lag, handles) and a histogram of request durations by route pattern
 * (never the raw URL, so ids and addresses do not explode the label space), method and status.
 * `GET /metrics` answers the text exposition format. It is left out of the OpenAPI document and
 * of rate limits; in a cluster, network policy keeps it to the scraper of metrics (see the
 * manifests). Each app has a registry of its own, so several services in one process (the tests)
 * do not collide; `app.metrics` is it, for a service's own counters.
 */
export const metricsPlugin = fp(
  (app, options: { service: string }, done) => {
    const registry = new Registry();
    registry.setDefaultLabels({ service: options.service });
    collectDefaultMetrics({ register: registry });
    app.decorate('metrics', registry);
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route pattern, method and status code',
      labelNames: ['route', 'method', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, next) => {
      // Unmatched requests share one label: a scanner probing random paths adds no series.
      const route = request.routeOptions.url ?? 'unmatched';
      if (route !== '/metrics')
        duration.observe(
          { route, method: request.method, status_code: String(reply.statusCode) },
          reply.elapsedTime / 1_000,
        );
      next();
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      const body = await registry.metrics();
      return reply.header('content-type', registry.contentType).send(body);
    });
    done();
  },
  { name: 'vigil-metrics' },
);
