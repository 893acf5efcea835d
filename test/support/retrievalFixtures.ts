import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRetrievalApp } from '../../api/retrieval/app.ts';
import { RetrievalApiEnv } from '../../api/retrieval/config.ts';
import { closeRetrievalDeps, createRetrievalDeps, type RetrievalDeps } from '../../api/retrieval/deps.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import { parseEnv } from '../../core/config/env.ts';
import { until } from './until.ts';

export interface TestRetrieval {
  app: VigilApp;
  deps: RetrievalDeps;
  indexDir: string;
  close(): Promise<void>;
}

/** A folder of its own for one test file's index. */
export async function tempIndexDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'vigil-index-'));
}

export async function startTestRetrieval(env: Record<string, string>): Promise<TestRetrieval> {
  const deps = await createRetrievalDeps(parseEnv(RetrievalApiEnv, env));
  const app = await buildRetrievalApp(deps, { publicUrl: 'http://retrieval.test', logger: false });
  return {
    app,
    deps,
    indexDir: env.RETRIEVAL_INDEX_URI ?? '',
    async close() {
      await app.close();
      await closeRetrievalDeps(deps);
      if (env.RETRIEVAL_INDEX_URI) await rm(env.RETRIEVAL_INDEX_URI, { recursive: true, force: true });
    },
  };
}

export interface IngestJobView {
  job_id: string;
  status: string;
  stage: string | null;
  outcome: string | null;
  chunks: number | null;
  progress: { chunks_total: number | null; chunks_embedded: number } | null;
  error: { reason: string; message: string } | null;
}

/** Polls an ingest job until it is no longer running. */
export function ingestFinished(app: VigilApp, jobId: string, timeoutMs = 60_000): Promise<IngestJobView> {
  return until(
    async () => {
      const job = (await app.inject({ method: 'GET', url: `/v1/ingest/${jobId}` })).json<IngestJobView>();
      return job.status === 'running' ? undefined : job;
    },
    { timeoutMs, intervalMs: 100 },
  );
}
