import { readFileSync } from 'node:fs';

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

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat; undefined where
 * there is no /proc (not Linux) or the process is gone. Its children are not counted.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields follow its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are the stat file's fields 14 and 15 (here 12 and 13), in clock ticks.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times, on every architecture it runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU each named process spends while `work` runs, in ms per item: where a phase's time goes
 * among the processes that serve it (the load generator included).
 */
export async function cpuPerItem<T>(
  pids: Readonly<Record<string, number | undefined>>,
  items: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpu_ms_per_item: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processCpuMs(pid)]));
  const result = await work();
  const cpu_ms_per_item: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) {
    const after = processCpuMs(pid);
    const start = before[name];
    if (after !== undefined && start !== undefined && items > 0)
      cpu_ms_per_item[name] = round((after - start) / items);
  }
  return { result, cpu_ms_per_item };
}
