import type { LoggerOptions } from 'pino';
import { registerOpenApi } from '../plugins/openapi.ts';
import { createService, type VigilApp } from '../plugins/service.ts';
import type { RetrievalDeps } from './deps.ts';
import { IngestJobs } from './ingestJobs.ts';
import { healthRoutes } from './routes/health.ts';
import { ingestRoutes } from './routes/ingest.ts';
import { queryRoutes } from './routes/query.ts';

export interface RetrievalAppOptions {
  publicUrl: string;
  logger: LoggerOptions | false;
}

/** The retrieval service ({brain_url}); server.ts only listens. */
export async function buildRetrievalApp(
  deps: RetrievalDeps,
  options: RetrievalAppOptions,
): Promise<VigilApp> {
  const app = await createService({
    service: 'retrieval',
    publicUrl: options.publicUrl,
    logger: options.logger,
  });
  await registerOpenApi(app, {
    title: 'Vigil retrieval API',
    description:
      'Hybrid search (BM25 and vector, fused by reciprocal rank) over an embedded index, durable document ingest, ' +
      'natural-language search over the tool catalog and code-similar tokens. Errors are RFC 7807 problem documents.',
    publicUrl: options.publicUrl,
  });
  healthRoutes(app, deps);
  ingestRoutes(app, new IngestJobs(deps), deps.maxDocumentBytes);
  queryRoutes(app, deps);
  await app.ready();
  return app;
}
