import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type AnalyticsLimits, DEFAULT_LIMITS, QueryFailed, type QueryResult } from './engine.ts';
import { SqlRejected } from './sqlGuard.ts';

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
/** How long past its time limit a query may run before its process is killed. */
const KILL_GRACE_MS = 1_500;

/**
 * The analytics engine in a child process. DuckDB checks its interrupt between chunks, and some
 * single calls (a huge value built in one step) never reach a check: a query still running past
 * its limit plus a grace is ended by killing the process, which is then started again. The API
 * process never blocks on, or dies with, a query.
 */
export class SandboxedAnalytics implements Analytics {
  readonly #root: string;
  readonly #limits: AnalyticsLimits;
  #child: Promise<ChildProcess> | undefined;
  #nextId = 1;
  readonly #pending = new Map<
    number,
    {
      child: ChildProcess;
      resolve: (result: QueryResult) => void;
      reject: (error: Error) => void;
      timer: NodeJS.Timeout;
    }
  >();

  constructor(root: string, limits: Partial<AnalyticsLimits> = {}) {
    this.#root = root;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
  }

  query(sql: string, options: { maxRows?: number; timeoutMs?: number } = {}): Promise<QueryResult> {
    return this.#send(
      { kind: 'query', sql, options },
      Math.min(options.timeoutMs ?? this.#limits.timeoutMs, this.#limits.timeoutMs),
    );
  }

  internal(
    sql: string,
    values: Record<string, string | number> = {},
    maxRows?: number,
  ): Promise<QueryResult> {
    return this.#send(
      { kind: 'internal', sql, values, ...(maxRows === undefined ? {} : { maxRows }) },
      this.#limits.timeoutMs,
    );
  }

  close(): void {
    void this.#child?.then((child) => child.kill('SIGKILL')).catch(() => undefined);
    this.#child = undefined;
  }

  async #send(request: Unsent<SandboxRequest>, timeoutMs: number): Promise<QueryResult> {
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
      child.send({ ...request, id });
    });
  }

  #spawn(): Promise<ChildProcess> {
    this.#child ??= new Promise<ChildProcess>((resolve, reject) => {
      const child = fork(CHILD, [this.#root, JSON.stringify(this.#limits)], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const started = (message: SandboxReply) => {
        if (message.id !== 0) return;
        child.off('message', started);
        resolve(child);
      };
      child.on('message', started);
      child.on('message', (message: SandboxReply) => this.#settle(message));
      child.once('exit', (code, signal) => {
        reject(new QueryFailed('failed', `The analytics process could not start (${signal ?? code}).`));
        this.#lost(child);
      });
      child.once('error', (error) => reject(new QueryFailed('failed', error.message)));
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

function asReason(reason: string): QueryFailed['reason'] {
  return reason === 'timeout' || reason === 'too_large' || reason === 'busy' ? reason : 'failed';
}
