import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { chromium } from 'playwright-core';
import { resolveChromiumPath } from '../../scraper/browser/launchOptions.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { recordHistory } from '../support/recordHistory.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { ReportJob } from '../../api/backend/reportJobs.ts';
import { Report } from '../../reports/core/schema.ts';
import { WORKFLOWS_ENTRY } from '../../workers/workflowBundle.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { chaindataDir, indexDevnet } from '../support/chaindata.ts';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';
import { until } from '../support/until.ts';

describe('research reports on the indexed devnet', () => {
  const { rpcUrl, scenario } = testStack();
  let backend: TestBackend;
  let workers: RunningWorkers;
  let env: Record<string, string>;

  beforeAll(async () => {
    const root = await chaindataDir();
    await indexDevnet(root, rpcUrl);
    // No retrieval service listens here: the similar-tokens section fails and is marked.
    env = isolatedEnv({
      CHAINDATA_DIR: root,
      RETRIEVAL_URL: 'http://127.0.0.1:9',
      RATE_LIMIT_PRO_PER_MINUTE: '100000',
      RATE_LIMIT_PRO_PER_DAY: '1000000',
    });
    workers = await startTestWorkers(env, {
      queues: [TaskQueue.scanner, TaskQueue.reports, TaskQueue.scraper],
    });
    backend = await startTestBackend(env);
  }, 240_000);
  afterAll(async () => {
    await backend?.close();
    await workers?.shutdown();
  });

  const start = async (address: string, headers: Record<string, string> = AUTHED) => {
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers,
      payload: { chain: 'devnet', address },
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json<ReportJob>();
  };
  const read = async (jobId: string) =>
    (
      await backend.app.inject({
        method: 'GET',
        url: `/api/v1/reports/${encodeURIComponent(jobId)}`,
        headers: AUTHED,
      })
    ).json<ReportJob>();
  const finished = async (jobId: string) => {
    let last: ReportJob | undefined;
    try {
      return await until(
        async () => {
          last = await read(jobId);
          return last.status === 'running' ? undefined : last;
        },
        { timeoutMs: 120_000, intervalMs: 250 },
      );
    } catch (error) {
      const [workflowId = '', runId] = [
        jobId.slice(0, jobId.lastIndexOf(':')),
        jobId.slice(jobId.lastIndexOf(':') + 1),
      ];
      const pending = (
        await backend.deps.temporal.client.workflow.getHandle(workflowId, runId).describe()
      ).raw.pendingActivities?.map(
        (activity) => `${activity.activityType?.name}: ${activity.lastFailure?.message}`,
      );
      throw new Error(`report still running: ${JSON.stringify(last?.progress)} ${JSON.stringify(pending)}`, {
        cause: error,
      });
    }
  };

  it('writes every section of a report on a rugged token, marks the failing one, and renders each format', async () => {
    const token = scenario.tokens.rug_pulled.address;
    const job = await finished((await start(token)).job_id);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const statuses = Object.fromEntries((job.result?.sections ?? []).map((s) => [s.kind, s.status]));
    expect(statuses).toMatchObject({
      scan: 'completed',
      deployer: 'completed',
      holders: 'completed',
      liquidity: 'completed',
      news: 'completed',
      charts: 'completed',
      // Its service is not there: marked failed, the report completes anyway.
      similar: 'failed',
    });
    expect(job.result?.author).toBe('templates');

    const json = await backend.app.inject({ method: 'GET', url: job.downloads.json ?? '', headers: AUTHED });
    const report = Report.parse(json.json());
    const liquidity = report.sections.find((s) => s.kind === 'liquidity');
    // The rug shows as a threat signal pinned to its transaction.
    expect(liquidity?.facts.some((fact) => fact.id.startsWith('signal-liquidity_pulled'))).toBe(true);
    // Every fact a summary sentence cites exists; every fact has evidence or says there is none.
    const ids = new Set(report.sections.flatMap((s) => s.facts.map((fact) => fact.id)));
    for (const sentence of report.narrative.sentences)
      for (const id of sentence.cites) expect(ids).toContain(id);
    const charts = report.sections.find((s) => s.kind === 'charts')?.charts.map((chart) => chart.id);
    expect(charts).toEqual(expect.arrayContaining(['price', 'liquidity', 'holders', 'score']));

    const md = await backend.app.inject({
      method: 'GET',
      url: `/api/v1/reports/${encodeURIComponent(job.job_id)}/report.md`,
      headers: AUTHED,
    });
    expect(md.headers['content-type']).toContain('text/markdown');
    expect(md.body).toContain('## Liquidity and price history');
    // Its history replays on the current workflow code (recorded for the offline replay test).
    const cut = job.job_id.lastIndexOf(':');
    const history = await backend.deps.temporal.client.workflow
      .getHandle(job.job_id.slice(0, cut), job.job_id.slice(cut + 1))
      .fetchHistory();
    await Worker.runReplayHistory({ workflowsPath: WORKFLOWS_ENTRY }, history);
    if (process.env.RECORD_HISTORIES) {
      recordHistory('generateReport', history);
    }
    const html = await backend.app.inject({
      method: 'GET',
      url: `/api/v1/reports/${encodeURIComponent(job.job_id)}/report.html`,
      headers: AUTHED,
    });
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect(html.body).toContain('data-status="failed"');
  }, 180_000);

  it('joins identical concurrent requests into one report, lists it for each caller, and refuses other callers', async () => {
    const token = scenario.tokens.clean.address;
    const first = { 'x-client-id': `report-${randomUUID()}` };
    const second = { 'x-client-id': `report-${randomUUID()}` };
    const [a, b] = await Promise.all([start(token, first), start(token, second)]);
    expect(a.job_id).toBe(b.job_id);
    const mine = await backend.app.inject({ method: 'GET', url: '/api/v1/reports', headers: first });
    expect(mine.json().reports.map((r: { job_id: string }) => r.job_id)).toContain(a.job_id);
    const stranger = await backend.app.inject({
      method: 'GET',
      url: `/api/v1/reports/${encodeURIComponent(a.job_id)}`,
      headers: { 'x-client-id': `report-${randomUUID()}` },
    });
    expect(stranger.statusCode).toBe(403);
    expect((await finished(a.job_id)).status).toBe('completed');
  }, 180_000);

  it("writes a wallet's report from the chain index", async () => {
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: AUTHED,
      payload: { kind: 'wallet', chain: 'devnet', address: scenario.deployers.clean },
    });
    expect(response.statusCode, response.body).toBe(202);
    const job = await finished(response.json<ReportJob>().job_id);
    const json = await backend.app.inject({ method: 'GET', url: job.downloads.json ?? '', headers: AUTHED });
    expect(job.result?.sections, json.body.slice(0, 600)).toEqual([
      { kind: 'wallet', status: 'completed' },
      { kind: 'news', status: 'completed' },
      { kind: 'charts', status: 'completed' },
    ]);
    const report = Report.parse(
      (await backend.app.inject({ method: 'GET', url: job.downloads.json ?? '', headers: AUTHED })).json(),
    );
    const wallet = report.sections.find((section) => section.kind === 'wallet');
    expect(wallet?.facts.some((fact) => fact.id.startsWith('wallet-deployed-'))).toBe(true);
  }, 120_000);

  it('cancels a report by workflow cancellation', async () => {
    const job = await start(scenario.tokens.honeypot.address);
    const cancel = await backend.app.inject({
      method: 'DELETE',
      url: `/api/v1/reports/${encodeURIComponent(job.job_id)}`,
      headers: AUTHED,
    });
    expect(cancel.statusCode, cancel.body).toBe(202);
    const ended = await finished(job.job_id);
    expect(ended.status).toBe('cancelled');
  }, 60_000);

  it('refuses a subject that is not an address before any job starts', async () => {
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: AUTHED,
      payload: { chain: 'devnet', address: 'not-an-address' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('invalid_address');
  });

  it('streams progress to completion over HTTP, and the HTML opens in a real browser with its charts and no hostile script', async () => {
    const token = scenario.tokens.concentrated.address;
    // A feed item with a script and a javascript: link, linked to the token: it is printed in the report.
    await backend.deps.news.add([
      {
        id: `hostile-${randomUUID()}`,
        title: '<script>window.pwned=1</script><img src=x onerror="window.pwned=2"> listing rumour',
        summary: '',
        url: 'javascript:window.pwned=3',
        source: 'feed"><script>window.pwned=4</script>',
        published_at: new Date().toISOString(),
        sentiment: { label: 'neutral', score: 0, method: 'lexicon' },
        entities: [{ chain: 'devnet', address: token.toLowerCase(), symbol: null, matched: token }],
      },
    ]);
    const base = await listenOnLoopback(backend.app);
    const headers = { ...AUTHED, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/reports`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ chain: 'devnet', address: token }),
    });
    expect(created.status).toBe(202);
    const job = (await created.json()) as ReportJob;
    const events = await fetch(job.events_url.replace('http://vigil.test', base), { headers: AUTHED });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const stream = await events.text();
    const names = [...stream.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(names[0]).toBe('progress');
    expect(names.at(-1)).toBe('completed');
    const final = JSON.parse(
      stream
        .trim()
        .split('\n')
        .at(-1)
        ?.replace(/^data: /, '') ?? '{}',
    ) as ReportJob;
    expect(final.result?.formats).toEqual(expect.arrayContaining(['json', 'md', 'html', 'pdf']));

    const pdf = await fetch(`${base}/api/v1/reports/${encodeURIComponent(job.job_id)}/report.pdf`, {
      headers: AUTHED,
    });
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);

    const browser = await chromium.launch({
      executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH),
      chromiumSandbox: false,
    });
    try {
      const page = await browser.newPage({ extraHTTPHeaders: AUTHED });
      await page.goto(`${base}/api/v1/reports/${encodeURIComponent(job.job_id)}/report.html`);
      const charts = await page.$$eval('figure[data-chart] img', (images) =>
        images.map((element) => {
          const image = element as unknown as { complete: boolean; naturalWidth: number };
          return { done: image.complete, width: image.naturalWidth };
        }),
      );
      expect(charts.length).toBeGreaterThanOrEqual(3);
      expect(charts.every((chart) => chart.done && chart.width > 0)).toBe(true);
      expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
      expect(await page.$$('script')).toHaveLength(0);
      expect(
        await page.$$eval(
          'a',
          (links) => links.filter((link) => /^javascript:/i.test(link.getAttribute('href') ?? '')).length,
        ),
      ).toBe(0);
      expect(await page.textContent('section[data-section="news"]')).toContain(
        '<script>window.pwned=1</script>',
      );
    } finally {
      await browser.close();
    }
  }, 180_000);
});
