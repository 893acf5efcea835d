import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type VigilApp } from '../../api/plugins/service.ts';
import type { RetrievalDeps } from '../../api/retrieval/deps.ts';
import { IngestJobs } from '../../api/retrieval/ingestJobs.ts';
import { ingestRoutes } from '../../api/retrieval/routes/ingest.ts';
import { formatJobId, parseJobId, scanWorkflowId } from '../../core/temporal/jobIds.ts';
import { AUTHED, isolatedEnv, startTestBackend, type TestBackend } from '../support/fixtures.ts';

// Attacks on job ids and job ownership: ids that parse but name another deployment's or another
// kind's workflow (which really runs, in the same Temporal namespace), scopes that are prefixes
// of each other (`a` and `ab`) or empty, encodings, look-alikes, extra colons, case, length; and
// callers reading or cancelling jobs they never started. Every answer must be a clear problem
// (400 malformed, 404 not this deployment's job of this kind, 403 not yours), never a 500, never
// the job. No worker polls any queue here: every run stays running until the file terminates it.

const tag = randomUUID().slice(0, 8);
/** Three deployments on one Temporal: scope `a`, scope `ab` (a's scope is a prefix of it), and none. */
const SCOPE_A = `jid${tag}`;
const SCOPE_B = `${SCOPE_A}b`;
const SCOPE_E = '';
const OPS_KEY = `jid-ops-key-${tag}-0123456789`;
const KEY = AUTHED['x-api-key'];
const KEYS = `tests:pro:${KEY},ops:operator:${OPS_KEY}`;
const OPS = { 'x-api-key': OPS_KEY } as const;
/** The queue the file's own runs are started on: nobody polls it. */
const IDLE_QUEUE = `${SCOPE_A}-jid-nobody-polls`;

const evmAddress = () => `0x${randomBytes(20).toString('hex')}`;
const hex40 = () => randomBytes(20).toString('hex');
const path = (jobId: string) => encodeURIComponent(jobId);

type Backends = { a: TestBackend; b: TestBackend; e: TestBackend };
let backends: Backends;
/** The retrieval service's ingest route, once per scope. */
let ingest: { a: VigilApp; b: VigilApp; e: VigilApp };
/** Every workflow id this file started, terminated at the end. */
const startedWorkflows = new Set<string>();

/** Runs of each kind, as each deployment would have started them. */
interface Runs {
  scan: { a: string; b: string; e: string };
  report: { a: string; b: string; e: string };
  ingest: { a: string; b: string; e: string };
}
let runs: Runs;

async function startRun(type: string, workflowId: string): Promise<string> {
  const handle = await backends.a.deps.temporal.client.workflow.start(type, {
    taskQueue: IDLE_QUEUE,
    workflowId,
    args: [],
    // Gone by itself even if the file dies before it terminates its runs.
    workflowExecutionTimeout: '10 minutes',
  });
  startedWorkflows.add(workflowId);
  return formatJobId({ workflowId, runId: handle.firstExecutionRunId });
}

async function ingestApp(scope: string): Promise<VigilApp> {
  const app = await createService({
    service: 'retrieval',
    publicUrl: 'http://retrieval.test',
    logger: false,
  });
  // The ingest route reads jobs from Temporal alone: these are the only dependencies it uses.
  const deps = { temporal: backends.a.deps.temporal, jobScope: scope } as unknown as RetrievalDeps;
  ingestRoutes(app, new IngestJobs(deps), 1024 * 1024);
  await app.ready();
  return app;
}

/** Whether anyone asked the run to cancel (its history says so), and whether it still runs. */
async function runState(jobId: string): Promise<{ cancelRequested: boolean; status: string }> {
  const ref = parseJobId(jobId);
  if (!ref) throw new Error(`not a job id: ${jobId}`);
  const handle = backends.a.deps.temporal.client.workflow.getHandle(ref.workflowId, ref.runId);
  const [history, description] = await Promise.all([handle.fetchHistory(), handle.describe()]);
  return {
    cancelRequested: (history.events ?? []).some(
      (event) => event.workflowExecutionCancelRequestedEventAttributes,
    ),
    status: description.status.name,
  };
}

function trackJob(jobId: string): string {
  const ref = parseJobId(jobId);
  if (ref) startedWorkflows.add(ref.workflowId);
  return jobId;
}

/** A problem document with this status (and code), that names nothing it was not asked about. */
function expectProblem(response: LightMyRequestResponse, status: number, code?: string): void {
  expect(response.statusCode, `${response.statusCode} ${response.body}`).toBe(status);
  expect(response.headers['content-type']).toContain('application/problem+json');
  const body = response.json<Record<string, unknown>>();
  expect(body.status).toBe(status);
  if (code) expect(body.code).toBe(code);
  // A refusal carries no part of the job: no result, progress, subject or downloads.
  for (const field of ['result', 'progress', 'subject', 'downloads', 'chain', 'address', 'cancel'])
    expect(body).not.toHaveProperty(field);
}

beforeAll(async () => {
  const env = (scope: string) => isolatedEnv({ TASK_QUEUE_PREFIX: scope, API_KEYS: KEYS });
  const [a, b, e] = await Promise.all([
    startTestBackend(env(SCOPE_A)),
    startTestBackend(env(SCOPE_B)),
    startTestBackend(env(SCOPE_E)),
  ]);
  backends = { a, b, e };
  ingest = { a: await ingestApp(SCOPE_A), b: await ingestApp(SCOPE_B), e: await ingestApp(SCOPE_E) };
  const scan = (scope: string) => startRun('scanToken', scanWorkflowId('devnet', evmAddress(), scope));
  const report = (scope: string) => startRun('generateReport', `${scope}report:token_devnet:${evmAddress()}`);
  const ingestRun = (scope: string) => startRun('ingestDocument', `${scope}ingest:doc:${hex40()}`);
  const [sa, sb, se, ra, rb, re, ia, ib, ie] = await Promise.all([
    scan(SCOPE_A),
    scan(SCOPE_B),
    scan(SCOPE_E),
    report(SCOPE_A),
    report(SCOPE_B),
    report(SCOPE_E),
    ingestRun(SCOPE_A),
    ingestRun(SCOPE_B),
    ingestRun(SCOPE_E),
  ]);
  runs = {
    scan: { a: sa, b: sb, e: se },
    report: { a: ra, b: rb, e: re },
    ingest: { a: ia, b: ib, e: ie },
  };
});

afterAll(async () => {
  const client = backends?.a.deps.temporal.client;
  if (client)
    await Promise.allSettled(
      [...startedWorkflows].map((workflowId) =>
        client.workflow.getHandle(workflowId).terminate('job id attacks are over'),
      ),
    );
  await Promise.allSettled(Object.values(ingest ?? {}).map((app) => app.close()));
  await Promise.allSettled(Object.values(backends ?? {}).map((backend) => backend.close()));
});

const SCOPES = ['a', 'b', 'e'] as const;

describe("another deployment's jobs (scopes `a`, `ab` and none, one Temporal namespace)", () => {
  it('reads and cancels no scan job of another scope, even with an API or operator key (404)', async () => {
    for (const reader of SCOPES) {
      const { app } = backends[reader];
      for (const owner of SCOPES.filter((scope) => scope !== reader)) {
        const jobId = runs.scan[owner];
        expectProblem(
          await app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${path(jobId)}`, headers: AUTHED }),
          404,
          'job_not_found',
        );
        // Anonymous: no such job here, rather than someone else's (403).
        expectProblem(
          await app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${path(jobId)}` }),
          404,
          'job_not_found',
        );
        expectProblem(
          await app.inject({ method: 'DELETE', url: `/api/v2/scanner/scans/${path(jobId)}`, headers: OPS }),
          404,
          'job_not_found',
        );
      }
    }
    for (const owner of SCOPES)
      expect(await runState(runs.scan[owner])).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  it('reads, follows, downloads and cancels no report of another scope, even with an operator key (404)', async () => {
    for (const reader of SCOPES) {
      const { app } = backends[reader];
      for (const owner of SCOPES.filter((scope) => scope !== reader)) {
        const base = `/api/v1/reports/${path(runs.report[owner])}`;
        for (const url of [
          base,
          `${base}/events`,
          `${base}/report.json`,
          `${base}/report.md`,
          `${base}/report.pdf`,
        ])
          for (const headers of [AUTHED, OPS, {}])
            expectProblem(await app.inject({ method: 'GET', url, headers }), 404, 'job_not_found');
        expectProblem(await app.inject({ method: 'DELETE', url: base, headers: OPS }), 404, 'job_not_found');
      }
    }
    for (const owner of SCOPES)
      expect(await runState(runs.report[owner])).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  it('answers no ingest job of another scope on the retrieval service (404)', async () => {
    for (const reader of SCOPES)
      for (const owner of SCOPES.filter((scope) => scope !== reader))
        expectProblem(
          await ingest[reader].inject({ method: 'GET', url: `/v1/ingest/${path(runs.ingest[owner])}` }),
          404,
          'job_not_found',
        );
  });

  it("still reads each deployment's own runs (the 404s above are the scope's, not missing runs)", async () => {
    const reads = SCOPES.flatMap((scope) => [
      backends[scope].app.inject({
        method: 'GET',
        url: `/api/v2/scanner/scans/${path(runs.scan[scope])}`,
        headers: AUTHED,
      }),
      backends[scope].app.inject({
        method: 'GET',
        url: `/api/v1/reports/${path(runs.report[scope])}`,
        headers: AUTHED,
      }),
      ingest[scope].inject({ method: 'GET', url: `/v1/ingest/${path(runs.ingest[scope])}` }),
    ]);
    for (const response of await Promise.all(reads)) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ status: 'running' });
    }
  });

  it('confuses no scope with another that it begins or that begins it, nor a kind with a longer name', async () => {
    const run = randomUUID();
    const address = evmAddress();
    // Each is well formed and names a scan that no deployment here started: the scope check, not
    // Temporal, must refuse it (404 at once, whatever key asks).
    const crafted = [
      `${SCOPE_B}scan:devnet:${address}:${run}`, // `ab`'s, asked of `a`
      `${SCOPE_A}bscan:devnet:${address}:${run}`, // the same, spelled as `a` + `bscan`
      `${SCOPE_A}scanscan:devnet:${address}:${run}`, // a scope `<a>scan`
      `${SCOPE_A}scans:devnet:${address}:${run}`,
      `${SCOPE_A}_scan:devnet:${address}:${run}`,
      `${SCOPE_A.slice(0, -1)}scan:devnet:${address}:${run}`, // a shorter scope
      `${SCOPE_A.toUpperCase()}scan:devnet:${address}:${run}`, // the scope's letters in capitals
      `scan:devnet:${address}:${run}`, // the empty scope's
      `${'a'.repeat(64)}scan:devnet:${address}:${run}`, // the longest scope
      `${SCOPE_A}report:token_devnet:${address}:${run}`, // another kind
    ];
    for (const jobId of crafted) {
      const { app } = backends.a;
      expectProblem(
        await app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${path(jobId)}`, headers: OPS }),
        404,
        'job_not_found',
      );
      expectProblem(
        await app.inject({ method: 'DELETE', url: `/api/v2/scanner/scans/${path(jobId)}`, headers: OPS }),
        404,
        'job_not_found',
      );
    }
    // The empty scope takes no scoped id for its own, and `ab` no id of `a`.
    for (const [reader, jobId] of [
      ['e', `${SCOPE_A}scan:devnet:${address}:${run}`],
      ['e', `ascan:devnet:${address}:${run}`],
      ['b', `${SCOPE_A}scan:devnet:${address}:${run}`],
    ] as const)
      expectProblem(
        await backends[reader].app.inject({
          method: 'GET',
          url: `/api/v2/scanner/scans/${path(jobId)}`,
          headers: OPS,
        }),
        404,
        'job_not_found',
      );
  });
  it("answers this deployment's well-formed ids that name no run as no job, never a 500", async () => {
    const { app } = backends.a;
    const run = randomUUID();
    const ids = {
      scan: [
        `${scanWorkflowId('devnet', evmAddress(), SCOPE_A)}:${run}`,
        `${scanWorkflowId('x'.repeat(120), 'Z'.repeat(64), SCOPE_A)}:${run}`, // no such chain, the longest address
        `${scanWorkflowId('solana_devnet', '1'.repeat(44), SCOPE_A)}:${run}`,
      ],
      report: [
        `${SCOPE_A}report:token_devnet:${evmAddress()}:${run}`,
        `${SCOPE_A}report:wallet_nowhere:${'9'.repeat(64)}:${run}`,
      ],
    };
    for (const jobId of ids.scan) {
      const url = `/api/v2/scanner/scans/${path(jobId)}`;
      expectProblem(await app.inject({ method: 'GET', url, headers: AUTHED }), 404, 'job_not_found');
      expectProblem(await app.inject({ method: 'DELETE', url, headers: OPS }), 404, 'job_not_found');
      // Anonymous: not held, as for a job that runs (the answer does not tell them apart).
      expectProblem(await app.inject({ method: 'GET', url }), 403, 'job_not_owned');
    }
    for (const jobId of ids.report) {
      const base = `/api/v1/reports/${path(jobId)}`;
      for (const url of [base, `${base}/events`, `${base}/report.json`]) {
        expectProblem(await app.inject({ method: 'GET', url, headers: AUTHED }), 404, 'job_not_found');
        expectProblem(await app.inject({ method: 'GET', url }), 403, 'job_not_owned');
      }
      // An operator's cancel of no run: no job (404), as for scans (it answered 409 once, and
      // left a cancel mark behind for an id that names nothing).
      expectProblem(await app.inject({ method: 'DELETE', url: base, headers: OPS }), 404, 'job_not_found');
    }
  });
});

describe("another kind's jobs", () => {
  it('answers a report or an ingest job on the scan routes as no scan job (404), to any caller', async () => {
    const { app } = backends.a;
    for (const jobId of [runs.report.a, runs.ingest.a])
      for (const headers of [AUTHED, OPS, { 'x-client-id': `kind-${tag}` }]) {
        expectProblem(
          await app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${path(jobId)}`, headers }),
          404,
          'job_not_found',
        );
        expectProblem(
          await app.inject({ method: 'DELETE', url: `/api/v2/scanner/scans/${path(jobId)}`, headers }),
          404,
          'job_not_found',
        );
      }
    expect(await runState(runs.report.a)).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  it('refuses a scan or ingest job on the report routes, the same whether the run exists or not', async () => {
    const { app } = backends.a;
    for (const jobId of [runs.scan.a, runs.ingest.a]) {
      const ref = parseJobId(jobId);
      const missing = formatJobId({ workflowId: ref?.workflowId ?? '', runId: randomUUID() });
      for (const suffix of ['', '/events', '/report.json']) {
        const [real, none] = await Promise.all(
          [jobId, missing].map((id) =>
            app.inject({ method: 'GET', url: `/api/v1/reports/${path(id)}${suffix}`, headers: OPS }),
          ),
        );
        // Not a report id (400 by the route's pattern) or no report here (404): never the run,
        // and nothing that tells a running job from none.
        expect([400, 404]).toContain(real?.statusCode);
        expectProblem(real as LightMyRequestResponse, real?.statusCode ?? 0);
        expect(none?.statusCode).toBe(real?.statusCode);
        expect(none?.json().code).toBe(real?.json().code);
      }
      const cancel = await app.inject({
        method: 'DELETE',
        url: `/api/v1/reports/${path(jobId)}`,
        headers: OPS,
      });
      expect([400, 404]).toContain(cancel.statusCode);
      expectProblem(cancel, cancel.statusCode);
      expect(await runState(jobId)).toEqual({ cancelRequested: false, status: 'RUNNING' });
    }
  });

  it('answers a scan or report job on the ingest route as no ingest job (404)', async () => {
    for (const jobId of [runs.scan.a, runs.report.a])
      expectProblem(
        await ingest.a.inject({ method: 'GET', url: `/v1/ingest/${path(jobId)}` }),
        404,
        'job_not_found',
      );
  });
});

/** Ids no deployment could have issued, made from a real one; `raw` ones go into the URL as they are. */
function malformed(jobId: string): { name: string; id: string; raw?: boolean }[] {
  const cut = jobId.lastIndexOf(':');
  const workflowId = jobId.slice(0, cut);
  const runId = jobId.slice(cut + 1);
  const [head = '', ...rest] = workflowId.split(':');
  return [
    { name: 'not a job id', id: 'not-a-job' },
    { name: 'the workflow id alone', id: workflowId },
    { name: 'an empty run id', id: `${workflowId}:` },
    { name: 'a run id in capitals', id: `${workflowId}:${runId.toUpperCase()}` },
    { name: 'a run id in braces', id: `${workflowId}:{${runId}}` },
    { name: 'a run id without dashes', id: `${workflowId}:${runId.replaceAll('-', '')}` },
    { name: 'two run ids', id: `${jobId}:${randomUUID()}` },
    { name: 'an extra segment', id: `${head}:extra:${rest.join(':')}:${runId}` },
    { name: 'an empty segment', id: `${head}::${rest.join(':')}:${runId}` },
    { name: 'a full-width colon', id: `${workflowId}\uff1a${runId}` },
    {
      name: 'a Cyrillic letter in the kind',
      id: jobId.replace(/(scan|report|ingest):/, (kind) => `\u0455${kind.slice(1)}`),
    },
    { name: 'a Greek letter in the scope', id: `\u03b1${jobId}` },
    { name: 'a zero-width space', id: `${workflowId}\u200b:${runId}` },
    { name: 'a trailing newline', id: `${jobId}\n` },
    { name: 'a leading space', id: ` ${jobId}` },
    { name: 'a NUL byte', id: `${jobId}\u0000` },
    { name: 'an encoded slash', id: `${workflowId}/${runId}` },
    { name: 'a path traversal', id: `../../live` },
    { name: 'a double-encoded colon', id: `${workflowId}%3A${runId}` },
    { name: 'a semicolon parameter', id: `${jobId};jsessionid=1` },
    { name: 'markup', id: `<script>alert(1)</script>:${runId}` },
    { name: 'a colon in the scope', id: `x:${jobId}` },
    { name: 'an address too long', id: `${head}:${rest[0]}:${'a'.repeat(65)}:${runId}` },
    { name: '256 characters', id: `${'a'.repeat(256 - jobId.length)}${jobId}`.slice(0, 256) },
    { name: 'past the router’s length', id: `${'a'.repeat(300)}${jobId}` },
    { name: 'a broken percent escape', id: `${workflowId}%E0%A4%A:${runId}`, raw: true },
    { name: 'a lone percent sign', id: `${workflowId}%:${runId}`, raw: true },
  ];
}

describe('malformed job ids', () => {
  /** The malformed id (or a bad URL) answers 400 bad_request; the problem never echoes the id. */
  function expectRefused(response: LightMyRequestResponse, id: string, status = 400, code = 'bad_request') {
    expectProblem(response, status, code);
    const { instance: _instance, ...rest } = response.json<Record<string, unknown>>();
    const echoed = JSON.stringify(rest);
    for (const marker of ['<script>', '\u0455', '\u03b1', 'jsessionid', 'aaaaaaaaaaaaaaaaaaaa'])
      if (id.includes(marker)) expect(echoed).not.toContain(marker);
  }
  /** Refused as malformed (400); a 256-character id of the right shape is another scope's (404). */
  function expectMalformedAnswer(name: string, response: LightMyRequestResponse, id: string) {
    if (name === '256 characters' && response.statusCode === 404)
      expectProblem(response, 404, 'job_not_found');
    else expectRefused(response, id);
  }

  it('answers 400 on the scan routes, for any caller, and never a 500', async () => {
    const { app } = backends.a;
    for (const { name, id, raw } of malformed(runs.scan.a)) {
      const url = `/api/v2/scanner/scans/${raw ? id : path(id)}`;
      for (const [method, headers] of [
        ['GET', AUTHED],
        ['GET', {}],
        ['DELETE', OPS],
        ['DELETE', { 'x-client-id': `malformed-${tag}` }],
      ] as const) {
        expectMalformedAnswer(name, await app.inject({ method, url, headers }), id);
      }
    }
    expect(await runState(runs.scan.a)).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  it('answers 400 on every report route, for any caller, and never a 500', async () => {
    const { app } = backends.a;
    for (const { name, id, raw } of malformed(runs.report.a)) {
      const base = `/api/v1/reports/${raw ? id : path(id)}`;
      for (const [method, url] of [
        ['GET', base],
        ['GET', `${base}/events`],
        ['GET', `${base}/report.json`],
        ['GET', `${base}/report.html`],
        ['DELETE', base],
      ] as const)
        for (const headers of [OPS, {}]) {
          expectMalformedAnswer(name, await app.inject({ method, url, headers }), id);
        }
    }
    expect(await runState(runs.report.a)).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  it('answers 404 on the ingest route (400 only for what the router itself refuses)', async () => {
    for (const { name, id, raw } of malformed(runs.ingest.a)) {
      const response = await ingest.a.inject({ method: 'GET', url: `/v1/ingest/${raw ? id : path(id)}` });
      if (name === 'past the router’s length' || raw) expectRefused(response, id);
      else expectRefused(response, id, 404, 'job_not_found');
    }
  });

  it('takes a percent-encoded id as the id itself: the same job, no other', async () => {
    // Every character escaped, colons included: the router decodes it to the same id.
    const escape = (id: string) =>
      [...id].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const { app } = backends.a;
    const own = await app.inject({
      method: 'GET',
      url: `/api/v2/scanner/scans/${escape(runs.scan.a)}`,
      headers: AUTHED,
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().job_id).toBe(runs.scan.a);
    expectProblem(
      await app.inject({
        method: 'GET',
        url: `/api/v2/scanner/scans/${escape(runs.scan.b)}`,
        headers: AUTHED,
      }),
      404,
      'job_not_found',
    );
  });

  it('answers the bare collection paths and a missing id with a problem, not a job', async () => {
    const { app } = backends.a;
    for (const [method, url] of [
      ['GET', '/api/v2/scanner/scans/'],
      ['DELETE', '/api/v2/scanner/scans/'],
      ['GET', '/api/v1/reports//events'],
      ['GET', '/api/v1/reports//report.json'],
      ['GET', '/v1/ingest/'],
    ] as const) {
      const response = await (url.startsWith('/v1/') ? ingest.a : app).inject({ method, url, headers: OPS });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});

describe("another caller's jobs", () => {
  // One network, and its neighbours: the owner is its network and X-Client-ID.
  const NET = '198.51.100.7';
  const OTHER_NET = '198.51.100.8';
  const owner = { headers: { 'x-client-id': `owner-${tag}` }, remoteAddress: NET };
  const strangers = {
    'another client id on the same network': {
      headers: { 'x-client-id': `stranger-${tag}` },
      remoteAddress: NET,
    },
    'no client id on the same network': { headers: {}, remoteAddress: NET },
    'a malformed client id on the same network': { headers: { 'x-client-id': 'x' }, remoteAddress: NET },
    "the owner's client id from another network": {
      headers: { 'x-client-id': `owner-${tag}` },
      remoteAddress: OTHER_NET,
    },
    "the owner's client id and a forged X-Forwarded-For": {
      headers: { 'x-client-id': `owner-${tag}`, 'x-forwarded-for': NET, 'x-real-ip': NET },
      remoteAddress: OTHER_NET,
    },
    "the owner's client id with other case": {
      headers: { 'x-client-id': `OWNER-${tag}` },
      remoteAddress: NET,
    },
  } as const;

  let scanJob: string;
  let reportJob: string;
  beforeAll(async () => {
    const { app } = backends.a;
    const [scan, report] = await Promise.all([
      app.inject({
        method: 'POST',
        url: '/api/v2/scanner/scans',
        ...owner,
        payload: { chain: 'devnet', address: evmAddress(), fresh: true },
      }),
      app.inject({
        method: 'POST',
        url: '/api/v1/reports',
        ...owner,
        payload: { kind: 'token', chain: 'devnet', address: evmAddress() },
      }),
    ]);
    expect(scan.statusCode, scan.body).toBe(202);
    expect(report.statusCode, report.body).toBe(202);
    scanJob = trackJob(scan.json().job_id);
    reportJob = trackJob(report.json().job_id);
  });

  it('lets no stranger read, probe or cancel a scan job it never held (403), and the job goes on', async () => {
    const { app } = backends.a;
    const url = `/api/v2/scanner/scans/${path(scanJob)}`;
    for (const [who, stranger] of Object.entries(strangers)) {
      for (const method of ['GET', 'HEAD', 'DELETE'] as const) {
        const response = await app.inject({ method, url, ...stranger });
        expect(response.statusCode, `${who} ${method}: ${response.body}`).toBe(403);
        if (method !== 'HEAD') expectProblem(response, 403, 'job_not_owned');
      }
    }
    expect(await runState(scanJob)).toEqual({ cancelRequested: false, status: 'RUNNING' });
    // The owner still holds it, by its id plainly or escaped.
    const [plain, escaped] = await Promise.all([
      app.inject({ method: 'GET', url, ...owner }),
      app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${scanJob.replaceAll(':', '%3a')}`, ...owner }),
    ]);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(escaped.statusCode, escaped.body).toBe(200);
  });

  it("gives the owner no other run of the job's workflow, nor a case variant of it", async () => {
    const { app } = backends.a;
    const ref = parseJobId(scanJob);
    const workflowId = ref?.workflowId ?? '';
    const otherRun = formatJobId({ workflowId, runId: randomUUID() });
    // Anonymous: 403 as for any job not held (nothing tells a run that exists from one that does not).
    expectProblem(
      await app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${path(otherRun)}`, ...owner }),
      403,
      'job_not_owned',
    );
    const address = workflowId.split(':')[2] ?? '';
    const upper = `${workflowId.replace(address, `0x${address.slice(2).toUpperCase()}`)}:${ref?.runId}`;
    expect(upper).not.toBe(scanJob);
    expectProblem(
      await app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${path(upper)}`, ...owner }),
      403,
      'job_not_owned',
    );
    // With a key it is simply no job (the run is the lowercase one's).
    expectProblem(
      await app.inject({ method: 'GET', url: `/api/v2/scanner/scans/${path(upper)}`, headers: AUTHED }),
      404,
      'job_not_found',
    );
  });

  it('gives the owner its job on no other deployment: the scope, not the holder, decides (404)', async () => {
    for (const scope of ['b', 'e'] as const)
      for (const method of ['GET', 'DELETE'] as const)
        expectProblem(
          await backends[scope].app.inject({
            method,
            url: `/api/v2/scanner/scans/${path(scanJob)}`,
            ...owner,
          }),
          404,
          'job_not_found',
        );
    expect(await runState(scanJob)).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  it('lets no stranger read, follow, download or cancel a report it never asked for (403)', async () => {
    const { app } = backends.a;
    const base = `/api/v1/reports/${path(reportJob)}`;
    for (const [who, stranger] of Object.entries(strangers)) {
      for (const url of [
        base,
        `${base}/events`,
        `${base}/report.json`,
        `${base}/report.md`,
        `${base}/report.pdf`,
      ]) {
        const response = await app.inject({ method: 'GET', url, ...stranger });
        expect(response.statusCode, `${who} GET ${url}: ${response.body}`).toBe(403);
        expectProblem(response, 403, 'job_not_owned');
      }
      const cancel = await app.inject({ method: 'DELETE', url: base, ...stranger });
      expect(cancel.statusCode, `${who} DELETE: ${cancel.body}`).toBe(403);
      expectProblem(cancel, 403, 'job_not_owned');
    }
    expect(await runState(reportJob)).toEqual({ cancelRequested: false, status: 'RUNNING' });
    // The owner reads it; its download is not ready yet (409), which strangers were not told.
    const [read, download] = await Promise.all([
      app.inject({ method: 'GET', url: base, ...owner }),
      app.inject({ method: 'GET', url: `${base}/report.json`, ...owner }),
    ]);
    expect(read.statusCode, read.body).toBe(200);
    expectProblem(download, 409, 'report_not_ready');
  });

  it('lets another key read (API keys read any job) but not cancel a job it does not hold', async () => {
    const { app } = backends.a;
    const cancelScan = await app.inject({
      method: 'DELETE',
      url: `/api/v2/scanner/scans/${path(scanJob)}`,
      headers: AUTHED,
    });
    expectProblem(cancelScan, 403, 'job_not_owned');
    const cancelReport = await app.inject({
      method: 'DELETE',
      url: `/api/v1/reports/${path(reportJob)}`,
      headers: AUTHED,
    });
    expectProblem(cancelReport, 403, 'job_not_owned');
    expect(await runState(scanJob)).toEqual({ cancelRequested: false, status: 'RUNNING' });
    expect(await runState(reportJob)).toEqual({ cancelRequested: false, status: 'RUNNING' });
  });

  /** A report started through the generate_report tool on its free trial: its job id. */
  async function reportByTool(caller: { headers: Record<string, string>; remoteAddress: string }) {
    const started = await backends.a.app.inject({
      method: 'POST',
      url: '/api/v1/x402-tools/generate_report',
      ...caller,
      payload: { kind: 'token', chain: 'devnet', address: evmAddress() },
    });
    expect(started.statusCode, started.body).toBe(200);
    const jobId = findJobId(started.json());
    if (!jobId) throw new Error(`no job in ${started.body}`);
    // The answer names the job's status and download URLs: they are the caller's to follow.
    expect(started.body).toContain(`/api/v1/reports/${path(jobId)}`);
    return trackJob(jobId);
  }

  it('lets the caller that started a report through the generate_report tool read it, and no stranger', async () => {
    const { app } = backends.a;
    const caller = { headers: { 'x-client-id': `tool-reader-${tag}` }, remoteAddress: '198.51.100.9' };
    const jobId = await reportByTool(caller);
    const stranger = await app.inject({
      method: 'GET',
      url: `/api/v1/reports/${path(jobId)}`,
      headers: { 'x-client-id': `tool-stranger-${tag}` },
      remoteAddress: '198.51.100.9',
    });
    expectProblem(stranger, 403, 'job_not_owned');
    const read = await app.inject({ method: 'GET', url: `/api/v1/reports/${path(jobId)}`, ...caller });
    expect(read.statusCode, read.body).toBe(200);
    const listed = await app.inject({ method: 'GET', url: '/api/v1/reports', ...caller });
    expect(listed.json().reports.map((entry: { job_id: string }) => entry.job_id)).toContain(jobId);
  });

  it('lets the caller that started a report through the generate_report tool cancel it', async () => {
    const { app } = backends.a;
    const caller = { headers: { 'x-client-id': `tool-canceller-${tag}` }, remoteAddress: '198.51.100.10' };
    const jobId = await reportByTool(caller);
    const cancel = await app.inject({ method: 'DELETE', url: `/api/v1/reports/${path(jobId)}`, ...caller });
    expect(cancel.statusCode, cancel.body).toBe(202);
    expect(cancel.json()).toMatchObject({ outcome: 'cancel' });
    expect((await runState(jobId)).cancelRequested).toBe(true);
  });

  it("lists a caller's reports to it alone", async () => {
    const { app } = backends.a;
    const list = async (caller: { headers: Record<string, string>; remoteAddress: string }) =>
      (await app.inject({ method: 'GET', url: '/api/v1/reports', ...caller }))
        .json<{ reports: { job_id: string }[] }>()
        .reports.map((entry) => entry.job_id);
    expect(await list(owner)).toContain(reportJob);
    for (const stranger of Object.values(strangers)) expect(await list(stranger)).not.toContain(reportJob);
  });
});

/** The first `job_id` anywhere in an answer. */
function findJobId(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.job_id === 'string') return record.job_id;
  for (const inner of Object.values(record)) {
    const found = findJobId(inner);
    if (found) return found;
  }
  return undefined;
}
