import { readdirSync, readFileSync } from 'node:fs';

const SCAN_MS = 500;

/**
 * A page's memory beyond its JavaScript heap (array buffers, images, canvases, workers' heaps)
 * has no V8 limit. Each browser context renders in a renderer process of its own, so this
 * watches the resident memory of every renderer this process's Chromium runs (its descendants,
 * read from /proc twice a second while contexts are open) and kills one that passes the limit: its page
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
    for (const pid of descendantsOf(String(process.pid))) {
      // Read every time, never remembered: a renderer is forked from the zygote and names itself
      // a moment later (until then its command line is the zygote's), and pids are reused.
      if (!read(`/proc/${pid}/cmdline`)?.includes('--type=renderer')) continue;
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

/**
 * This process's descendants, walked down through /proc/<pid>/task/<tid>/children (a few files,
 * not every process on the machine).
 */
function descendantsOf(root: string): string[] {
  const found: string[] = [];
  const queue = [root];
  while (queue.length > 0 && found.length < 1_000) {
    const pid = queue.shift() as string;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      for (const child of (read(`/proc/${pid}/task/${task}/children`) ?? '').split(' ')) {
        if (!child.trim()) continue;
        found.push(child.trim());
        queue.push(child.trim());
      }
    }
  }
  return found;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
