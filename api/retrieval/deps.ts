import { Client, Connection } from '@temporalio/client';
import { closeStores, createStores, type Stores } from '../../clients/stores.ts';
import { temporalClientPlugins, temporalConnectionOptions } from '../../clients/temporal.ts';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';
import { indexUri } from '../../retrieval/config.ts';
import { createEmbedder, type Embedder } from '../../retrieval/embedding/index.ts';
import { IngestBodies } from '../../retrieval/ingest/bodyStore.ts';
import { Retriever } from '../../retrieval/search/retriever.ts';
import type { ChunkStore } from '../../retrieval/store/chunkStore.ts';
import { LanceChunkStore } from '../../retrieval/store/lanceChunkStore.ts';
import { FingerprintSync } from '../../retrieval/tokens/fingerprintSync.ts';
import { SimilarTokenIndex } from '../../retrieval/tokens/similarTokens.ts';
import { EgressGuard } from '../../scraper/ssrf/guard.ts';
import { parseAllowlist, parsePortPolicy } from '../../scraper/ssrf/addressPolicy.ts';
import { readVersionInfo, type VersionInfo } from '../backend/version.ts';
import type { RetrievalApiEnv } from './config.ts';

/** Everything the retrieval service talks to; tests build it from real local services. */
export interface RetrievalDeps {
  temporal: { client: Client; connection: Connection };
  /** The one store factory's stores: Redis holds uploads, MongoDB the scans' fingerprints. */
  stores: Stores;
  store: ChunkStore;
  embedder: Embedder;
  retriever: Retriever;
  bodies: IngestBodies;
  tokens: SimilarTokenIndex;
  fingerprints: FingerprintSync;
  /** URL shape and literal-address checks before an ingest by URL starts (the scraper checks DNS). */
  guard: EgressGuard;
  taskQueue: string;
  /** Begins every workflow id this deployment starts (its TASK_QUEUE_PREFIX; core/temporal/jobIds.ts). */
  jobScope: string;
  indexUri: string;
  maxDocumentBytes: number;
  chunkChars: number;
  version: VersionInfo;
}

/** Opens the index and loads the embedding model (once per process). */
export async function createRetrievalDeps(env: RetrievalApiEnv): Promise<RetrievalDeps> {
  // TLS and credentials as configured, like every other process (this one once dialled plain gRPC).
  const connection = Connection.lazy(temporalConnectionOptions(env));
  const client = new Client({
    connection,
    namespace: env.TEMPORAL_NAMESPACE,
    plugins: temporalClientPlugins(),
  });
  const stores = createStores(env, { failFast: true });
  const uri = indexUri(env);
  const [store, embedder, tokens] = await Promise.all([
    LanceChunkStore.open(uri, env.RETRIEVAL_READ_CONSISTENCY_SECONDS),
    createEmbedder(env),
    SimilarTokenIndex.open(uri, env.RETRIEVAL_READ_CONSISTENCY_SECONDS),
  ]);
  return {
    temporal: { client, connection },
    stores,
    store,
    embedder,
    retriever: new Retriever(store, embedder),
    bodies: new IngestBodies(stores.redis),
    tokens,
    fingerprints: new FingerprintSync(stores.fingerprints, tokens),
    guard: new EgressGuard({
      allow: parseAllowlist(env.SCRAPER_ALLOWLIST),
      ports: parsePortPolicy(env.SCRAPER_ALLOWED_PORTS),
    }),
    taskQueue: taskQueueName(TaskQueue.ingest, env.TASK_QUEUE_PREFIX),
    jobScope: env.TASK_QUEUE_PREFIX,
    indexUri: uri,
    maxDocumentBytes: env.RETRIEVAL_MAX_DOCUMENT_BYTES,
    chunkChars: env.RETRIEVAL_CHUNK_CHARS,
    version: readVersionInfo('vigil-retrieval', env.VIGIL_COMMIT),
  };
}

export async function closeRetrievalDeps(deps: RetrievalDeps): Promise<void> {
  await Promise.allSettled([
    deps.temporal.connection.close(),
    closeStores(deps.stores),
    deps.store.close(),
    deps.embedder.close(),
  ]);
  deps.tokens.close();
}
