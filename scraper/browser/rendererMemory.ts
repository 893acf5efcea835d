import { readdirSync, readFileSync } from 'node:fs';

const SCAN_MS = 500;

/**
 * A page's memory beyond its JavaScript heap (array buffers, images, canvases, workers' heaps)
 * has no V8 limit. Each browser context renders in a renderer process of its own, so this
 * watches the resident memory of every renderer this process's Chromium runs (read from /proc
 * twice a second while contexts are open) and kills one that passes the limit: its page
 * crashes, the tier answers `page_memory_exceeded`, and the other contexts go on. Without /proc
 * (not Linux) it does nothing; the pod's memory limit is then the only bound.
 */
export class RendererMemoryGuard {
  readonly #limitKb: number;
  readonly #active: () => boolean;
  #timer: NodeJS.Timeout | undefined;
  #killed = 0;

  constructor(limitBytes: number, active: () => boolean) {
    this.#limitKb = Math.floor(limitBytes / 1024);
    this.#active = active;
  }

  /** Renderers killed for their memory so far. */
  get killed(): number {
    return this.#killed;
  }

  start(): void {
    this.#timer ??= setInterval(() => {
      if (this.#active()) this.#scan();
    }, SCAN_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #scan(): void {
    let entries: string[];
    try {
      entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
    } catch {
      return;
    }
    const parents = new Map<string, string>();
    for (const pid of entries) {
      const stat = read(`/proc/${pid}/stat`);
      // The command name may hold spaces or parentheses: the parent comes after its last ')'.
      const parent = stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
      if (parent) parents.set(pid, parent);
    }
    const root = String(process.pid);
    const descends = (pid: string) => {
      let current = parents.get(pid);
      for (let depth = 0; current && depth < 16; depth++) {
        if (current === root) return true;
        current = parents.get(current);
      }
      return false;
    };
    for (const pid of parents.keys()) {
      if (!descends(pid) || !read(`/proc/${pid}/cmdline`)?.includes('--type=renderer')) continue;
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(read(`/proc/${pid}/status`) ?? '')?.[1] ?? 0);
      if (rssKb <= this.#limitKb) continue;
      try {
        process.kill(Number(pid), 'SIGKILL');
        this.#killed++;
      } catch {
        // Gone already.
      }
    }
  }
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
