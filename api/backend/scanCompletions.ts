import type { Redis } from 'ioredis';
import { JobWords } from '../../clients/jobWords.ts';
import { ScanStore } from '../../scanner/scanStore.ts';

/**
 * Word that a scan's result is stored, pushed to the requests waiting on it (clients/jobWords.ts).
 * The scanner worker publishes each job id once the job's result is in its Redis copy
 * (ScanStore.save); a request waiting on that job reads the copy then, instead of waiting for the
 * permanent record, the workflow's completion and Temporal's answer to its result poll.
 */
export class ScanCompletions {
  readonly #words: JobWords;

  constructor(redis: Redis) {
    this.#words = new JobWords(redis, ScanStore.doneChannel(redis));
  }

  /** Resolves once `jobId`'s result is stored; never, if `signal` aborts first. */
  stored(jobId: string, signal: AbortSignal): Promise<void> {
    return this.#words.next(jobId, signal).then(() => undefined);
  }

  /** Resolves once the subscriber hears the channel. */
  listening(): Promise<void> {
    return this.#words.listening();
  }

  /** Requests waiting for word now (for tests and metrics). */
  get waiting(): number {
    return this.#words.waiting;
  }

  close(): void {
    this.#words.close();
  }
}
