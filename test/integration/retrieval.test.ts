import { createHash } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { recordHistory } from '../support/recordHistory.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import { indexToolCatalog } from '../../retrieval/catalog/toolCatalog.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { WORKFLOWS_ENTRY } from '../../workers/workflowBundle.ts';
import { isolatedEnv, startTestWorkers } from '../support/fixtures.ts';
import {
  ingestFinished,
  startTestRetrieval,
  tempIndexDir,
  type TestRetrieval,
} from '../support/retrievalFixtures.ts';

interface Hit {
  score: number;
  text: string;
  source: string;
  category: string;
  doc_id: string;
}

const GUIDE = [
  '# Liquidity guide', // 1
  '', // 2
  'Vigil checks who holds the LP tokens of the deepest pool.', // 3
  '', // 4
  '## Locked liquidity', // 5
  '', // 6
  'LP tokens burned or held by a known locker count as locked; the zircon rule applies.', // 7
  '', // 8
  '## Taxes', // 9
  '', // 10
  'A sell tax above ten percent is flagged as the obsidian warning.', // 11
].join('\n');

describe('retrieval service', () => {
  let retrieval: TestRetrieval;
  let workers: RunningWorkers;

  beforeAll(async () => {
    const env = isolatedEnv({
      RETRIEVAL_INDEX_URI: await tempIndexDir(),
      RETRIEVAL_MAX_DOCUMENT_BYTES: '65536',
    });
    retrieval = await startTestRetrieval(env);
    workers = await startTestWorkers(env, { queues: [TaskQueue.ingest] });
  });
  afterAll(async () => {
    await workers?.shutdown();
    await retrieval?.close();
  });

  const ingest = (payload: Record<string, unknown>) =>
    retrieval.app.inject({ method: 'POST', url: '/v1/ingest', payload });
  const query = async (body: Record<string, unknown>) => {
    const response = await retrieval.app.inject({ method: 'POST', url: '/v1/query', payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ hits: Hit[] }>().hits;
  };
  const ingestAndWait = async (payload: Record<string, unknown>) => {
    const response = await ingest(payload);
    expect(response.statusCode, response.body).toBe(202);
    const { job_id: jobId, status_url: statusUrl } = response.json<{ job_id: string; status_url: string }>();
    expect(response.headers.location).toBe(statusUrl);
    return ingestFinished(retrieval.app, jobId);
  };

  it('ingests Markdown into chunks cited by path and line range, found by every mode', async () => {
    const job = await ingestAndWait({
      doc_id: 'guide',
      source: 'docs/guide.md',
      content: GUIDE,
      ecosystem: 'vigil',
      category: 'docs',
    });
    expect(job).toMatchObject({ status: 'completed', outcome: 'indexed', chunks: 3, error: null });
    // Its history replays on the current workflow code (recorded for the offline replay test).
    const history = await retrieval.deps.temporal.client.workflow
      .getHandle(job.job_id.slice(0, job.job_id.lastIndexOf(':')))
      .fetchHistory();
    await Worker.runReplayHistory({ workflowsPath: WORKFLOWS_ENTRY }, history);
    if (process.env.RECORD_HISTORIES) {
      recordHistory('ingestDocument', history);
    }
    for (const mode of ['hybrid', 'lexical', 'vector']) {
      const [top] = await query({ query: 'what is the zircon rule for locked LP tokens', top_k: 3, mode });
      expect(top?.source, mode).toBe('docs/guide.md#L5-L7');
      expect(top?.text).toContain('zircon rule');
    }
    const hits = await query({
      query: 'obsidian warning sell tax',
      filters: { ecosystem: 'vigil', category: 'docs' },
    });
    expect(hits[0]).toMatchObject({ source: 'docs/guide.md#L9-L11', category: 'docs', doc_id: 'guide' });
  });

  it('does nothing for the same content again, and replaces every chunk of a changed one', async () => {
    const again = await ingestAndWait({
      doc_id: 'guide',
      source: 'docs/guide.md',
      content: GUIDE,
      ecosystem: 'vigil',
    });
    expect(again.outcome).toBe('unchanged');
    const changed = GUIDE.replace('zircon rule', 'basalt rule');
    const replaced = await ingestAndWait({
      doc_id: 'guide',
      source: 'docs/guide.md',
      content: changed,
      ecosystem: 'vigil',
    });
    expect(replaced.outcome).toBe('indexed');
    const lexical = await query({ query: 'zircon', mode: 'lexical' });
    expect(lexical.filter((hit) => hit.doc_id === 'guide')).toEqual([]);
    expect((await query({ query: 'basalt', mode: 'lexical' }))[0]?.doc_id).toBe('guide');
    // The document still has its three chunks, not six.
    const all = await query({ query: 'liquidity tax LP locked guide', top_k: 100, mode: 'lexical' });
    expect(all.filter((hit) => hit.doc_id === 'guide')).toHaveLength(3);
  });

  it('takes HTML as the raw body with metadata in the query, converted by the scraper converter', async () => {
    const html =
      '<html><head><script>var tracker = "spyware";</script></head><body><nav>menu</nav>' +
      '<main><h1>Honeypots</h1><p>A honeypot lets you buy but never sell; the garnet simulation proves it.</p></main></body></html>';
    const response = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/ingest?doc_id=honeypots&source=kb/honeypots.html&category=risk',
      headers: { 'content-type': 'text/html; charset=utf-8' },
      payload: html,
    });
    expect(response.statusCode, response.body).toBe(202);
    const job = await ingestFinished(retrieval.app, response.json<{ job_id: string }>().job_id);
    expect(job.outcome).toBe('indexed');
    const [top] = await query({ query: 'garnet simulation', filters: { category: 'risk' } });
    expect(top?.source).toMatch(/^kb\/honeypots\.html#L\d+-L\d+$/);
    expect(top?.text).toContain('never sell');
    expect(top?.text).not.toContain('spyware');
  });

  it('keeps the indexed version searchable when a new version fails, and says why', async () => {
    const job = await ingestAndWait({
      doc_id: 'guide',
      content: '<script>only()</script>',
      content_type: 'text/html',
    });
    expect(job).toMatchObject({ status: 'failed', error: { reason: 'empty_document' } });
    expect((await query({ query: 'basalt', mode: 'lexical' }))[0]?.doc_id).toBe('guide');
  });

  it('answers bad input with clear problems', async () => {
    const expectProblem = (response: Awaited<ReturnType<typeof ingest>>, status: number, code: string) => {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json<{ code: string }>().code).toBe(code);
    };
    expectProblem(await ingest({ doc_id: 'x', content: '   \n ' }), 422, 'empty_document');
    expectProblem(await ingest({ doc_id: 'x', content: 'a'.repeat(70_000) }), 413, 'payload_too_large');
    expectProblem(await ingest({ doc_id: 'x', url: 'http://127.0.0.1/admin' }), 422, 'url_not_allowed');
    expectProblem(
      await ingest({ doc_id: 'x', url: 'http://169.254.169.254/latest/meta-data' }),
      422,
      'url_not_allowed',
    );
    // Every spelling of a private or loopback address is refused before a job starts.
    for (const url of [
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://10.0.0.5/internal',
      'http://192.168.1.1/',
      'http://[fd00::1]/',
      'http://0.0.0.0:3003/v1/query',
    ]) {
      expectProblem(await ingest({ doc_id: 'x', url }), 422, 'url_not_allowed');
    }
    expectProblem(await ingest({ doc_id: 'x', url: 'file:///etc/passwd' }), 422, 'validation_failed');
    expectProblem(await ingest({ doc_id: 'x', url: 'gopher://example.com/' }), 422, 'validation_failed');
    expectProblem(
      await ingest({ doc_id: 'x', content: 'a', url: 'https://example.com/' }),
      422,
      'validation_failed',
    );
    expectProblem(await ingest({ doc_id: '../../etc', content: 'text' }), 422, 'validation_failed');
    expectProblem(await ingest({ content: 'text' }), 422, 'validation_failed');
    expectProblem(
      await retrieval.app.inject({
        method: 'POST',
        url: '/v1/ingest?doc_id=x',
        headers: { 'content-type': 'application/pdf' },
        payload: '%PDF-1.7',
      }),
      415,
      'unsupported_media_type',
    );
    // A raw document without ?doc_id= is named by its content.
    const unnamed = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/ingest',
      headers: { 'content-type': 'text/markdown' },
      payload: '# no id',
    });
    expect(unnamed.statusCode, unnamed.body).toBe(202);
    expect(unnamed.json().doc_id).toBe(`sha256:${createHash('sha256').update('# no id').digest('hex')}`);
    const badQuery = (payload: Record<string, unknown>) =>
      retrieval.app.inject({ method: 'POST', url: '/v1/query', payload });
    expectProblem(await badQuery({ query: 'x', top_k: 0 }), 422, 'validation_failed');
    expectProblem(await badQuery({ query: 'x', top_k: 101 }), 422, 'validation_failed');
    expectProblem(await badQuery({ query: 'x', filters: { chain: 'base' } }), 422, 'validation_failed');
    expectProblem(
      await badQuery({ query: 'x', filters: { category: "docs' OR 1=1" } }),
      422,
      'validation_failed',
    );
    expectProblem(await badQuery({ query: '', top_k: 5 }), 422, 'validation_failed');
    expectProblem(await badQuery({ query: 'x', mode: 'magic' }), 422, 'validation_failed');
    expectProblem(
      await retrieval.app.inject({
        method: 'GET',
        url: '/v1/ingest/ingest:doc:0000000000000000000000000000000000000000:00000000-0000-4000-8000-000000000000',
      }),
      404,
      'job_not_found',
    );
    expectProblem(
      await retrieval.app.inject({ method: 'GET', url: '/v1/ingest/nonsense' }),
      404,
      'job_not_found',
    );
  });

  it('answers the tool catalog in natural language with schemas and prices', async () => {
    await indexToolCatalog(retrieval.deps.store, retrieval.deps.embedder, retrieval.deps.chunkChars);
    const response = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/catalog/search',
      payload: { query: 'can I sell this token or is it a honeypot?', top_k: 3 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const tools = response.json<{ tools: { name: string; price_usd: number; input_schema: object }[] }>()
      .tools;
    expect(tools[0]?.name).toBe('honeypot_check');
    expect(tools[0]?.price_usd).toBeGreaterThan(0);
    expect(tools[0]?.input_schema).toHaveProperty('properties.chain');
  });

  it('documents its routes in its OpenAPI document', async () => {
    const response = await retrieval.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v1/ingest',
        '/v1/ingest/{job_id}',
        '/v1/query',
        '/v1/catalog/search',
        '/v1/tokens/similar',
        '/healthz',
      ]),
    );
  });

  it('reports the vector store and the embedding model with latency', async () => {
    const response = await retrieval.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    const health = response.json<{
      status: string;
      vector_store: { status: string; latency_ms: number; chunks: number };
      embedding: { status: string; dimensions: number; model: string };
    }>();
    expect(health.status).toBe('ok');
    expect(health.vector_store.status).toBe('up');
    expect(health.vector_store.chunks).toBeGreaterThan(0);
    expect(health.embedding).toMatchObject({ status: 'up', dimensions: 384 });
    expect(health.embedding.model).toContain('all-MiniLM-L6-v2');
  });
});
