import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';

export interface NewsScheduleOptions {
  feeds: readonly string[];
  everyMinutes: number;
  /** The reports queue's name on the server (with its TASK_QUEUE_PREFIX). */
  taskQueue: string;
  /** Distinguishes deployments sharing a namespace (the TASK_QUEUE_PREFIX). */
  idPrefix?: string;
}

/**
 * The Temporal schedule that runs the news pipeline (`ingestNews`) every few minutes, created
 * once and updated when the feeds or the interval change; every replica may call this at start.
 * A round that is still running when the next is due is skipped, not doubled. A round also runs
 * at creation and at every update, so a (re)started deployment has news within a minute.
 */
export async function ensureNewsSchedule(client: Client, options: NewsScheduleOptions): Promise<string> {
  const scheduleId = `${options.idPrefix ?? ''}news-feeds`;
  const action = {
    type: 'startWorkflow' as const,
    workflowType: 'ingestNews',
    workflowId: `${options.idPrefix ?? ''}news-round`,
    taskQueue: options.taskQueue,
    args: [{ feeds: [...options.feeds] }],
  };
  const spec = { intervals: [{ every: `${options.everyMinutes}m` as const }] };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      state: {
        triggerImmediately: true,
        note: 'News feeds: read, link, classify, store (news/schedule.ts).',
      },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    const handle = client.schedule.getHandle(scheduleId);
    await handle.update((previous) => ({ ...previous, spec, action }));
    // A restarted deployment reads its feeds now too, not only when the interval comes round.
    await handle.trigger(ScheduleOverlapPolicy.SKIP);
  }
  return scheduleId;
}
