import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsLimits, QueryFailed } from './engine.ts';
import { z } from 'zod';
import { ChaindataEnvShape, chaindataSettings } from '../config.ts';
import { SandboxedAnalytics } from './sandbox.ts';
import { SqlRejected } from './sqlGuard.ts';
import { alive, failedWith, type Outcome, settle, sleep } from '../../test/support/analyticsAttacks.ts';
import { until } from '../../test/support/until.ts';

// Adversarial review of the process memory bound (sandbox.ts: each query process's VmRSS read every
// 100 ms while it runs a query, the process ended past `processMemoryMb`). Each test is an attack on
// it and asserts the safe outcome; three holes it found are fixed (the comments above those tests
// say how). Real DuckDB, real processes; peaks are sampled from /proc every 2 ms.

const reasonOf = (outcome: Outcome) =>
  outcome.ok ? 'ok' : outcome.error instanceof Error ? (outcome.error as QueryFailed).reason : 'thrown';
/** A /proc/<pid>/status figure in MiB (undefined once the process is gone). */
const statusMb = (pid: number, key: 'VmRSS' | 'VmHWM'): number | undefined => {
  try {
    const kb = new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
};
const pidsOf = (analytics: SandboxedAnalytics, role: 'query' | 'internal') =>
  analytics
    .processes()
    .filter((entry) => entry.role === role && entry.pid !== undefined)
    .map((entry) => entry.pid as number);

/**
 * Samples every process of a pool every 2 ms: each pid ever seen (restarted processes included)
 * and the highest resident memory read for it. A killed process's VmHWM is gone with it, so the
 * peak is what the last samples saw (a lower bound on the true peak, within 2 ms of growth).
 */
function sampler(analytics: SandboxedAnalytics) {
  const peaks = new Map<number, number>();
  const timer = setInterval(() => {
    for (const entry of analytics.processes()) {
      if (entry.pid === undefined) continue;
      const resident = statusMb(entry.pid, 'VmRSS') ?? 0;
      peaks.set(entry.pid, Math.max(peaks.get(entry.pid) ?? 0, resident));
    }
  }, 2);
  return {
    peaks,
    stop: () => clearInterval(timer),
  };
}

/** Waits for every pid to be gone (close() kills with SIGKILL; the exit is asynchronous). */
async function allGone(pids: Iterable<number>, withinMs = 3_000): Promise<number[]> {
  const list = [...pids];
  for (let waited = 0; waited < withinMs && list.some(alive); waited += 50) await sleep(50);
  return list.filter(alive);
}

/** A 'memory' refusal must name the bound and nothing else: no path, no folder, no setting. */
function expectCleanMemoryMessage(outcome: Outcome, root: string): void {
  const message = (outcome as { error: Error }).error.message;
  expect(message).toMatch(/^The query took its process past \d+ MiB of memory and was stopped; narrow it/);
  expect(message).not.toContain(root);
  expect(message).not.toContain(tmpdir());
  expect(message).not.toMatch(/\/\w/);
}

const nest = (fn: string, levels: number, base: string) =>
  `${fn}(`.repeat(levels) + base + ')'.repeat(levels);
/**
 * bin() (alias to_binary) writes 8 characters per byte and is not on the guard's amplifier list:
 * nested ten times over one character it builds a 1 GiB string in a single call, at page-fault speed.
 */
const ONE_STEP = `SELECT length(${nest('bin', 10, "'x'")}) AS l`;
/** A 16 MiB string concatenated 48 times in one call: 805 MB written at memcpy speed. */
const CONCAT = `WITH s AS (SELECT ${nest('bin', 8, "'x'")} AS v) SELECT length(concat(${Array(48).fill('v').join(', ')})) AS l FROM s`;
/** A memory-free query that runs several reads' worth of time (about 0.5–1 s here). */
const SLOW_NO_MEMORY = 'SELECT count(*) AS n FROM range(1000000000) t(i)';
/** An ordinary aggregation: about 200 MB past the idle size, inside DuckDB's 256 MB limit. */
const VICTIM = 'SELECT count(DISTINCT i) AS n FROM range(4000000) t(i)';
/**
 * A query whose answer is refused as too large (2 MB) after the child has turned 501 rows of 98 KB
 * strings into JS objects and a JSON text: refused without any memory refusal, it leaves the
 * process holding about 250 MB more than before, idle and unwatched.
 */
const LEAVES_MEMORY_BEHIND = `WITH s AS (SELECT ${nest('bin', 5, "'xyz'")} AS v) SELECT v FROM s, range(501)`;

const BASE: Partial<AnalyticsLimits> = { timeoutMs: 10_000, memoryLimit: '256MB', maxRows: 100 };

const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  expect(uncaught).toEqual([]);
});

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'vigil-memory-bound-attacks-'));
  // The first process on a new folder builds the labels file and idles near 490 MB after it; later
  // ones idle near 180 MB. Build it once so each test's processes start from the usual size.
  const warm = new SandboxedAnalytics(root, BASE, { queryProcesses: 1 });
  try {
    await Promise.all([warm.query('SELECT 1'), warm.internal('SELECT 1')]);
  } finally {
    warm.close();
  }
}, 60_000);

describe('racing the 100 ms reads', () => {
  it('memory grown in one call at full speed is stopped within one read of the bound', async () => {
    const bound = 600;
    const analytics = new SandboxedAnalytics(root, { ...BASE, processMemoryMb: bound, concurrency: 1 });
    const seen = sampler(analytics);
    try {
      for (const sql of [ONE_STEP, CONCAT]) {
        await analytics.query('SELECT 1');
        const pid = pidsOf(analytics, 'query')[0] as number;
        const idle = statusMb(pid, 'VmRSS') as number;
        const started = performance.now();
        const outcome = await settle(analytics.query(sql));
        const elapsed = performance.now() - started;
        // If the guard ever refuses bin(), the bound has nothing left to catch here.
        if (!outcome.ok && outcome.error instanceof SqlRejected) continue;
        expect(reasonOf(outcome)).toBe('memory');
        expectCleanMemoryMessage(outcome, root);
        const peak = seen.peaks.get(pid) ?? 0;
        console.info(
          `[memory bound] ${sql === ONE_STEP ? 'bin^10' : 'concat x48'}: idle ${Math.round(idle)} MB, ` +
            `peak ${Math.round(peak)} MB, bound ${bound} MiB, stopped after ${Math.round(elapsed)} ms`,
        );
        // It grew to the bound: the sampler's last reading before the kill can fall just under it
        // (seen once in CI: 600 MB against 600 MiB), the watch having read past it first.
        expect(peak).toBeGreaterThan(bound - 64);
        // At ~1.5 GB/s of growth, one 100 ms read interval is worth ~150 MB (measured: 4-120 MB past),
        // plus the event loop's lag on a busy machine.
        expect(peak - bound).toBeLessThan(256);
        expect(await allGone([pid])).toEqual([]);
      }
      expect((await analytics.query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
    } finally {
      seen.stop();
      analytics.close();
    }
    expect(await allGone(seen.peaks.keys())).toEqual([]);
  }, 20_000);
});

describe('a flood of memory-heavy queries', () => {
  it('forcing constant kills and restarts: each query gets its own answer or a clean refusal, no process outlives close()', async () => {
    const bound = 500;
    const analytics = new SandboxedAnalytics(root, {
      ...BASE,
      timeoutMs: 8_000,
      processMemoryMb: bound,
      concurrency: 2,
    });
    await analytics.internal('SELECT 1');
    const internalBefore = pidsOf(analytics, 'internal')[0];
    const seen = sampler(analytics);
    try {
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          settle(analytics.query(n % 2 === 0 ? ONE_STEP : `SELECT ${n} AS n, 'user-${n}' AS tag`)),
        ),
      );
      const elapsed = performance.now() - started;
      outcomes.forEach((outcome, n) => {
        if (n % 2 === 0) {
          expect(failedWith(outcome, ['memory', 'busy'])).toBe(true);
          if (failedWith(outcome, ['memory'])) expectCleanMemoryMessage(outcome, root);
        } else if (outcome.ok) expect(outcome.result.rows).toEqual([{ n, tag: `user-${n}` }]);
        else expect(failedWith(outcome, ['busy'])).toBe(true);
      });
      const answered = outcomes.filter((outcome, n) => n % 2 === 1 && outcome.ok).length;
      const queryPeaks = [...seen.peaks].filter(([pid]) => pid !== internalBefore).map(([, mb]) => mb);
      console.info(
        `[memory bound] flood: ${outcomes.filter((o) => failedWith(o, ['memory'])).length} stopped, ` +
          `${answered}/5 light answered, ${queryPeaks.length} query processes, ` +
          `highest peak ${Math.round(Math.max(...queryPeaks))} MB (bound ${bound} MiB), ${Math.round(elapsed)} ms`,
      );
      expect(answered).toBeGreaterThan(0);
      for (const peak of queryPeaks) expect(peak).toBeLessThan(bound + 256);
      expect(analytics.processes().every((entry) => !entry.busy)).toBe(true);
      expect(pidsOf(analytics, 'query').length).toBeLessThanOrEqual(2);
      // The data routes' process was never touched.
      expect(pidsOf(analytics, 'internal')[0]).toBe(internalBefore);
      expect((await analytics.internal("SELECT 'ok' AS status")).rows).toEqual([{ status: 'ok' }]);
      expect((await analytics.query('SELECT 7 AS seven')).rows).toEqual([{ seven: 7 }]);
    } finally {
      seen.stop();
      analytics.close();
    }
    expect(await allGone(seen.peaks.keys())).toEqual([]);
  }, 30_000);
});

describe('memory a process holds before the query starts', () => {
  const settings = { ...BASE, maxRows: 1_000, processMemoryMb: 600, concurrency: 1 };

  it('(baseline) the victim query answers in a clean process under a 600 MiB bound', async () => {
    const analytics = new SandboxedAnalytics(root, settings);
    const seen = sampler(analytics);
    try {
      await analytics.query('SELECT 1');
      const pid = pidsOf(analytics, 'query')[0] as number;
      expect((await analytics.query(VICTIM)).rows).toEqual([{ n: '4000000' }]);
      // Sampled: a process left holding more than half its bound is restarted after the query.
      const peak = seen.peaks.get(pid) ?? 0;
      console.info(`[memory bound] victim in a clean process: peak ${Math.round(peak)} MB (bound 600 MiB)`);
      expect(peak).toBeLessThan(520);
    } finally {
      seen.stop();
      analytics.close();
    }
  }, 20_000);

  // FOUND BY THIS SUITE, FIXED (a process holding more than half its bound after a query is
  // restarted before the next one): the bound is on the process's absolute resident size, read only
  // while a query runs, and a process was reused whatever it held. One user's query that is refused for another reason (here
  // `too_large`, after the child built 250 MB of JS strings and JSON) leaves the process idling
  // ~300 MB above its start size; nothing reads it while idle, and nothing restarts it. The next
  // user's ordinary query (the baseline above: peak ~400 MB in a clean process) then takes it past
  // 600 MiB and is the one stopped, told to "narrow it". An attacker can so fail other users'
  // queries on demand, and the failure is blamed on them. Measured: idle 176 MB -> 444-476 MB after
  // two such queries; the victim is stopped every time.
  it('a previous user’s leftovers do not get the next user’s ordinary query stopped as memory', async () => {
    const analytics = new SandboxedAnalytics(root, settings);
    try {
      await analytics.query('SELECT 1');
      const pid = pidsOf(analytics, 'query')[0] as number;
      const idle = statusMb(pid, 'VmRSS') as number;
      for (let n = 0; n < 2; n += 1)
        expect(reasonOf(await settle(analytics.query(LEAVES_MEMORY_BEHIND)))).toBe('too_large');
      const left = statusMb(pid, 'VmRSS');
      console.info(
        `[memory bound] attacker's leftovers: idle ${Math.round(idle)} MB -> ${left === undefined ? 'restarted' : `${Math.round(left)} MB`} (bound 600 MiB)`,
      );
      const victim = await settle(analytics.query(VICTIM));
      console.info(`[memory bound] victim after the attacker: ${reasonOf(victim)}`);
      if (!victim.ok) throw victim.error;
      expect(victim.result.rows).toEqual([{ n: '4000000' }]);
    } finally {
      analytics.close();
    }
  }, 20_000);

  it('a bound below the idle size (128 MiB, which the configuration refuses): every query settles promptly and no process piles up', async () => {
    const analytics = new SandboxedAnalytics(root, { ...BASE, processMemoryMb: 128, concurrency: 1 });
    const seen = sampler(analytics);
    try {
      for (const sql of ['SELECT 1 AS one', SLOW_NO_MEMORY, ONE_STEP, 'SELECT 2 AS two']) {
        const started = performance.now();
        const outcome = await settle(analytics.query(sql));
        const elapsed = performance.now() - started;
        console.info(
          `[memory bound] bound 128 MiB: ${sql.slice(0, 40)} -> ${reasonOf(outcome)} in ${Math.round(elapsed)} ms`,
        );
        // A process start plus one read: no query waits for its time limit.
        expect(elapsed).toBeLessThan(5_000);
        if (!outcome.ok) {
          expect(failedWith(outcome, ['memory'])).toBe(true);
          expectCleanMemoryMessage(outcome, root);
        }
      }
      expect(pidsOf(analytics, 'query').length).toBeLessThanOrEqual(1);
    } finally {
      seen.stop();
      analytics.close();
    }
    expect(await allGone(seen.peaks.keys())).toEqual([]);
  }, 30_000);

  // FOUND BY THIS SUITE, FIXED IN THE CONFIGURATION: ANALYTICS_PROCESS_MEMORY_MB accepted 128 and
  // up, but a query process idles at ~180 MB (~490 MB for the first one on a new data folder, which
  // builds the labels file). Below that, any query lasting past one 100 ms read was stopped as
  // `memory` and told to narrow itself, whatever it took. The setting now takes at least 512 MiB
  // and at least ANALYTICS_MEMORY_LIMIT + 256 MiB, refused at start-up otherwise.
  it('a bound below what a process needs is refused at start-up, naming the setting', () => {
    const env = {
      ANALYTICS_QUERY_TIMEOUT_MS: 5_000,
      ANALYTICS_MAX_ROWS: 1_000,
      ANALYTICS_MEMORY_LIMIT: '512MB',
      ANALYTICS_THREADS: 2,
      ANALYTICS_CONCURRENCY: 2,
      DATABUS_LIVE_WINDOW_BLOCKS: 5_000,
      CHAINDATA_DIR: root,
    };
    const shape = z.object({ ANALYTICS_PROCESS_MEMORY_MB: ChaindataEnvShape.ANALYTICS_PROCESS_MEMORY_MB });
    expect(shape.safeParse({ ANALYTICS_PROCESS_MEMORY_MB: '128' }).success).toBe(false);
    expect(() => chaindataSettings({ ...env, ANALYTICS_PROCESS_MEMORY_MB: 700 })).toThrow(
      /ANALYTICS_PROCESS_MEMORY_MB: must be at least ANALYTICS_MEMORY_LIMIT \+ 256 MiB/,
    );
    expect(chaindataSettings({ ...env, ANALYTICS_PROCESS_MEMORY_MB: 1_024 }).limits.processMemoryMb).toBe(
      1_024,
    );
    expect(chaindataSettings(env).limits.processMemoryMb).toBeUndefined();
  });
});

describe("Vigil's own queries (the internal process)", () => {
  const settings = { ...BASE, processMemoryMb: 500, concurrency: 2 };

  it('a Vigil query past the bound is stopped too, and the internal process comes back', async () => {
    const analytics = new SandboxedAnalytics(root, settings);
    try {
      await analytics.internal('SELECT 1');
      const pid = pidsOf(analytics, 'internal')[0] as number;
      const outcome = await settle(analytics.internal(ONE_STEP));
      expect(reasonOf(outcome)).toBe('memory');
      expectCleanMemoryMessage(outcome, root);
      expect(await allGone([pid])).toEqual([]);
      expect((await analytics.internal("SELECT 'back' AS status")).rows).toEqual([{ status: 'back' }]);
      expect(pidsOf(analytics, 'internal')[0]).not.toBe(pid);
    } finally {
      analytics.close();
    }
  }, 20_000);

  // FOUND BY THIS SUITE, FIXED (several queries pending in a process passing its bound all fail as
  // `failed`, "retry it"; only a query alone in it is told `memory`). Vigil's own queries (data
  // routes, catalog, reports, health) share one process and run
  // there concurrently. When one of them takes it past the bound (a data route over a token or
  // wallet with a large history, say), the pool ends the process and fails *every* query pending
  // in it with reason `memory` and "narrow it (fewer rows, groups or columns)": other users' small
  // requests are told they used too much memory. The kill is unavoidable; the blame is not (the
  // others should fail as `failed`, "restarted while the query ran; retry it", or be retried).
  it('a concurrent, memory-free Vigil query is not blamed when another one is stopped', async () => {
    const analytics = new SandboxedAnalytics(root, settings);
    try {
      await analytics.internal('SELECT 1');
      const innocent = settle(analytics.internal('SELECT count(*) AS n FROM range(3000000000) t(i)'));
      await until(() =>
        Promise.resolve(analytics.processes().find((entry) => entry.role === 'internal')?.busy || undefined),
      );
      // Which of two queries sharing a process grew it is unknown: neither is told to narrow
      // itself, both are told to retry (a heavy one alone then gets `memory`, as above).
      const heavy = await settle(analytics.internal(ONE_STEP));
      expect(reasonOf(heavy)).toBe('failed');
      const outcome = await innocent;
      console.info(`[memory bound] innocent internal query beside a stopped one: ${reasonOf(outcome)}`);
      expect(reasonOf(outcome)).toBe('failed');
      expect((outcome as { error: Error }).error.message).toMatch(/retry it/);
    } finally {
      analytics.close();
    }
  }, 20_000);
});
