import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type AnalyticsLimits,
  DEFAULT_LIMITS,
  processMemoryBytes,
  QueryFailed,
  type QueryResult,
} from './engine.ts';
import { SqlRejected } from './sqlGuard.ts';
import { type ChaindataLocation, type LocationLike, locationOf } from '../storage/location.ts';

/** What readers of the analytics layer use: the engine in this process or in its own. */
export interface Analytics {
  query(sql: string, options?: { maxRows?: number; timeoutMs?: number }): Promise<QueryResult>;
  internal(sql: string, values?: Record<string, string | number>, maxRows?: number): Promise<QueryResult>;
  close(): void;
}

export type SandboxRequest =
  | { id: number; kind: 'query'; sql: string; options: { maxRows?: number; timeoutMs?: number } }
  | { id: number; kind: 'internal'; sql: string; values: Record<string, string | number>; maxRows?: number };

type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

export type SandboxReply =
  | { id: number; ok: true; result: QueryResult | null }
  | { id: number; ok: false; error: { name: string; reason: string; message: string } };

const CHILD = fileURLToPath(new URL('./sandboxChild.ts', import.meta.url));
/** The variable a child reads its chain-data location from. */
export const LOCATION_ENV = 'VIGIL_ANALYTICS_LOCATION';
/** How long past its time limit a query may run before its process is killed. */
const KILL_GRACE_MS = 1_500;
/**
 * How long a process may take to start; past it, it is killed (a stuck start fails its query).
 * Generous: the first start on a new data folder builds the labels file (seconds on a busy host),
 * and a limit below that would kill every attempt at it.
 */
const START_LIMIT_MS = 60_000;
/** How often a process running a query has its resident memory read. */
const MEMORY_CHECK_MS = 100;

/**
 * The analytics engine in child processes. DuckDB checks its interrupt between chunks, and some
 * single calls (a huge value built in one step) never reach a check: a query still running past
 * its limit plus a grace is ended by killing its process, which is then started again. The API
 * process never blocks on, or dies with, a query.
 *
 * User SQL (`query`) runs one statement per process at a time, in up to `queryProcesses`
 * processes (the limits' `concurrency` unless told otherwise; started as needed; a query waits for a free one up to its time limit, then is
 * refused as busy), so killing an overrunning query ends nobody else's. Vigil's own queries
 * (`internal`: the data routes, the catalog) share a process of their own, which user SQL never
 * reaches.
 *
 * DuckDB's `memory_limit` counts what its buffer manager holds, not everything a query makes the
 * process take (a query refused at a 512 MB limit can first take the process 1 GB past its idle
 * size). So a process running a query has its resident memory read ten times a second (Linux's
 * /proc), and one past `processMemoryMb` is ended like an overrunning one: its query fails as
 * `memory`, and the pool's memory stays within (queries at once + 1) × that bound.
 */
export class SandboxedAnalytics implements Analytics {
  readonly #location: ChaindataLocation;
  readonly #limits: AnalyticsLimits;
  readonly #queryProcesses: number;
  readonly #startLimitMs: number;
  readonly #internal: SandboxProcess;
  readonly #forQueries: SandboxProcess[] = [];
  readonly #waiting: (() => void)[] = [];
  #closed = false;

  constructor(
    where: LocationLike,
    limits: Partial<AnalyticsLimits> = {},
    options: { queryProcesses?: number; startLimitMs?: number } = {},
  ) {
    this.#location = locationOf(where);
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#queryProcesses = Math.max(1, options.queryProcesses ?? this.#limits.concurrency);
    this.#startLimitMs = options.startLimitMs ?? START_LIMIT_MS;
    this.#internal = new SandboxProcess(this.#location, this.#limits, this.#startLimitMs);
  }

  async query(sql: string, options: { maxRows?: number; timeoutMs?: number } = {}): Promise<QueryResult> {
    const timeoutMs = Math.min(options.timeoutMs ?? this.#limits.timeoutMs, this.#limits.timeoutMs);
    if (this.#closed) throw closedError();
    const sandbox = await this.#freeProcess(timeoutMs);
    try {
      return await sandbox.send({ kind: 'query', sql, options }, timeoutMs);
    } finally {
      sandbox.busy = false;
      this.#waiting.shift()?.();
    }
  }

  internal(
    sql: string,
    values: Record<string, string | number> = {},
    maxRows?: number,
  ): Promise<QueryResult> {
    if (this.#closed) return Promise.reject(closedError());
    return this.#internal.send(
      { kind: 'internal', sql, values, ...(maxRows === undefined ? {} : { maxRows }) },
      this.#limits.timeoutMs,
    );
  }

  /** The processes started so far and what they run (for operators and tests). */
  processes(): { role: 'query' | 'internal'; pid: number | undefined; busy: boolean }[] {
    return [
      { role: 'internal', pid: this.#internal.pid, busy: this.#internal.pending > 0 },
      ...this.#forQueries.map((sandbox) => ({
        role: 'query' as const,
        pid: sandbox.pid,
        busy: sandbox.busy,
      })),
    ];
  }

  /** Ends every process; queries waiting for one are refused, and no process starts again. */
  close(): void {
    this.#closed = true;
    this.#internal.close();
    for (const sandbox of this.#forQueries) sandbox.close();
    for (const wake of this.#waiting.splice(0)) wake();
  }

  /** A query process with nothing running, started if there is room, else the first to free up. */
  async #freeProcess(timeoutMs: number): Promise<SandboxProcess> {
    for (;;) {
      if (this.#closed) throw closedError();
      let sandbox = this.#forQueries.find((each) => !each.busy);
      if (!sandbox && this.#forQueries.length < this.#queryProcesses) {
        sandbox = new SandboxProcess(this.#location, this.#limits, this.#startLimitMs);
        this.#forQueries.push(sandbox);
      }
      if (sandbox) {
        sandbox.busy = true;
        return sandbox;
      }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          const index = this.#waiting.indexOf(wake);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(new QueryFailed('busy', 'The analytics engine is busy; retry shortly.'));
        }, timeoutMs);
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        this.#waiting.push(wake);
      });
    }
  }
}

/** One child process running the engine, restarted when a query in it overruns. */
class SandboxProcess {
  readonly #location: ChaindataLocation;
  readonly #limits: AnalyticsLimits;
  #child: Promise<ChildProcess> | undefined;
  #pid: number | undefined;
  #nextId = 1;
  #closed = false;
  /** Taken by one user query at a time (SandboxedAnalytics hands it out). */
  busy = false;
  readonly #pending = new Map<
    number,
    {
      child: ChildProcess;
      resolve: (result: QueryResult) => void;
      reject: (error: Error) => void;
      timer: NodeJS.Timeout;
    }
  >();

  readonly #startLimitMs: number;
  readonly #memoryBytes: number;
  #memoryWatch: NodeJS.Timeout | undefined;

  constructor(location: ChaindataLocation, limits: AnalyticsLimits, startLimitMs: number) {
    this.#location = location;
    this.#limits = limits;
    this.#startLimitMs = startLimitMs;
    this.#memoryBytes = processMemoryBytes(limits);
  }

  get pid(): number | undefined {
    return this.#pid;
  }

  get pending(): number {
    return this.#pending.size;
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#memoryWatch);
    this.#memoryWatch = undefined;
    void this.#child?.then((child) => child.kill('SIGKILL')).catch(() => undefined);
    this.#child = undefined;
  }

  async send(request: Unsent<SandboxRequest>, timeoutMs: number): Promise<QueryResult> {
    const child = await this.#spawn();
    const id = this.#nextId++;
    return new Promise<QueryResult>((resolve, reject) => {
      // Queue waits, the query's own limit and the grace: past that the process is stuck.
      const timer = setTimeout(
        () => {
          this.#pending.delete(id);
          reject(new QueryFailed('timeout', `The query ran longer than ${timeoutMs} ms and was cancelled.`));
          this.#restart(child);
        },
        timeoutMs * 2 + KILL_GRACE_MS,
      );
      this.#pending.set(id, { child, resolve, reject, timer });
      this.#memoryWatch ??= setInterval(() => this.#checkMemory(), MEMORY_CHECK_MS);
      this.#memoryWatch.unref();
      // With a callback a failed write (the process died unnoticed) fails this query; without one
      // it is an 'error' event on the child, which crashes this process once nothing listens.
      child.send({ ...request, id }, (error) => {
        if (!error || !this.#pending.delete(id)) return;
        clearTimeout(timer);
        reject(
          new QueryFailed('failed', 'The analytics process was restarted while the query ran; retry it.'),
        );
        this.#restart(child);
      });
    });
  }

  #spawn(): Promise<ChildProcess> {
    if (this.#closed) return Promise.reject(closedError());
    this.#child ??= new Promise<ChildProcess>((resolve, reject) => {
      // The location rides in the environment, not the arguments: it may carry object storage
      // credentials, and a process's arguments are every local user's to read.
      const child = fork(CHILD, [JSON.stringify(this.#limits)], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        env: { ...process.env, [LOCATION_ENV]: JSON.stringify(this.#location) },
      });
      this.#pid = child.pid;
      const startLimit = setTimeout(() => child.kill('SIGKILL'), this.#startLimitMs);
      const started = (message: SandboxReply) => {
        if (message.id !== 0) return;
        clearTimeout(startLimit);
        child.off('message', started);
        resolve(child);
      };
      child.on('message', started);
      child.on('message', (message: SandboxReply) => this.#settle(message));
      child.once('exit', (code, signal) => {
        clearTimeout(startLimit);
        reject(new QueryFailed('failed', `The analytics process could not start (${signal ?? code}).`));
        this.#lost(child);
      });
      child.on('error', (error) => reject(new QueryFailed('failed', error.message)));
    });
    const spawning = this.#child;
    spawning.catch(() => {
      if (this.#child === spawning) this.#child = undefined;
    });
    return spawning;
  }

  #settle(message: SandboxReply): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    this.#shed(pending.child);
    if (message.ok) {
      if (message.result) pending.resolve(message.result);
      else pending.reject(new QueryFailed('failed', 'The analytics process answered nothing.'));
      return;
    }
    const { name, reason, message: text } = message.error;
    pending.reject(
      name === 'SqlRejected' ? new SqlRejected(reason, text) : new QueryFailed(asReason(reason), text),
    );
  }

  /** Ends a process running queries past its memory bound; stops watching when none runs. */
  #checkMemory(): void {
    const running = new Set([...this.#pending.values()].map((pending) => pending.child));
    if (running.size === 0) {
      clearInterval(this.#memoryWatch);
      this.#memoryWatch = undefined;
      return;
    }
    for (const child of running) {
      const resident = child.pid === undefined ? undefined : residentBytes(child.pid);
      if (resident === undefined || resident <= this.#memoryBytes) continue;
      const mib = Math.round(this.#memoryBytes / 2 ** 20);
      const ended = [...this.#pending].filter(([, pending]) => pending.child === child);
      for (const [id, pending] of ended) {
        clearTimeout(pending.timer);
        this.#pending.delete(id);
        // Alone in its process (every user query is), the query is the cause. Beside others (Vigil's
        // own queries share a process) which one grew it is unknown: none is told to narrow itself.
        pending.reject(
          ended.length === 1
            ? new QueryFailed(
                'memory',
                `The query took its process past ${mib} MiB of memory and was stopped; narrow it (fewer rows, groups or columns).`,
              )
            : new QueryFailed(
                'failed',
                `The analytics process passed its ${mib} MiB memory bound while this query ran beside others and was restarted; retry it.`,
              ),
        );
      }
      this.#restart(child);
    }
  }

  /**
   * After a query, a process still holding more than half its bound (a large answer's strings, say)
   * is restarted before the next query is handed to it: what one query left behind must not count
   * against the next one, which the bound would stop for memory that is not its own.
   */
  #shed(child: ChildProcess): void {
    if ([...this.#pending.values()].some((pending) => pending.child === child)) return;
    const resident = child.pid === undefined ? undefined : residentBytes(child.pid);
    if (resident !== undefined && resident > this.#memoryBytes / 2) this.#restart(child);
  }

  #restart(child: ChildProcess): void {
    this.#forget(child);
    child.kill('SIGKILL');
  }

  #forget(child: ChildProcess): void {
    const current = this.#child;
    void current?.then(
      (running) => {
        if (running === child && this.#child === current) this.#child = undefined;
      },
      () => undefined,
    );
  }

  /** The process ended: queries still waiting on it fail, and the next query starts a new one. */
  #lost(child: ChildProcess): void {
    this.#forget(child);
    for (const [id, pending] of this.#pending) {
      if (pending.child !== child) continue;
      clearTimeout(pending.timer);
      this.#pending.delete(id);
      pending.reject(
        new QueryFailed('failed', 'The analytics process was restarted while the query ran; retry it.'),
      );
    }
  }
}

/** A process's resident memory in bytes, from /proc (undefined where there is none, or it is gone). */
function residentBytes(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

function closedError(): QueryFailed {
  return new QueryFailed('failed', 'The analytics engine is closed.');
}

function asReason(reason: string): QueryFailed['reason'] {
  return reason === 'timeout' || reason === 'too_large' || reason === 'busy' || reason === 'memory'
    ? reason
    : 'failed';
}
