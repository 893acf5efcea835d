// Per-step breakdown of a paid call for bench/x402.ts: the backend's and the facilitator's
// Server-Timing headers, and the settlement workflow's own timeline from its Temporal history.
import { Client, Connection } from '@temporalio/client';
import { parseServerTiming } from '../api/plugins/stepTimings.ts';
import { percentile } from './stats.ts';

const round = (value: number) => Math.round(value * 10) / 10;

/** Step → samples (ms), from many Server-Timing headers. */
export class StepSamples {
  readonly #samples = new Map<string, number[]>();

  addHeader(header: string | null): void {
    for (const [step, ms] of Object.entries(parseServerTiming(header))) this.add(step, ms);
  }

  add(step: string, ms: number): void {
    const list = this.#samples.get(step) ?? [];
    list.push(ms);
    this.#samples.set(step, list);
  }

  summary(): { step: string; n: number; p50_ms: number; p95_ms: number }[] {
    return [...this.#samples].map(([step, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return {
        step,
        n: values.length,
        p50_ms: round(percentile(sorted, 50)),
        p95_ms: round(percentile(sorted, 95)),
      };
    });
  }
}

export function stepTable(title: string, rows: ReturnType<StepSamples['summary']>): string {
  return [
    `| ${title} | n | p50 ms | p95 ms |`,
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.step} | ${row.n} | ${row.p50_ms} | ${row.p95_ms} |`),
  ].join('\n');
}

/**
 * The settlement workflows' timelines from their histories (server clock): how long the first
 * workflow task waited to be picked up, how long the worker held it (the settle and record
 * local activities run inside it), and the rest until the run closed.
 */
export async function workflowTimelines(temporalAddress: string, workflowIds: readonly string[]) {
  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  const samples = new StepSamples();
  try {
    for (const id of workflowIds) {
      const history = await client.workflow.getHandle(id).fetchHistory();
      const events = history.events ?? [];
      const at = (index: number) => {
        const time = events[index]?.eventTime;
        return time ? Number(time.seconds ?? 0) * 1000 + (time.nanos ?? 0) / 1e6 : Number.NaN;
      };
      const find = (type: string) =>
        events.findIndex((event) => String(event.eventType).includes(type) || event[typeKey(type)] != null);
      const started = find('WORKFLOW_EXECUTION_STARTED');
      const scheduled = find('WORKFLOW_TASK_SCHEDULED');
      const taskStarted = find('WORKFLOW_TASK_STARTED');
      const taskCompleted = find('WORKFLOW_TASK_COMPLETED');
      const closed = events.length - 1;
      samples.add('wf: start → first task picked up', at(taskStarted) - at(Math.max(started, scheduled)));
      samples.add('wf: first task held by the worker', at(taskCompleted) - at(taskStarted));
      samples.add('wf: task completed → run closed', at(closed) - at(taskCompleted));
      samples.add('wf: start → closed', at(closed) - at(started));
    }
  } finally {
    await connection.close();
  }
  return samples.summary();
}

function typeKey(type: string): 'workflowExecutionStartedEventAttributes' {
  // The history's attribute field names, e.g. WORKFLOW_TASK_STARTED → workflowTaskStartedEventAttributes.
  const camel = type.toLowerCase().replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
  return `${camel}EventAttributes` as 'workflowExecutionStartedEventAttributes';
}
