import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, processMemoryBytes, QueryFailed, sizeInBytes } from './engine.ts';
import { SandboxedAnalytics } from './sandbox.ts';

// An overrunning user query is ended by killing its process. Each user query has a process to
// itself and Vigil's own queries another, so that kill ends no other query. The stuck query is
// made by stopping its process (SIGSTOP): the fault injected is "a query that never reaches an
// interrupt check", which no query the SQL guard lets through produces on demand.

const LIMITS = { timeoutMs: 800, memoryLimit: '256MB', maxRows: 100, concurrency: 2 };

describe('the analytics sandbox', () => {
  let root: string;
  let analytics: SandboxedAnalytics;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'vigil-sandbox-'));
    analytics = new SandboxedAnalytics(root, LIMITS);
    await Promise.all([analytics.query('SELECT 1 AS one'), analytics.internal('SELECT 1 AS one')]);
  }, 60_000);

  afterAll(() => analytics?.close());

  it('ends a stuck query alone: a user query and a data-route query running beside it answer', async () => {
    // Far more than the timeout allows, so that it cannot finish before it is stopped (a hundred
    // million rows finished in time once, on a loaded machine, and answered instead of failing).
    const stuck = analytics.query('SELECT count(*) AS n FROM range(100000000000)').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const running = analytics.processes().find((entry) => entry.role === 'query' && entry.busy);
    if (!running?.pid) throw new Error('no query process is running the query');
    process.kill(running.pid, 'SIGSTOP');
    const beside = analytics.query('SELECT 40 + 2 AS answer');
    const internal = analytics.internal("SELECT 'ok' AS status");
    expect((await beside).rows).toEqual([{ answer: 42 }]);
    expect((await internal).rows).toEqual([{ status: 'ok' }]);
    const error = await stuck;
    expect(error).toBeInstanceOf(QueryFailed);
    expect((error as QueryFailed).reason).toBe('timeout');
    // The stopped process was killed (and reaped) and a new one answers.
    const alive = () => {
      try {
        process.kill(running.pid as number, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; alive() && waited < 3_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
    expect((await analytics.query('SELECT 7 AS seven')).rows).toEqual([{ seven: 7 }]);
  }, 30_000);

  it('runs at most ANALYTICS_CONCURRENCY user queries at once, and refuses the next as busy when none frees up', async () => {
    const slow = 'SELECT count(*) AS n FROM range(100000000000)';
    const first = [analytics.query(slow), analytics.query(slow)];
    const queries = analytics.processes().filter((entry) => entry.role === 'query');
    expect(queries).toHaveLength(2);
    expect(queries.every((entry) => entry.busy)).toBe(true);
    const third = await analytics.query('SELECT 1 AS one', { timeoutMs: 200 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(third).toBeInstanceOf(QueryFailed);
    expect((third as QueryFailed).reason).toBe('busy');
    for (const outcome of await Promise.allSettled(first)) expect(outcome.status).toBe('rejected');
    expect((await analytics.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  }, 30_000);
});

describe('the process memory bound', () => {
  it('defaults to twice DuckDB’s limit plus 512 MiB, and takes an explicit bound in MiB', () => {
    expect(sizeInBytes('512MB')).toBe(512e6);
    expect(sizeInBytes('1.5 GiB')).toBe(1.5 * 2 ** 30);
    expect(() => sizeInBytes('lots')).toThrow(/not a size/);
    expect(processMemoryBytes({ ...DEFAULT_LIMITS, memoryLimit: '256MiB' })).toBe(1024 * 2 ** 20);
    expect(processMemoryBytes({ ...DEFAULT_LIMITS, processMemoryMb: 300 })).toBe(300 * 2 ** 20);
  });
});
