import type { Redis } from 'ioredis';
import { ScanStore } from '../../scanner/scanStore.ts';

/**
 * Word that a scan's result is stored, pushed to the requests waiting on it. The scanner worker
 * publishes each job id once the job's result is in its Redis copy (ScanStore.save); a request
 * waiting on that job reads the copy then, instead of waiting for the permanent record, the
 * workflow's completion and Temporal's answer to its result poll. Best effort by design: a message
 * lost (a Redis restart, a subscriber reconnecting) only costs that time, since the request still
 * has the workflow's own result to wait for.
 *
 * One subscriber connection per process, whatever the number of waiting requests; every API
 * replica hears every job id (a few bytes per scan) and wakes only its own waiters.
 */
export class ScanCompletions {
  readonly #redis: Redis;
  readonly #waiters = new Map<string, Set<() => void>>();
  #subscriber: Redis | undefined;
  #closed = false;

  constructor(redis: Redis) {
    this.#redis = redis;
    // Subscribed from the start, so the first scans' word is not missed while it connects.
    this.#subscribe();
  }

  /** Resolves once `jobId`'s result is stored; never, if `signal` aborts first. */
  stored(jobId: string, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted || this.#closed) return;
      let waiters = this.#waiters.get(jobId);
      if (!waiters) this.#waiters.set(jobId, (waiters = new Set()));
      const forget = () => {
        waiters.delete(wake);
        if (waiters.size === 0 && this.#waiters.get(jobId) === waiters) this.#waiters.delete(jobId);
        signal.removeEventListener('abort', forget);
      };
      const wake = () => {
        forget();
        resolve();
      };
      waiters.add(wake);
      signal.addEventListener('abort', forget, { once: true });
    });
  }

  /** Requests waiting for word now (for tests and metrics). */
  get waiting(): number {
    let count = 0;
    for (const waiters of this.#waiters.values()) count += waiters.size;
    return count;
  }

  close(): void {
    this.#closed = true;
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
    this.#waiters.clear();
  }

  /** The subscriber connection (ioredis resubscribes after reconnecting). */
  #subscribe(): void {
    if (this.#subscriber || this.#closed) return;
    const subscriber = this.#redis.duplicate();
    this.#subscriber = subscriber;
    // A failing subscriber only means no early word: requests still get the workflow's result.
    subscriber.on('error', () => undefined);
    subscriber.on('message', (_channel: string, jobId: string) => {
      for (const wake of [...(this.#waiters.get(jobId) ?? [])]) wake();
    });
    subscriber.subscribe(ScanStore.doneChannel(this.#redis)).catch(() => undefined);
  }
}
