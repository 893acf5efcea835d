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
 * Workflows' timelines from their histories (server clock): how long the first workflow task
 * waited to be picked up, how long the worker held it (the local activities run inside it), and
 * the rest until the run closed. With `localActivities`, the held task is split at the times its
 * local activities were scheduled (worker clock, from their markers): the first activation until
 * the first one, and each one until the next.
 */
export async function workflowTimelines(
  temporalAddress: string,
  workflowIds: readonly (string | { workflowId: string; runId: string })[],
  { localActivities = false } = {},
) {
  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  const samples = new StepSamples();
  try {
    for (const id of workflowIds) {
      const history = await (
        typeof id === 'string'
          ? client.workflow.getHandle(id)
          : client.workflow.getHandle(id.workflowId, id.runId)
      ).fetchHistory();
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
      if (localActivities) {
        const steps = scheduledLocalActivities(events);
        let from = { name: 'first activation', at: at(taskStarted) };
        for (const step of steps) {
          samples.add(`wf: ${from.name} → ${step.name} scheduled`, step.at - from.at);
          from = step;
        }
        const lastTaskCompleted = events.findLastIndex(
          (event) =>
            String(event.eventType).includes('WORKFLOW_TASK_COMPLETED') ||
            event[typeKey('WORKFLOW_TASK_COMPLETED')] != null,
        );
        samples.add(`wf: ${from.name} → last task completed`, at(lastTaskCompleted) - from.at);
      }
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

/**
 * The local activities a history records, each at the time it was first scheduled, in order;
 * those scheduled together (engines in parallel) count as one step named by the group.
 */
function scheduledLocalActivities(
  events: readonly { markerRecordedEventAttributes?: { details?: Record<string, unknown> | null } | null }[],
): { name: string; at: number }[] {
  const decoder = new TextDecoder();
  const scheduled: { type: string; at: number }[] = [];
  for (const event of events) {
    const details = event.markerRecordedEventAttributes?.details as
      Record<string, { payloads?: { data?: Uint8Array | null }[] | null }> | undefined;
    const data = details?.['data']?.payloads?.[0]?.data;
    if (!data) continue;
    const marker = JSON.parse(decoder.decode(data)) as {
      activity_type?: string;
      original_schedule_time?: { seconds: number; nanos: number };
    };
    const time = marker.original_schedule_time;
    if (marker.activity_type && time)
      scheduled.push({ type: marker.activity_type, at: time.seconds * 1000 + time.nanos / 1e6 });
  }
  scheduled.sort((a, b) => a.at - b.at);
  const steps: { name: string; at: number }[] = [];
  for (const entry of scheduled) {
    const last = steps.at(-1);
    if (last && entry.at - last.at < 1) last.name = last.name.includes('…') ? last.name : `${last.name}…`;
    else steps.push({ name: entry.type, at: entry.at });
  }
  return steps;
}
