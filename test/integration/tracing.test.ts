import { randomBytes } from 'node:crypto';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../clients/tracing.ts';
import { deployCleanTokens } from '../../infra/devnet/bulkTokens.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { until } from '../support/until.ts';

// One request's trace, followed from the caller's traceparent through the API, the workflow
// start, the workflow and its (local) activities, down to the MongoDB and Redis commands they
// send. Tracing is process-wide, so this file starts it before building anything, with an
// in-memory exporter in place of the OTLP one.

const exporter = new InMemorySpanExporter();
let tracing: Tracing | undefined;
let backend: TestBackend;
let workers: RunningWorkers;
let url: string;
let token = '';

beforeAll(async () => {
  tracing = startTracing({ service: 'vigil-test', exporter: 'none', spanExporter: exporter });
  [token = ''] = await deployCleanTokens(testStack().rpcUrl, { count: 1 });
  const env = isolatedEnv();
  workers = await startTestWorkers(env);
  backend = await startTestBackend(env);
  url = await listenOnLoopback(backend.app);
});

afterAll(async () => {
  await backend?.close();
  await workers?.shutdown();
  await tracing?.shutdown();
});

const spansOf = (traceId: string): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);

describe('a request’s trace', () => {
  it('carries the caller’s trace id from the HTTP request through the workflow to its activities and stores', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const response = await fetch(`${url}/api/v2/scanner/scans`, {
      method: 'POST',
      headers: { ...AUTHED, 'content-type': 'application/json', traceparent: `00-${traceId}-${parentId}-01` },
      body: JSON.stringify({ chain: 'devnet', address: token, fresh: true, wait_ms: 30_000 }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { status: string }).status).toBe('completed');

    // The workflow's spans leave the sandbox when its task completes: wait for the last of them.
    await until(
      () =>
        Promise.resolve(
          spansOf(traceId).some((span) => span.name.startsWith('RunWorkflow:scanToken')) || undefined,
        ),
      { timeoutMs: 10_000 },
    );
    const spans = spansOf(traceId);
    const names = spans.map((span) => span.name);
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));

    // The API's request span is the caller's child; every other span descends from it.
    const request = spans.find((span) => span.name === 'request');
    expect(request?.parentSpanId).toBe(parentId);
    expect(request?.attributes['http.route']).toBe('/api/v2/scanner/scans');
    const rootOf = (span: ReadableSpan): ReadableSpan => {
      let at = span;
      while (at.parentSpanId && byId.has(at.parentSpanId)) at = byId.get(at.parentSpanId) as ReadableSpan;
      return at;
    };
    for (const span of spans) expect(rootOf(span).name, span.name).toBe('request');

    expect(names).toContain('StartWorkflow:scanToken');
    expect(names).toContain('RunWorkflow:scanToken');
    // The scan runs as one local activity of the workflow, with a span for each of its parts.
    expect(names).toContain('RunActivity:runScan');
    expect(names).toEqual(expect.arrayContaining(['scan.prepare', 'scan.finalize']));
    expect(names.filter((name) => name.startsWith('scan.engine:')).length).toBeGreaterThanOrEqual(3);
    // The result is stored by an activity: a MongoDB write and a Redis write under it.
    const stores = spans.filter((span) => span.attributes['db.system'] !== undefined);
    const activityOf = (span: ReadableSpan) => {
      let at: ReadableSpan | undefined = span;
      while (at && !at.name.startsWith('RunActivity:'))
        at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined;
      return at;
    };
    const storedBy = stores.filter((span) => activityOf(span) !== undefined);
    expect(storedBy.map((span) => span.attributes['db.system'])).toEqual(
      expect.arrayContaining(['mongodb', 'redis']),
    );
    // Spans name commands, never the keys or values they carry.
    for (const span of stores)
      expect(JSON.stringify(span.attributes)).not.toContain(token.slice(2).toLowerCase());
  });

  it('starts a new trace for a request without a traceparent', async () => {
    const before = new Set(exporter.getFinishedSpans().map((span) => span.spanContext().traceId));
    const response = await fetch(`${url}/api/v2/scanner/scans/not-a-job?api_key=do-not-trace-me`, {
      headers: AUTHED,
    });
    expect(response.status).toBeLessThan(500);
    const isFresh = (span: ReadableSpan) =>
      span.name === 'request' && !before.has(span.spanContext().traceId);
    await until(() => Promise.resolve(exporter.getFinishedSpans().some(isFresh) || undefined), {
      timeoutMs: 5_000,
    });
    const fresh = exporter.getFinishedSpans().filter(isFresh);
    expect(fresh.length).toBe(1);
    expect(fresh[0]?.parentSpanId).toBeUndefined();
    // The path is on the span; the query string is not, nor are the request's headers.
    expect(fresh[0]?.attributes['url.path']).toBe('/api/v2/scanner/scans/not-a-job');
    const recorded = JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes));
    expect(recorded).not.toContain('do-not-trace-me');
    expect(recorded).not.toContain(AUTHED['x-api-key']);
  });
});
