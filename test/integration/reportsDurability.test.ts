import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportJob } from '../../api/backend/reportJobs.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import { type ManagedProcess, REPO_ROOT, spawnService } from '../../infra/stack/processes.ts';
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

/** The reports pool as its own process, exactly as `npm run worker -- reports` runs it. */
function spawnReportsWorker(env: Record<string, string>): Promise<ManagedProcess> {
  return spawnService({
    name: 'reports-worker',
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'reports'],
    env: { ...process.env, ...env },
    readyTimeoutMs: 60_000,
    ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
  });
}

describe('report durability', () => {
  const { rpcUrl, scenario } = testStack();
  let backend: TestBackend;
  let workers: RunningWorkers;
  let retrieval: Server;
  let env: Record<string, string>;
  const spawned: ManagedProcess[] = [];
  /** Similar-token requests seen; the first is held until released, so the kill lands mid-report. */
  let requests = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    retrieval = createServer((req, res) => {
      requests += 1;
      req.resume();
      void released.then(() =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"tokens":[],"indexed_tokens":0}'),
      );
    });
    await new Promise<void>((resolve) => retrieval.listen(0, '127.0.0.1', resolve));
    const root = await chaindataDir();
    await indexDevnet(root, rpcUrl);
    env = isolatedEnv({
      CHAINDATA_DIR: root,
      RETRIEVAL_URL: `http://127.0.0.1:${(retrieval.address() as AddressInfo).port}`,
      WORKER_SHUTDOWN_GRACE_SECONDS: '0',
      // The spawned worker reads its providers from the environment, as in production.
      RPC_URLS_DEVNET: rpcUrl,
    });
    workers = await startTestWorkers(env, { queues: [TaskQueue.scanner, TaskQueue.scraper] });
    backend = await startTestBackend(env);
  }, 240_000);
  afterAll(async () => {
    release();
    await Promise.allSettled(spawned.map((worker) => worker.stop(5_000)));
    await backend?.close();
    await workers?.shutdown();
    retrieval?.closeAllConnections();
    await new Promise<void>((resolve) => retrieval?.close(() => resolve()));
  });

  const read = async (jobId: string) =>
    (
      await backend.app.inject({
        method: 'GET',
        url: `/api/v1/reports/${encodeURIComponent(jobId)}`,
        headers: AUTHED,
      })
    ).json<ReportJob>();

  it('completes a report whose worker is SIGKILLed mid-report, without redoing the sections it finished', async () => {
    const first = await spawnReportsWorker(env);
    spawned.push(first);
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: AUTHED,
      payload: { chain: 'devnet', address: scenario.tokens.thin_pool.address },
    });
    expect(response.statusCode, response.body).toBe(202);
    const jobId = response.json<ReportJob>().job_id;
    // Every section but the held one is done: kill the worker there.
    const before = await until(
      async () => {
        const job = await read(jobId);
        const sections = job.progress?.sections ?? {};
        return sections.similar?.status === 'running' && (job.progress?.done ?? 0) >= 5 ? job : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 100 },
    );
    first.child.kill('SIGKILL');
    await first.exited;
    release();
    spawned.push(await spawnReportsWorker(env));
    const done = await until(
      async () => {
        const job = await read(jobId);
        return job.status === 'running' ? undefined : job;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const report = (
      await backend.app.inject({
        method: 'GET',
        url: `/api/v1/reports/${encodeURIComponent(jobId)}/report.json`,
        headers: AUTHED,
      })
    ).json<{ sections: { kind: string; status: string; error?: unknown }[] }>();
    const failed = report.sections.filter((section) => section.status !== 'completed');
    expect(failed, JSON.stringify(failed)).toEqual([]);
    const finishedBefore = Object.entries(before.progress?.sections ?? {})
      .filter(([, section]) => section.status === 'completed')
      .map(([kind]) => kind);
    expect(finishedBefore).toEqual(
      expect.arrayContaining(['scan', 'deployer', 'holders', 'liquidity', 'news']),
    );

    // The history counts executions: one child scan, each section scheduled once, and every
    // activity that had completed before the kill completed on its first attempt.
    const cut = jobId.lastIndexOf(':');
    const handle = backend.deps.temporal.client.workflow.getHandle(jobId.slice(0, cut), jobId.slice(cut + 1));
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = new Map<number, string>();
    for (const event of events) {
      const attributes = event.activityTaskScheduledEventAttributes;
      if (attributes) scheduled.set(Number(event.eventId), attributes.activityType?.name ?? '');
    }
    const sectionRuns = [...scheduled.values()].filter((name) => name === 'writeSection').length;
    expect(sectionRuns).toBe(5);
    expect(events.filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toHaveLength(
      1,
    );
    const attempts = events
      .filter((event) => event.activityTaskStartedEventAttributes)
      .map((event) => ({
        name: scheduled.get(Number(event.activityTaskStartedEventAttributes?.scheduledEventId)),
        attempt: event.activityTaskStartedEventAttributes?.attempt ?? 0,
      }));
    // Exactly one section ran again: the one held when the worker died. Usually on attempt 2; a
    // loaded machine can lose one more (a CI run finished it on attempt 3: the first retry after
    // the kill was lost too, and ran again when its heartbeat timed out).
    const retried = attempts.filter((entry) => entry.attempt > 1);
    expect(retried.map((entry) => entry.name)).toEqual(['writeSection']);
    const heldAttempts = retried[0]?.attempt ?? 0;
    expect(heldAttempts).toBeLessThanOrEqual(3);
    // Its request was made again by each attempt that ran, and by no finished section.
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(requests).toBeLessThanOrEqual(heldAttempts);
  }, 240_000);
});
