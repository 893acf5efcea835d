import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors/codes.ts';
import { randomBytes } from 'node:crypto';
import { parseJobId, scanWorkflowId } from '../../core/temporal/jobIds.ts';
import { freePort } from '../../infra/stack/processes.ts';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  testStack,
  type TestBackend,
} from '../../test/support/fixtures.ts';

const PROBLEM_FIELDS = ['type', 'title', 'status', 'detail', 'instance'];

describe('backend routes', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await startTestBackend(isolatedEnv());
  });
  afterAll(() => backend.close());

  it('answers service metadata, version and API versions', async () => {
    const home = await backend.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.json()).toMatchObject({ service: 'vigil-backend', api_version: '2026.06.21' });
    const version = await backend.app.inject({ method: 'GET', url: '/version' });
    expect(version.json()).toMatchObject({ api_version: '2026.06.21', node: process.version });
    const api = (await backend.app.inject({ method: 'GET', url: '/api' })).json();
    expect(api.versions.map((entry: { version: string }) => entry.version)).toEqual(['v1', 'v2']);
  });

  it('puts X-Request-ID (echoed or generated) and X-Response-Time-Ms on every response', async () => {
    const generated = await backend.app.inject({ method: 'GET', url: '/live' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(generated.headers['x-response-time-ms'])).toBeGreaterThanOrEqual(0);
    const echoed = await backend.app.inject({
      method: 'GET',
      url: '/nowhere',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    expect(echoed.json().request_id).toBe('abc-123');
    // A value that could forge log lines is replaced, not echoed.
    const unsafe = await backend.app.inject({
      method: 'GET',
      url: '/live',
      headers: { 'x-request-id': 'a\u0007b c' },
    });
    expect(unsafe.headers['x-request-id']).not.toContain(' ');
  });

  it('redirects the legacy health paths with 307', async () => {
    const redirects: [string, string][] = [
      ['/api/v1/health/live', '/live'],
      ['/api/v1/health/ready', '/ready'],
      ['/api/v1/health', '/health'],
    ];
    for (const [from, to] of redirects) {
      const response = await backend.app.inject({ method: 'GET', url: from });
      expect(response.statusCode).toBe(307);
      expect(response.headers.location).toBe(to);
    }
  });

  it('is live and ready, and reports every store with latency', async () => {
    expect((await backend.app.inject({ method: 'GET', url: '/live' })).json().status).toBe('alive');
    const ready = await backend.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    const health = await backend.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    const body = health.json();
    expect(body.status).toBe('ok');
    const names = body.stores.map((store: { name: string }) => store.name);
    expect(names).toEqual(['redis', 'mongodb', 'temporal', 'rpc:devnet:0', 'rpc:solana_devnet:0']);
    for (const store of body.stores) {
      expect(store.status).toBe('up');
      expect(store.latency_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('answers 404 problems for unknown routes and 405 with Allow for a wrong method', async () => {
    const missing = await backend.app.inject({ method: 'GET', url: '/no/such/route?x=1' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    const problem = missing.json();
    for (const field of PROBLEM_FIELDS) expect(problem).toHaveProperty(field);
    expect(problem).toMatchObject({
      status: 404,
      instance: '/no/such/route',
      type: 'http://vigil.test/errors/not_found',
    });

    const wrong = await backend.app.inject({ method: 'PUT', url: '/api/v2/scanner/scans' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.json().code).toBe('method_not_allowed');
  });

  it('answers a method no route declares with 404 or 405 before reading any body', async () => {
    const query = await backend.app.inject({ method: 'QUERY' as 'GET', url: '/api/v2/scanner/scans' });
    expect(query.statusCode).toBe(405);
    expect(query.headers.allow).toBe('POST');
    const nowhere = await backend.app.inject({ method: 'QUERY' as 'GET', url: '/no/such/route' });
    expect(nowhere.statusCode).toBe(404);
  });

  it('lists in Allow the methods of the most specific route a path matches, as its document does', async () => {
    // GET /api/v1/x402-tools/discovery is its own route; POST there would be the tool route's.
    const options = await backend.app.inject({ method: 'OPTIONS', url: '/api/v1/x402-tools/discovery' });
    expect(options.statusCode).toBe(405);
    expect(options.headers.allow).toBe('GET, HEAD');
    const doc = (await backend.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths['/api/v1/x402-tools/discovery'])).toEqual(['get']);
    // A path only the parametric route matches still names its methods.
    const tool = await backend.app.inject({ method: 'GET', url: '/api/v1/x402-tools/token_risk' });
    expect(tool.statusCode).toBe(405);
    expect(tool.headers.allow).toBe('POST');
  });

  it('answers a path parameter past the router’s length with a 400 problem, and stays up', async () => {
    const long = await backend.app.inject({ method: 'GET', url: `/api/v1/reports/${'0'.repeat(300)}` });
    expect(long.statusCode).toBe(400);
    expect(long.headers['content-type']).toContain('application/problem+json');
    expect(long.json()).toMatchObject({ code: 'bad_request', status: 400 });
    expect((await backend.app.inject({ method: 'GET', url: '/live' })).statusCode).toBe(200);
  });

  it('documents errors as problem documents, with the statuses every route can answer', async () => {
    const doc = (await backend.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const scan = doc.paths['/api/v2/scanner/scans'].post;
    for (const status of ['400', '413', '415', '422', '429', '500', '503']) {
      expect(Object.keys(scan.responses[status].content)).toEqual(['application/problem+json']);
    }
    // Probes are not rate-limited, and take no input.
    expect(Object.keys(doc.paths['/live'].get.responses)).not.toContain('429');
    expect(Object.keys(doc.paths['/live'].get.responses)).not.toContain('400');
    // A tool with no input takes a call without a body.
    expect(doc.paths['/api/v1/x402-tools/risk_model'].post.requestBody.required).toBe(false);
    expect(doc.paths['/api/v1/x402-tools/token_risk'].post.requestBody.required).toBe(true);
    // Bodies that are not JSON are documented as what they are on the wire.
    const events = doc.paths['/api/v1/reports/{job_id}/events'].get.responses['200'];
    expect(Object.keys(events.content)).toEqual(['text/event-stream']);
    const file = doc.paths['/api/v1/reports/{job_id}/report.{format}'].get.responses['200'];
    expect(Object.keys(file.content).sort()).toEqual([
      'application/json',
      'application/pdf',
      'text/html',
      'text/markdown',
    ]);
    expect(file.content['application/pdf'].schema).toEqual({ type: 'string', format: 'binary' });
  });

  it('documents the chains this deployment serves, each with its address format, and the rules between fields', async () => {
    const doc = (await backend.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const resolve = (schema: { $ref?: string }) =>
      schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop() as string] : schema;
    // This deployment has RPCs for devnet and solana_devnet only: one branch per chain family.
    const scan = resolve(
      doc.paths['/api/v2/scanner/scans'].post.requestBody.content['application/json'].schema,
    );
    const branches = scan.anyOf.map((branch: { properties: Record<string, Record<string, unknown>> }) => ({
      chains: branch.properties['chain']?.['enum'],
      pattern: branch.properties['address']?.['pattern'],
      format: branch.properties['address']?.['format'],
    }));
    expect(branches).toEqual([
      { chains: ['devnet'], pattern: '^0x[0-9a-fA-F]{40}$', format: undefined },
      { chains: ['solana_devnet'], pattern: '^[1-9A-HJ-NP-Za-km-z]{32,44}$', format: 'solana-address' },
    ]);
    // The validator stays broad, so an unserved chain is told why (not a bare schema failure).
    const ethereum = await backend.app.inject({
      method: 'POST',
      url: '/api/v2/scanner/scans',
      headers: AUTHED,
      payload: { chain: 'ethereum', address: testStack().scenario.tokens.clean.address },
    });
    expect(ethereum.json().code).toBe('chain_unavailable');
    // Path parameters too: the data bus reads the EVM chains with an RPC here.
    const transfers = doc.paths['/api/v1/databus/tokens/{chain}/{address}/transfers'].get.parameters;
    expect(transfers.find((p: { name: string }) => p.name === 'chain').schema.enum).toEqual(['devnet']);
    // "One of these fields" is in the document, not only in the validator.
    const invoice = resolve(
      doc.paths['/api/v1/x402/invoice'].post.requestBody.content['application/json'].schema,
    );
    expect(invoice.oneOf).toEqual([{ required: ['tool'] }, { required: ['amount_usd'] }]);
    expect(invoice.properties.amount_usd).toMatchObject({ minimum: 0.01, multipleOf: 0.000001 });
    const labels = resolve(
      doc.paths['/api/v1/x402-tools/eth_labels_query'].post.requestBody.content['application/json'].schema,
    );
    expect(labels.anyOf).toEqual([
      { required: ['address'] },
      { required: ['label'] },
      { required: ['category'] },
      { required: ['name'] },
    ]);
  });

  it('reads a call without a body as no input, and a JSON null as a wrong body', async () => {
    const none = await backend.app.inject({ method: 'POST', url: '/api/v1/x402-tools/status_check' });
    expect(none.statusCode).toBe(200);
    const nothing = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/x402-tools/status_check',
      headers: { 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(nothing.statusCode).toBe(422);
  });

  it("ends a report's event stream that stays open past its longest, with stream_expired", async () => {
    // This backend has no reports worker: the report stays running, as one that never ends would.
    // Its subject is an address no other test reports on (a report's workflow id is its subject's),
    // and the run is terminated at the end.
    const short = await startTestBackend(isolatedEnv({ REPORT_EVENTS_MAX_SECONDS: '1' }));
    let workflowId: string | undefined;
    try {
      const started = await short.app.inject({
        method: 'POST',
        url: '/api/v1/reports',
        headers: AUTHED,
        payload: { kind: 'token', chain: 'devnet', address: `0x${randomBytes(20).toString('hex')}` },
      });
      expect(started.statusCode, started.body).toBe(202);
      workflowId = parseJobId(started.json().job_id)?.workflowId;
      // Its status reads without a worker to answer the progress query: progress null, at once.
      const before = Date.now();
      const read = await short.app.inject({
        method: 'GET',
        url: `/api/v1/reports/${encodeURIComponent(started.json().job_id)}`,
        headers: AUTHED,
      });
      expect(read.json()).toMatchObject({ status: 'running', progress: null });
      expect(Date.now() - before).toBeLessThan(10_000);
      const at = Date.now();
      const stream = await short.app.inject({
        method: 'GET',
        url: `/api/v1/reports/${encodeURIComponent(started.json().job_id)}/events`,
        headers: AUTHED,
      });
      expect(Date.now() - at).toBeLessThan(10_000);
      expect(stream.body).toContain('event: progress');
      expect(stream.body).toMatch(/event: error\ndata: \{"reason":"stream_expired"/);
    } finally {
      if (workflowId)
        await short.deps.temporal.client.workflow
          .getHandle(workflowId)
          .terminate('test over')
          .catch(() => undefined);
      await short.close();
    }
  });

  it('documents every error code at its type URL', async () => {
    for (const code of Object.keys(ErrorCodes)) {
      const response = await backend.app.inject({ method: 'GET', url: `/errors/${code}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        code,
        status: ErrorCodes[code as keyof typeof ErrorCodes].status,
      });
    }
    expect((await backend.app.inject({ method: 'GET', url: '/errors/made_up' })).statusCode).toBe(404);
  });

  it('serves an OpenAPI 3.1 document generated from the routes, and an interactive page', async () => {
    const doc = (await backend.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2026.06.21');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v2/scanner/scans', '/api/v2/scanner/scans/{job_id}', '/health']),
    );
    expect(
      doc.paths['/api/v2/scanner/scans'].post.requestBody.content['application/json'].schema,
    ).toBeDefined();
    const page = await backend.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});

describe('scan requests that must start no job', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await startTestBackend(isolatedEnv());
  });
  afterAll(() => backend.close());

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    backend.app.inject({
      method: 'POST',
      url: '/api/v2/scanner/scans',
      headers: { 'content-type': 'application/json', ...AUTHED, ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  async function noWorkflowFor(chain: string, address: string): Promise<boolean> {
    try {
      await backend.deps.temporal.client.workflow.getHandle(scanWorkflowId(chain, address)).describe();
      return false;
    } catch {
      return true;
    }
  }

  it('names the missing or invalid field (422)', async () => {
    const missing = await post({ chain: 'devnet' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.map((error: { loc: string[] }) => error.loc.join('.'))).toContain(
      'body.address',
    );
    const chain = await post({ chain: 'atlantis', address: testStack().scenario.tokens.clean.address });
    expect(chain.statusCode).toBe(422);
    expect(chain.json().detail).toContain('body.chain');
  });

  it('refuses malformed JSON with 400', async () => {
    const response = await post('{"chain": "devnet",');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('bad_request');
  });

  it('refuses a malformed address (422), starting no workflow', async () => {
    const malformed = await post({ chain: 'devnet', address: '0x1234' });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().code).toBe('invalid_address');
    expect(await noWorkflowFor('devnet', '0x1234')).toBe(true);
  });

  it('says clearly when a chain does not apply or is not configured', async () => {
    const bitcoin = await post({ chain: 'bitcoin', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    expect(bitcoin.statusCode).toBe(422);
    expect(bitcoin.json().code).toBe('capability_not_supported');
    const ethereum = await post({ chain: 'ethereum', address: testStack().scenario.tokens.clean.address });
    expect(ethereum.statusCode).toBe(422);
    expect(ethereum.json().code).toBe('chain_unavailable');
  });

  it('answers 400 for a job id Vigil could not have issued, 404 for an unknown one', async () => {
    expect(
      (await backend.app.inject({ method: 'GET', url: '/api/v2/scanner/scans/not-a-job' })).statusCode,
    ).toBe(400);
    const unknown = `${scanWorkflowId('devnet', testStack().scenario.tokens.clean.address, backend.deps.jobScope)}:0190a4f1-6f3c-7b7e-9a4e-3f1c2b7d8e9f`;
    const response = await backend.app.inject({
      method: 'GET',
      url: `/api/v2/scanner/scans/${unknown}`,
      headers: AUTHED,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('job_not_found');
  });

  it('answers 500 without internals when something unexpected breaks', async () => {
    const original = backend.deps.scans.byJobId.bind(backend.deps.scans);
    backend.deps.scans.byJobId = () => Promise.reject(new Error('mongo password=hunter2 exploded'));
    try {
      const unknown = `${scanWorkflowId('devnet', testStack().scenario.tokens.clean.address, backend.deps.jobScope)}:0190a4f1-6f3c-7b7e-9a4e-3f1c2b7d8e9f`;
      const response = await backend.app.inject({
        method: 'GET',
        url: `/api/v2/scanner/scans/${unknown}`,
        headers: AUTHED,
      });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('hunter2');
      expect(response.json()).toMatchObject({ code: 'internal_error', status: 500 });
    } finally {
      backend.deps.scans.byJobId = original;
    }
  });
});

describe('readiness when a critical store is down', () => {
  it('answers /ready 503 and /health down, naming the store, and stays up', async () => {
    const deadRedis = `redis://127.0.0.1:${await freePort()}`;
    const backend = await startTestBackend(isolatedEnv({ REDIS_URL: deadRedis }));
    try {
      const ready = await backend.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['x-degraded-stores']).toBe('redis');
      expect(ready.json().checks.find((check: { name: string }) => check.name === 'mongodb').status).toBe(
        'up',
      );
      const health = await backend.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'down', degraded: ['redis'] });
      expect((await backend.app.inject({ method: 'GET', url: '/live' })).statusCode).toBe(200);
    } finally {
      await backend.close();
    }
  });
});
