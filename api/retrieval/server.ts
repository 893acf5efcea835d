// Runs the retrieval service alone: `npm run retrieval` (workers: `npm run worker -- ingest`).
import { parseEnv } from '../../core/config/env.ts';
import { indexToolCatalog } from '../../retrieval/catalog/toolCatalog.ts';
import { listenUntilSignal } from '../plugins/listen.ts';
import { buildRetrievalApp } from './app.ts';
import { RetrievalApiEnv, retrievalPublicUrl } from './config.ts';
import { closeRetrievalDeps, createRetrievalDeps } from './deps.ts';
import { startTracingFromEnv } from '../../clients/tracing.ts';

const env = parseEnv(RetrievalApiEnv);
const tracing = startTracingFromEnv('vigil-retrieval');
const deps = await createRetrievalDeps(env);
// The tool catalog is embedded at start (unchanged tools are left as they are). Replicas starting
// together write the same rows; a commit that lost that race is tried again.
for (let attempt = 1; ; attempt++) {
  try {
    await indexToolCatalog(deps.store, deps.embedder, deps.chunkChars);
    break;
  } catch (error) {
    if (attempt === 3) {
      console.warn(`vigil retrieval: the tool catalog could not be indexed: ${String(error)}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, attempt * 500));
  }
}
const app = await buildRetrievalApp(deps, {
  publicUrl: retrievalPublicUrl(env),
  logger: { level: env.LOG_LEVEL },
});

await listenUntilSignal(app, { host: env.HOST, port: env.PORT }, async () => {
  await closeRetrievalDeps(deps);
  await tracing?.shutdown();
});
