import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ManagedProcess, REPO_ROOT, spawnService } from '../../infra/stack/processes.ts';
import { isolatedEnv } from '../support/fixtures.ts';
import {
  ingestFinished,
  type IngestJobView,
  startTestRetrieval,
  tempIndexDir,
  type TestRetrieval,
} from '../support/retrievalFixtures.ts';
import { until } from '../support/until.ts';

/** The ingest pool as its own process, exactly as `npm run worker -- ingest` runs it. */
function spawnIngestWorker(env: Record<string, string>): Promise<ManagedProcess> {
  return spawnService({
    name: 'ingest-worker',
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'ingest'],
    env: { ...process.env, ...env },
    readyTimeoutMs: 60_000,
    ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
  });
}

/** A document of `sections` sections of about 300 characters, each naming `word`. */
function document(word: string, sections: number): string {
  const filler = 'Liquidity, holders, taxes and ownership are read at one pinned block for every scan. ';
  return Array.from(
    { length: sections },
    (_, i) => `## Part ${i}\n\nThe ${word} clause ${i} applies here. ${filler.repeat(3)}`,
  ).join('\n\n');
}

describe('ingest durability', () => {
  const env = isolatedEnv({ WORKER_INGEST_ACTIVITIES: '1', EMBEDDING_THREADS: '1' });
  let retrieval: TestRetrieval;
  const workers: ManagedProcess[] = [];

  beforeAll(async () => {
    env.RETRIEVAL_INDEX_URI = await tempIndexDir();
    env.RETRIEVAL_MAX_DOCUMENT_BYTES = String(1024 * 1024);
    retrieval = await startTestRetrieval(env);
  });
  afterAll(async () => {
    await Promise.allSettled(workers.map((worker) => worker.stop(5_000)));
    await retrieval?.close();
  });

  const lexicalDocs = async (word: string) => {
    const response = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/query',
      payload: { query: word, mode: 'lexical', top_k: 100 },
    });
    return response
      .json<{ hits: { doc_id: string; text: string }[] }>()
      .hits.filter((hit) => hit.text.includes(word));
  };
  const job = async (jobId: string) =>
    (await retrieval.app.inject({ method: 'GET', url: `/v1/ingest/${jobId}` })).json<IngestJobView>();
  const ingest = async (content: string) => {
    const response = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/ingest',
      payload: { doc_id: 'manual', content },
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json<{ job_id: string }>().job_id;
  };

  it('keeps the previous version searchable while the worker is SIGKILLed mid-ingest, then finishes the new one', async () => {
    const first = await spawnIngestWorker(env);
    workers.push(first);
    const v1 = await ingestFinished(retrieval.app, await ingest(document('amethyst', 4)));
    expect(v1.outcome).toBe('indexed');

    const v2Job = await ingest(document('tourmaline', 130));
    // At least one batch embedded and staged, the job not finished: kill the worker there.
    await until(
      async () => {
        const view = await job(v2Job);
        return (view.progress?.chunks_embedded ?? 0) >= 64 ? view : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    first.child.kill('SIGKILL');
    const during = await job(v2Job);
    expect(during.status).toBe('running');
    expect(during.progress?.chunks_embedded ?? 0).toBeLessThan(130);
    // Only the previous version answers: nothing of the half-ingested one.
    expect(await lexicalDocs('tourmaline')).toEqual([]);
    expect((await lexicalDocs('amethyst')).length).toBe(4);

    workers.push(await spawnIngestWorker(env));
    const done = await ingestFinished(retrieval.app, v2Job, 120_000);
    expect(done).toMatchObject({ status: 'completed', outcome: 'indexed', chunks: 130 });
    expect(await lexicalDocs('amethyst')).toEqual([]);
    expect((await lexicalDocs('tourmaline')).length).toBe(100);
    // Two worker processes start, and a batch waits out its heartbeat timeout: slow on a busy machine.
  }, 240_000);
});
