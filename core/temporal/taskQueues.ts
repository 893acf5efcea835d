/** Task queues: one worker pool each, scaled independently. Shared by the API and the workers. */
export const TaskQueue = {
  scanner: 'scanner',
  scraper: 'scraper',
  reports: 'reports',
  ingest: 'ingest',
  payments: 'payments',
  social: 'social',
  alerts: 'alerts',
} as const;
export type TaskQueue = (typeof TaskQueue)[keyof typeof TaskQueue];

/**
 * The queue name on the server: TASK_QUEUE_PREFIX lets several deployments (or test runs) share
 * one Temporal namespace without taking each other's tasks.
 */
export function taskQueueName(queue: TaskQueue, prefix = ''): string {
  return `${prefix}${queue}`;
}

export function isTaskQueue(value: string): value is TaskQueue {
  return Object.values<string>(TaskQueue).includes(value);
}
