/** Latency summary of one benchmark phase. */
export interface PhaseStats {
  phase: string;
  n: number;
  concurrency: number;
  wall_ms: number;
  per_second: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Runs `task` for every item with at most `concurrency` in flight and summarises latency.
 * A task that throws counts as an error and its time is left out of the percentiles.
 */
export async function runPhase<T>(
  phase: string,
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<PhaseStats> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        const t0 = performance.now();
        try {
          await task(item);
          latencies.push(performance.now() - t0);
        } catch (error) {
          errors++;
          if (errors <= 3)
            console.error(`[bench] ${phase}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }),
  );
  const wall = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    phase,
    n: items.length,
    concurrency,
    wall_ms: round(wall),
    per_second: round((latencies.length / wall) * 1000),
    p50_ms: round(percentile(latencies, 50)),
    p95_ms: round(percentile(latencies, 95)),
    p99_ms: round(percentile(latencies, 99)),
    max_ms: round(latencies.at(-1) ?? 0),
    errors,
  };
}

export function markdownTable(rows: PhaseStats[], unit = 'scans/s'): string {
  const header = `| phase | n | concurrency | ${unit} | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|---|`;
  const lines = rows.map(
    (row) =>
      `| ${row.phase} | ${row.n} | ${row.concurrency} | ${row.per_second} | ${row.p50_ms} | ${row.p95_ms} | ${row.p99_ms} | ${row.errors} |`,
  );
  return [header, ...lines].join('\n');
}
