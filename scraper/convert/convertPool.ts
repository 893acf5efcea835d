import { Worker } from 'node:worker_threads';
import { type Converted, type ConvertInput, convertWithExtras } from './convert.ts';

interface Pending {
  resolve: (converted: Converted) => void;
  reject: (error: Error) => void;
}

interface Job {
  id: number;
  input: ConvertInput;
}

/**
 * Page conversion on worker threads, so a scraper worker uses every core: parsing, extraction
 * and turndown are CPU-bound (a few milliseconds a page) and would otherwise queue behind each
 * other on the one event loop that also serves fetches, Redis and Temporal. With no threads it
 * converts in-process.
 */
export class ConvertPool {
  readonly #idle: Worker[] = [];
  readonly #all: Worker[] = [];
  readonly #queue: Job[] = [];
  readonly #pending = new Map<number, Pending>();
  readonly #busy = new Map<Worker, number>();
  readonly #size: number;
  #nextId = 0;
  #closed = false;

  /** Threads start on the first page, not at boot: a worker that never scrapes pays nothing. */
  constructor(threads: number) {
    this.#size = threads;
  }

  get threads(): number {
    return this.#all.length;
  }

  convert(input: ConvertInput): Promise<Converted> {
    if (this.#size === 0) return Promise.resolve().then(() => convertWithExtras(input));
    if (this.#closed) return Promise.reject(new Error('the conversion pool is closed'));
    while (this.#all.length < this.#size) this.#spawn();
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      this.#pending.set(id, { resolve, reject });
      this.#queue.push({ id, input });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const { reject } of this.#pending.values()) reject(new Error('the conversion pool is closed'));
    this.#pending.clear();
    await Promise.all(this.#all.map((worker) => worker.terminate()));
  }

  #spawn(): void {
    const worker = new Worker(new URL('./convertWorker.ts', import.meta.url));
    // Idle threads must not keep a finished process alive.
    worker.unref();
    worker.on('message', (message: { id: number; result?: Converted; error?: string }) => {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      this.#busy.delete(worker);
      this.#idle.push(worker);
      worker.unref();
      if (message.error !== undefined) pending?.reject(new Error(message.error));
      else if (message.result) pending?.resolve(message.result);
      this.#dispatch();
    });
    worker.on('error', (error: Error) => this.#replace(worker, error));
    worker.on('exit', (code) => {
      if (!this.#closed) this.#replace(worker, new Error(`conversion thread exited (${code})`));
    });
    this.#all.push(worker);
    this.#idle.push(worker);
  }

  /** A thread that died fails its page (the tier reports it) and is replaced. */
  #replace(worker: Worker, error: Error): void {
    const index = this.#all.indexOf(worker);
    if (index < 0) return;
    this.#all.splice(index, 1);
    const idle = this.#idle.indexOf(worker);
    if (idle >= 0) this.#idle.splice(idle, 1);
    const id = this.#busy.get(worker);
    this.#busy.delete(worker);
    if (id !== undefined) {
      this.#pending.get(id)?.reject(error);
      this.#pending.delete(id);
    }
    if (!this.#closed) {
      this.#spawn();
      this.#dispatch();
    }
  }

  #dispatch(): void {
    while (this.#idle.length > 0 && this.#queue.length > 0) {
      const worker = this.#idle.pop();
      const job = this.#queue.shift();
      if (!worker || !job) return;
      this.#busy.set(worker, job.id);
      // A thread at work keeps the process alive until its page is back.
      worker.ref();
      worker.postMessage(job);
    }
  }
}
