import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Durations of the named steps of one request, answered in the `Server-Timing` header (RFC-style
 * `name;dur=ms` entries) so a client, a browser's dev tools or a benchmark sees where the time of
 * a call went. Steps that repeat add up; counters (`count`) travel as `desc`.
 */
export class StepTimings {
  readonly #steps = new Map<string, number>();
  readonly #counts = new Map<string, number>();

  async time<T>(step: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      this.add(step, performance.now() - started);
    }
  }

  add(step: string, ms: number): void {
    this.#steps.set(step, (this.#steps.get(step) ?? 0) + ms);
  }

  count(name: string, by = 1): void {
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + by);
  }

  get(step: string): number | undefined {
    return this.#steps.get(step);
  }

  header(): string {
    const steps = [...this.#steps].map(([step, ms]) => `${step};dur=${ms.toFixed(1)}`);
    const counts = [...this.#counts].map(([name, value]) => `${name};desc="${value}"`);
    return [...steps, ...counts].join(', ');
  }
}

/** The timings of the request the current async context belongs to (set by `withTimings`). */
const current = new AsyncLocalStorage<StepTimings>();

export function withTimings<T>(timings: StepTimings, run: () => Promise<T>): Promise<T> {
  return current.run(timings, run);
}

/** Times `run` as `step` of the current request, if there is one. */
export function timeStep<T>(step: string, run: () => Promise<T>): Promise<T> {
  const timings = current.getStore();
  return timings ? timings.time(step, run) : run();
}

export function countStep(name: string, by = 1): void {
  current.getStore()?.count(name, by);
}

/** Parses a Server-Timing header into step → ms (counters' `desc` as numbers). */
export function parseServerTiming(header: string | null | undefined): Record<string, number> {
  const parsed: Record<string, number> = {};
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.trim().split(';');
    if (!name) continue;
    for (const param of params) {
      const [key, raw = ''] = param.trim().split('=');
      const value = Number(raw.replace(/^"|"$/g, ''));
      if ((key === 'dur' || key === 'desc') && Number.isFinite(value)) parsed[name] = value;
    }
  }
  return parsed;
}
