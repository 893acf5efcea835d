// Runs the backend service alone: `npm run backend`.
import { parseEnv } from '../../core/config/env.ts';
import { listenUntilSignal } from '../plugins/listen.ts';
import { buildBackendApp } from './app.ts';
import { BackendEnv, publicUrlOf } from './config.ts';
import { closeBackendDeps, createBackendDeps } from './deps.ts';
import { ensureNewsSchedule } from '../../news/schedule.ts';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';
import { startTracingFromEnv } from '../../clients/tracing.ts';

const env = parseEnv(BackendEnv);
const tracing = startTracingFromEnv('vigil-backend');
const deps = createBackendDeps(env);
await Promise.all([
  deps.scans.ensureIndexes().catch(() => undefined),
  deps.x402.receipts.ensureIndexes().catch(() => undefined),
]);
const app = await buildBackendApp(deps, { publicUrl: publicUrlOf(env), logger: { level: env.LOG_LEVEL } });
// The news pipeline's schedule: created or updated by whichever replica starts (idempotent).
if (env.NEWS_FEEDS.length > 0)
  ensureNewsSchedule(deps.temporal.client, {
    feeds: env.NEWS_FEEDS,
    everyMinutes: env.NEWS_POLL_MINUTES,
    taskQueue: taskQueueName(TaskQueue.reports, env.TASK_QUEUE_PREFIX),
    idPrefix: env.TASK_QUEUE_PREFIX,
  }).then(
    (id) => app.log.info({ schedule: id, feeds: env.NEWS_FEEDS.length }, 'news schedule ready'),
    (error: unknown) => app.log.warn({ err: error }, 'news schedule not created; news stays as it is'),
  );

await listenUntilSignal(app, { host: env.HOST, port: env.PORT }, async () => {
  await closeBackendDeps(deps);
  await tracing?.shutdown();
});
