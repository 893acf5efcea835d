import type { Redis } from 'ioredis';
import { scrubText } from '../core/errors/scrubError.ts';

/** What a publisher is told when a word could not be sent: the channel, and why. */
export type WordLost = (channel: string, error: unknown) => void;

/**
 * Publishes a job's word (best effort: the request still has the workflow's result). A word Redis
 * refuses, as it does when the deployment's user may not publish on the channel (another key
 * prefix, the scraper pool on the main Redis without its grant), is reported to `onLost`.
 */
export function publishWord(redis: Redis, channel: string, message: string, onLost?: WordLost): void {
  redis.publish(channel, message).catch((error: unknown) => {
    try {
      onLost?.(channel, error);
    } catch {
      // A report that fails is no reason to fail anything else: the word was best effort.
    }
  });
}

/**
 * `warn`, once per channel, kind of refusal and process: a channel the Redis user may not publish
 * on refuses every word (NOPERM), and one line says so without a line per job; a passing refusal
 * (Redis restarting, the worker shutting down) has its own line and cannot hide that one.
 */
export function warnOncePerChannel(warn: (message: string, meta: Record<string, unknown>) => void): WordLost {
  const warned = new Set<string>();
  return (channel, error) => {
    const text = scrubText(error instanceof Error ? error.message : String(error));
    const kind = /^NOPERM/.test(text) ? 'NOPERM' : 'other';
    if (warned.has(`${kind} ${channel}`)) return;
    warned.add(`${kind} ${channel}`);
    warn('a job word could not be published: waiting requests answer when the workflow completes', {
      channel,
      error: text,
    });
  };
}

/**
 * Word that a job's result is ready, pushed over a Redis channel to the requests waiting on it:
 * a worker publishes `<job id>` or `<job id> <payload>` the moment the result is stored, and a
 * request waiting on that job wakes then, instead of waiting for the workflow's completion and
 * Temporal's answer to its result poll. Best effort by design: a message lost (a Redis restart, a
 * subscriber reconnecting, a Redis user without the right) only costs that time, since the request
 * still has the workflow's own result to wait for.
 *
 * One subscriber connection per process, whatever the number of waiting requests; every replica
 * hears every job id (a few bytes per job, plus the payload) and wakes only its own waiters.
 * ioredis does not prefix channels: `channel` is the full name.
 */
export class JobWords {
  readonly #redis: Redis;
  readonly #channel: string;
  readonly #waiters = new Map<string, Set<(payload: string) => void>>();
  #subscriber: Redis | undefined;
  #closed = false;
  #joined: () => void = () => undefined;
  readonly #listening = new Promise<void>((resolve) => (this.#joined = resolve));

  constructor(redis: Redis, channel: string) {
    this.#redis = redis;
    this.#channel = channel;
    // Subscribed from the start, so the first jobs' word is not missed while it connects.
    this.#subscribe();
  }

  /** Resolves with the payload sent with `jobId`'s word ('' when none); never, if `signal` aborts first. */
  next(jobId: string, signal: AbortSignal): Promise<string> {
    return new Promise<string>((resolve) => {
      if (signal.aborted || this.#closed) return;
      let waiters = this.#waiters.get(jobId);
      if (!waiters) this.#waiters.set(jobId, (waiters = new Set()));
      const forget = () => {
        waiters.delete(wake);
        if (waiters.size === 0 && this.#waiters.get(jobId) === waiters) this.#waiters.delete(jobId);
        signal.removeEventListener('abort', forget);
      };
      const wake = (payload: string) => {
        forget();
        resolve(payload);
      };
      waiters.add(wake);
      signal.addEventListener('abort', forget, { once: true });
    });
  }

  /** Resolves once the channel's first SUBSCRIBE is answered: words sent from then on are heard. */
  listening(): Promise<void> {
    return this.#listening;
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
    subscriber.on('message', (_channel: string, message: string) => {
      const at = message.indexOf(' ');
      const jobId = at < 0 ? message : message.slice(0, at);
      const payload = at < 0 ? '' : message.slice(at + 1);
      for (const wake of [...(this.#waiters.get(jobId) ?? [])]) wake(payload);
    });
    // Joined again whenever the connection is ready: ioredis resubscribes by itself only to a
    // channel whose first SUBSCRIBE was answered (a Redis down at boot would leave none).
    const join = () =>
      void subscriber.subscribe(this.#channel).then(
        () => this.#joined(),
        () => undefined,
      );
    subscriber.on('ready', join);
    join();
  }
}
