import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type VigilApp } from '../../api/plugins/service.ts';
import { refusedWordLog } from '../../api/scraper/wordLog.ts';
import { AUTHED, isolatedEnv, startTestBackend, type TestBackend } from '../support/fixtures.ts';
import { awayFromMinuteEdge } from '../support/until.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Samples of the text exposition format: `name{label="value",...} number`, comments skipped. */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((label) => [
          label[1],
          label[2],
        ]),
      );
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}
const scrape = async (app: VigilApp) => {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(response.body);
};

describe('metrics on every service', () => {
  let app: VigilApp;
  beforeAll(async () => {
    app = await createService({ service: 'example', publicUrl: 'http://vigil.test', logger: false });
    app.get('/things/:id', { schema: { summary: 'a thing' } }, () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  it("counts the scrape service's refused tier words by reason", async () => {
    const log = refusedWordLog(app);
    log.warn({ job_id: 'scrape:a', reason: "names another job's page" }, 'refused');
    log.warn({ job_id: 'scrape:b', reason: "names another job's page" }, 'refused');
    log.warn({ job_id: 'scrape:c', reason: 'not JSON' }, 'refused');
    const refused = (await scrape(app)).filter((sample) => sample.name === 'scraper_refused_words_total');
    expect(refused.map((sample) => [sample.labels.reason, sample.value])).toEqual([
      ["names another job's page", 2],
      ['not JSON', 1],
    ]);
  });

  it('counts requests by route pattern, method and status — never by raw URL — with the process metrics', async () => {
    for (const id of ['0xabc', '0xdef', '0x123']) await app.inject({ method: 'GET', url: `/things/${id}` });
    await app.inject({ method: 'GET', url: '/no/such/path/0x999' });
    const scraped = await scrape(app);
    const counts = scraped
      .filter((sample) => sample.name === 'http_request_duration_seconds_count')
      .map((sample): Record<string, string | number> => ({ ...sample.labels, count: sample.value }));
    expect(counts).toContainEqual({
      route: '/things/:id',
      method: 'GET',
      status_code: '200',
      service: 'example',
      count: 3,
    });
    expect(counts).toContainEqual({
      route: 'unmatched',
      method: 'GET',
      status_code: '404',
      service: 'example',
      count: 1,
    });
    expect(JSON.stringify(scraped)).not.toContain('0xabc');
    // The scrape itself is not a series.
    expect(counts.some((labels) => labels.route === '/metrics')).toBe(false);
    const names = new Set(scraped.map((sample) => sample.name));
    for (const name of [
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ])
      expect(names).toContain(name);
  });
});

describe('metrics on the backend', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    // One anonymous call a minute: a scraper of metrics must never be the one refused.
    backend = await startTestBackend(isolatedEnv({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1' }));
  });
  afterAll(() => backend?.close());

  it('answers /metrics past the anonymous rate limit, labelled backend, and keeps it out of the OpenAPI document', async () => {
    await awayFromMinuteEdge(); // the limit counts in fixed wall-clock minutes
    for (let i = 0; i < 3; i += 1) await backend.app.inject({ method: 'GET', url: '/api/v1/x402/pricing' });
    const limited = await backend.app.inject({ method: 'GET', url: '/api/v1/x402/pricing' });
    expect(limited.statusCode).toBe(429);
    const statuses = (await scrape(backend.app))
      .filter(
        (sample) =>
          sample.name === 'http_request_duration_seconds_count' &&
          sample.labels.route === '/api/v1/x402/pricing',
      )
      .map((sample) => [sample.labels.status_code, sample.labels.service, sample.value]);
    expect(statuses).toContainEqual(['429', 'backend', 3]);
    const openapi = (
      await backend.app.inject({ method: 'GET', url: '/openapi.json', headers: AUTHED })
    ).json<{
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
  });
});
