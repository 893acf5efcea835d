import type { ManagedProcess } from './processes.ts';

type ChildState = 'running' | 'restarting' | 'gave_up' | 'stopped';

/** What the stack reports of each child: in its log, in `supervision.json` and in the backend's /health. */
export interface ChildStatus {
  name: string;
  pid: number | null;
  state: ChildState;
  /** Successful restarts since the stack started. */
  restarts: number;
  /** The last unexpected exit: its code or signal. */
  last_exit: string | null;
  last_exit_at: string | null;
}

export interface SupervisorOptions {
  say(line: string): void;
  /** Called whenever a child's status changes (to rewrite the state files). */
  onChange(): void;
  /** More crashes than this within `crashWindowMs` and the child is given up. Default 5. */
  maxCrashes?: number;
  crashWindowMs?: number;
  /** Backoff before a restart: base × 2^(recent crashes − 1), capped. Defaults 500 ms and 15 s. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

interface Child {
  name: string;
  start: () => Promise<ManagedProcess>;
  managed: ManagedProcess | undefined;
  state: ChildState;
  restarts: number;
  crashes: number[];
  lastExit: string | null;
  lastExitAt: string | null;
  timer: NodeJS.Timeout | undefined;
  /** A restart in progress, so a stop waits for it and stops what it started. */
  starting: Promise<void> | undefined;
}

/**
 * Keeps the embedded stack's children running: a child that exits unexpectedly is started again
 * with exponential backoff, its exit and restart are said in the stack log and counted, and a child
 * that keeps crashing (more than `maxCrashes` within a minute) is given up and reported rather
 * than restarted forever. Stopping stops every child, those waiting in backoff included.
 *
 * Hand-written: process supervisors on npm (pm2, forever) are daemons with their own CLI and state;
 * the launcher needs a few dozen lines over the child handles it already has.
 */
export class Supervisor {
  readonly #children: Child[] = [];
  readonly #options: Required<SupervisorOptions>;
  #stopping = false;

  constructor(options: SupervisorOptions) {
    this.#options = {
      maxCrashes: 5,
      crashWindowMs: 60_000,
      baseDelayMs: 500,
      maxDelayMs: 15_000,
      ...options,
    };
  }

  /** Starts a child (a failure to start the first time is thrown, as before) and supervises it. */
  async add(name: string, start: () => Promise<ManagedProcess>): Promise<ManagedProcess> {
    const managed = await start();
    const child: Child = {
      name,
      start,
      managed,
      state: 'running',
      restarts: 0,
      crashes: [],
      lastExit: null,
      lastExitAt: null,
      timer: undefined,
      starting: undefined,
    };
    this.#children.push(child);
    this.#watch(child, managed);
    this.#options.onChange();
    return managed;
  }

  status(): ChildStatus[] {
    return this.#children.map((child) => ({
      name: child.name,
      pid: child.state === 'running' ? (child.managed?.child.pid ?? null) : null,
      state: child.state,
      restarts: child.restarts,
      last_exit: child.lastExit,
      last_exit_at: child.lastExitAt,
    }));
  }

  /** Stops one child for good (the stack's stop calls it in reverse start order). */
  async stop(name: string): Promise<void> {
    const child = this.#children.find((candidate) => candidate.name === name);
    if (!child) return;
    child.state = 'stopped';
    clearTimeout(child.timer);
    await child.starting;
    await child.managed?.stop();
  }

  /** From now on exits are expected: nothing is restarted. */
  beginStop(): void {
    this.#stopping = true;
    for (const child of this.#children) clearTimeout(child.timer);
  }

  #watch(child: Child, managed: ManagedProcess): void {
    void managed.exited.then((code) => {
      if (this.#stopping || child.state === 'stopped' || child.managed !== managed) return;
      this.#crashed(child, String(code));
    });
  }

  #crashed(child: Child, exit: string): void {
    const now = Date.now();
    child.lastExit = exit;
    child.lastExitAt = new Date(now).toISOString();
    child.crashes = [...child.crashes.filter((at) => now - at < this.#options.crashWindowMs), now];
    const { maxCrashes, baseDelayMs, maxDelayMs, crashWindowMs, say } = this.#options;
    if (child.crashes.length > maxCrashes) {
      child.state = 'gave_up';
      child.managed = undefined;
      say(
        `${child.name} exited (${exit}) ${child.crashes.length} times within ${crashWindowMs / 1_000} s: not restarting it`,
      );
      this.#options.onChange();
      return;
    }
    const delay = Math.min(baseDelayMs * 2 ** (child.crashes.length - 1), maxDelayMs);
    child.state = 'restarting';
    say(`${child.name} exited unexpectedly (${exit}); restarting in ${delay} ms`);
    this.#options.onChange();
    child.timer = setTimeout(() => {
      child.starting = this.#restart(child).finally(() => (child.starting = undefined));
    }, delay);
  }

  async #restart(child: Child): Promise<void> {
    if (this.#stopping || child.state !== 'restarting') return;
    let managed: ManagedProcess;
    try {
      managed = await child.start();
    } catch (error) {
      if (this.#stopping || child.state !== 'restarting') return;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      this.#crashed(child, `failed to start: ${reason}`);
      return;
    }
    if (this.#stopping || child.state !== 'restarting') {
      await managed.stop();
      return;
    }
    child.managed = managed;
    child.state = 'running';
    child.restarts += 1;
    this.#options.say(`${child.name} restarted (pid ${managed.child.pid}, restart ${child.restarts})`);
    this.#watch(child, managed);
    this.#options.onChange();
  }
}
