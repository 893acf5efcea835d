import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxedAnalytics } from './sandbox.ts';
import { SqlRejected } from './sqlGuard.ts';
import { alive, failedWith, settle, sleep } from '../../test/support/analyticsAttacks.ts';

// Adversarial review of the process pool in sandbox.ts: each test is an attack on it (floods,
// abandoned queries, processes stopped or killed at awkward moments, state left behind for the
// next user, use after close) and asserts the safe outcome. Faults are injected with signals to
// the pids `processes()` reports; DuckDB itself is never mocked.

const LIMITS = { timeoutMs: 800, memoryLimit: '256MB', maxRows: 100, concurrency: 2 };
/** What a stuck query may take at most: twice its limit plus the 1.5 s grace, plus slack. */
const KILL_BOUND_MS = 2 * LIMITS.timeoutMs + 1_500 + 1_500;
/** A query slow enough to hit the time limit (interruptible). */
const SLOW = 'SELECT count(*) AS n FROM range(100000000000)';

/** Stop the event loop (so no child 'exit' or 'disconnect' is noticed meanwhile). */
const blockEventLoop = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const queryPids = (analytics: SandboxedAnalytics) =>
  analytics
    .processes()
    .filter((entry) => entry.role === 'query')
    .map((entry) => entry.pid as number);
const internalPid = (analytics: SandboxedAnalytics) =>
  analytics.processes().find((entry) => entry.role === 'internal')?.pid as number;
async function untilIdle(analytics: SandboxedAnalytics, withinMs = KILL_BOUND_MS): Promise<void> {
  for (let waited = 0; waited < withinMs; waited += 50) {
    if (analytics.processes().every((entry) => !entry.busy)) return;
    await sleep(50);
  }
  throw new Error(`still busy after ${withinMs} ms: ${JSON.stringify(analytics.processes())}`);
}

// Anything thrown outside a promise chain (an unhandled 'error' event on a child, say) would
// crash the API process; each test checks none happened.
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
  expect(uncaught).toEqual([]);
});

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'vigil-sandbox-attacks-'));
});

describe('attacks on a shared sandbox', () => {
  let analytics: SandboxedAnalytics;

  beforeAll(async () => {
    analytics = new SandboxedAnalytics(root, LIMITS);
    await Promise.all([analytics.query('SELECT 1 AS one'), analytics.internal('SELECT 1 AS one')]);
  }, 60_000);

  afterAll(() => analytics?.close());

  it('a flood of concurrent queries: each answers its own value or is refused busy, two processes at most, none left busy', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, n) =>
        settle(analytics.query(`SELECT ${n} AS n, concat('user-', ${n}) AS tag`)),
      ),
    );
    outcomes.forEach((outcome, n) => {
      if (outcome.ok) expect(outcome.result.rows).toEqual([{ n, tag: `user-${n}` }]);
      else expect(failedWith(outcome, ['busy'])).toBe(true);
    });
    expect(outcomes.filter((outcome) => outcome.ok).length).toBeGreaterThan(0);
    expect(queryPids(analytics).length).toBeLessThanOrEqual(2);
    expect(analytics.processes().every((entry) => !entry.busy)).toBe(true);
    expect((await analytics.query('SELECT 5 AS five')).rows).toEqual([{ five: 5 }]);
  }, 30_000);

  it('slow queries saturating the pool with waiters behind them: everything settles within its bounds and the pool frees up', async () => {
    const started = performance.now();
    const all = await Promise.all([
      ...Array.from({ length: 2 }, () => settle(analytics.query(SLOW))),
      ...Array.from({ length: 6 }, (_, n) => settle(analytics.query(`SELECT ${n} AS n`))),
    ]);
    expect(performance.now() - started).toBeLessThan(KILL_BOUND_MS);
    for (const [index, outcome] of all.entries()) {
      if (outcome.ok) expect(outcome.result.rows).toEqual([{ n: index - 2 }]);
      else expect(failedWith(outcome, ['timeout', 'busy'])).toBe(true);
    }
    await untilIdle(analytics);
    expect(queryPids(analytics).length).toBeLessThanOrEqual(2);
    expect((await analytics.query('SELECT 6 AS six')).rows).toEqual([{ six: 6 }]);
  }, 30_000);

  it('user SQL saturating the pool never delays or fails a data-route (internal) query', async () => {
    const user = Array.from({ length: 6 }, () => settle(analytics.query(SLOW)));
    await sleep(100);
    const started = performance.now();
    expect((await analytics.internal("SELECT 'ok' AS status")).rows).toEqual([{ status: 'ok' }]);
    expect(performance.now() - started).toBeLessThan(LIMITS.timeoutMs);
    await Promise.all(user);
    await untilIdle(analytics);
  }, 30_000);

  it('abandoned queries (nobody awaits them) release their processes', async () => {
    for (let n = 0; n < 6; n += 1) void analytics.query(n % 2 ? SLOW : 'SELECT 1').catch(() => undefined);
    await untilIdle(analytics);
    expect(queryPids(analytics).length).toBeLessThanOrEqual(2);
    expect((await analytics.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  }, 30_000);

  it('a query process SIGKILLed mid-query: that query fails, the waiter queued behind it is served by a new process', async () => {
    const [first, second] = [settle(analytics.query(SLOW)), settle(analytics.query(SLOW))];
    const pids = queryPids(analytics);
    expect(pids).toHaveLength(2);
    const waiter = settle(analytics.query('SELECT 42 AS answer'));
    await sleep(50);
    process.kill(pids[0] as number, 'SIGKILL');
    const killed = await first;
    expect(failedWith(killed, ['failed'])).toBe(true);
    const served = await waiter;
    // It took the freed slot at once; the new process's start-up is not counted as queue time.
    if (!served.ok) throw served.error;
    expect(served.result.rows).toEqual([{ answer: 42 }]);
    expect(failedWith(await second, ['timeout'])).toBe(true);
    await untilIdle(analytics);
    expect(queryPids(analytics)).not.toContain(pids[0]);
  }, 30_000);

  it('a query process SIGSTOPped with a waiter queued: the waiter is refused busy in time, the stopped one is killed, the pool recovers', async () => {
    const stuck = settle(analytics.query(SLOW));
    const other = settle(analytics.query(SLOW));
    const pid = queryPids(analytics)[0] as number;
    process.kill(pid, 'SIGSTOP');
    const started = performance.now();
    const waiter = await settle(analytics.query('SELECT 1 AS one'));
    // Either a slot freed (the unstopped query's interrupt) or it was refused within its limit.
    if (!waiter.ok) expect(failedWith(waiter, ['busy'])).toBe(true);
    expect(performance.now() - started).toBeLessThan(LIMITS.timeoutMs + 1_000);
    expect(failedWith(await stuck, ['timeout'])).toBe(true);
    expect(failedWith(await other, ['timeout'])).toBe(true);
    for (let waited = 0; alive(pid) && waited < 3_000; waited += 50) await sleep(50);
    expect(alive(pid)).toBe(false);
    await untilIdle(analytics);
    expect((await analytics.query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
  }, 30_000);

  it('an idle query process SIGKILLed and used before its exit is noticed: the query fails cleanly, the next one answers', async () => {
    const pid = queryPids(analytics)[0] as number;
    process.kill(pid, 'SIGKILL');
    blockEventLoop(300);
    const first = await settle(analytics.query('SELECT 1 AS one'));
    if (!first.ok) expect(failedWith(first, ['failed', 'timeout'])).toBe(true);
    expect((await analytics.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  }, 30_000);

  it('the internal process SIGKILLed with data-route queries sent before its exit is noticed: the API process does not crash', async () => {
    const pid = internalPid(analytics);
    process.kill(pid, 'SIGKILL');
    blockEventLoop(300);
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, (_, n) => settle(analytics.internal(`SELECT ${n} AS n`))),
    );
    for (const outcome of outcomes) if (!outcome.ok) expect(failedWith(outcome, ['failed'])).toBe(true);
    // Let any deferred 'error' event fire before the uncaught-error check.
    await sleep(100);
    expect((await analytics.internal("SELECT 'back' AS status")).rows).toEqual([{ status: 'back' }]);
  }, 30_000);

  it('the internal process SIGSTOPped: data-route queries time out within the kill bound and the next one answers', async () => {
    const pid = internalPid(analytics);
    process.kill(pid, 'SIGSTOP');
    const started = performance.now();
    const outcomes = await Promise.all([
      settle(analytics.internal('SELECT 1 AS n')),
      settle(analytics.internal('SELECT 2 AS n')),
    ]);
    expect(performance.now() - started).toBeLessThan(KILL_BOUND_MS);
    for (const outcome of outcomes) expect(failedWith(outcome, ['timeout', 'failed'])).toBe(true);
    for (let waited = 0; alive(pid) && waited < 3_000; waited += 50) await sleep(50);
    expect(alive(pid)).toBe(false);
    expect((await analytics.internal('SELECT 3 AS n')).rows).toEqual([{ n: 3 }]);
  }, 30_000);

  it('a user query that builds huge values fails bounded, and the pool and the data routes carry on', async () => {
    const big = await settle(
      analytics.query("SELECT string_agg('0123456789abcdef', '') AS s FROM range(10000000)"),
    );
    if (big.ok) throw new Error('a 160 MB string came back');
    if (!(big.error instanceof SqlRejected))
      expect(failedWith(big, ['too_large', 'failed', 'timeout'])).toBe(true);
    await untilIdle(analytics);
    expect((await analytics.query('SELECT 4 AS four')).rows).toEqual([{ four: 4 }]);
    expect((await analytics.internal('SELECT 4 AS four')).rows).toEqual([{ four: 4 }]);
  }, 30_000);

  it('no session state passes from one user to the next in the same process (setseed)', async () => {
    // Sequential queries land on the same (first free) process.
    const draw = async () => {
      const seeded = await settle(analytics.query('SELECT setseed(0.42) AS s'));
      if (!seeded.ok) return undefined;
      return (await analytics.query('SELECT random() AS r')).rows[0]?.r;
    };
    const [a, b] = [await draw(), await draw()];
    if (a !== undefined) expect(a).not.toEqual(b);
  }, 30_000);

  it('option abuse (NaN, negative, huge timeouts and row counts) stays within the limits and leaves the pool usable', async () => {
    const huge = await analytics.query('SELECT * FROM range(1000) t(n)', { maxRows: 1e9, timeoutMs: 1e9 });
    expect(huge.row_count).toBe(LIMITS.maxRows);
    expect(huge.truncated).toBe(true);
    expect(huge.limits.timeout_ms).toBe(LIMITS.timeoutMs);
    for (const timeoutMs of [Number.NaN, -5_000, 0]) {
      const outcome = await settle(analytics.query('SELECT 1 AS one', { timeoutMs }));
      if (!outcome.ok) expect(failedWith(outcome, ['timeout', 'failed', 'busy'])).toBe(true);
    }
    await untilIdle(analytics);
    expect((await analytics.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  }, 30_000);

  it('column names like __proto__ come back as plain data', async () => {
    const result = await analytics.query('SELECT 1 AS "__proto__", 2 AS "constructor"');
    const row = result.rows[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row).sort()).toEqual(['__proto__', 'constructor']);
  }, 30_000);
});

describe('attacks on the memory limit', () => {
  const peakKb = (pid: number): number => {
    const match = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match?.[1] ?? 0);
  };
  const amplify = (levels: number, base: string) => {
    let sql = base;
    for (let level = 0; level < levels; level += 1) sql = `replace(${sql}, 'x', 'xxxxxxxxxx')`;
    return sql;
  };

  // Found by this suite: replace() nested was an amplifier the guard's deny-list missed (repeat,
  // lpad... were on it). Eight levels over six rows built 600 MB of strings in one step, outside
  // DuckDB's buffer-managed memory: the process grew by ~1 GB under a 256 MB limit. The guard now
  // refuses replace() and regexp_replace(); either way the process must stay near its limit.
  it('a nested replace() cannot grow a query process far past the memory limit', async () => {
    const analytics = new SandboxedAnalytics(root, LIMITS);
    try {
      await analytics.query('SELECT 1');
      const pid = queryPids(analytics)[0] as number;
      const before = peakKb(pid);
      const outcome = await settle(
        analytics.query(`SELECT length(${amplify(8, "'x' || i")}) AS l FROM range(6) t(i)`),
      );
      const grownMb = (peakKb(pid) - before) / 1024;
      if (outcome.ok || !(outcome.error instanceof SqlRejected)) expect(grownMb).toBeLessThan(512);
    } finally {
      analytics.close();
    }
  }, 30_000);
});

describe('attacks on start-up and shut-down', () => {
  it('a query process stopped while it starts: the query still settles, and the next query answers', async () => {
    const analytics = new SandboxedAnalytics(root, LIMITS, { startLimitMs: 10_000 });
    try {
      const first = settle(analytics.query('SELECT 1 AS one'));
      for (let waited = 0; queryPids(analytics)[0] === undefined && waited < 1_000; waited += 1)
        await sleep(1);
      const pid = queryPids(analytics)[0] as number;
      process.kill(pid, 'SIGSTOP');
      const outcome = await first;
      expect(failedWith(outcome, ['failed', 'timeout'])).toBe(true);
      for (let waited = 0; alive(pid) && waited < 3_000; waited += 50) await sleep(50);
      expect(alive(pid)).toBe(false);
      await untilIdle(analytics, 1_000);
      expect((await analytics.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
    } finally {
      analytics.close();
    }
  }, 60_000);

  it('a root the engine cannot open: queries fail promptly, no process piles up or stays busy', async () => {
    const file = path.join(root, 'not-a-folder');
    await writeFile(file, 'x');
    const analytics = new SandboxedAnalytics(file, LIMITS);
    try {
      for (let n = 0; n < 2; n += 1) {
        const outcomes = await Promise.all([
          settle(analytics.query('SELECT 1')),
          settle(analytics.internal('SELECT 1')),
        ]);
        for (const outcome of outcomes) expect(failedWith(outcome, ['failed'])).toBe(true);
      }
      expect(queryPids(analytics).length).toBeLessThanOrEqual(1);
      expect(analytics.processes().every((entry) => !entry.busy)).toBe(true);
    } finally {
      analytics.close();
    }
  }, 60_000);

  it('after close() no query starts a process again, and a queued waiter settles at once', async () => {
    const analytics = new SandboxedAnalytics(root, { ...LIMITS, concurrency: 1 });
    await analytics.query('SELECT 1');
    const running = settle(analytics.query(SLOW));
    const waiter = settle(analytics.query('SELECT 1 AS one'));
    await sleep(50);
    const before = queryPids(analytics);
    analytics.close();
    const closedAt = performance.now();
    const outcomes = await Promise.all([running, waiter]);
    for (const outcome of outcomes) expect(outcome.ok).toBe(false);
    expect(performance.now() - closedAt).toBeLessThan(LIMITS.timeoutMs);
    const later = await Promise.all([
      settle(analytics.query('SELECT 1')),
      settle(analytics.internal('SELECT 1')),
    ]);
    for (const outcome of later) expect(failedWith(outcome, ['failed'])).toBe(true);
    await sleep(200);
    const after = analytics.processes().flatMap((entry) => (entry.pid === undefined ? [] : [entry.pid]));
    for (const pid of [...before, ...after]) expect(alive(pid)).toBe(false);
  }, 30_000);
});
