// A worker process: `npm run worker -- scanner` runs the scanner pool alone; `all` runs every pool.
import { Runtime } from '@temporalio/worker';
import { parseEnv } from '../core/config/env.ts';
import { isTaskQueue, type TaskQueue } from '../core/temporal/taskQueues.ts';
import { WorkerEnv } from './config.ts';
import { workerLogger } from './logger.ts';
import { poolQueues } from './pools.ts';
import { runWorkers } from './runWorkers.ts';
import { startTracingFromEnv } from '../clients/tracing.ts';

const env = parseEnv(WorkerEnv);
const tracing = startTracingFromEnv('vigil-worker');
const args = process.argv.slice(2);
const queues: TaskQueue[] = args.length === 0 || args.includes('all') ? poolQueues() : [];
for (const arg of args.filter((value) => value !== 'all')) {
  if (!isTaskQueue(arg) || !poolQueues().includes(arg)) {
    console.error(`unknown worker pool "${arg}"; pools: ${poolQueues().join(', ')}, or all`);
    process.exit(2);
  }
  queues.push(arg);
}

const { temporal } = workerLogger(env.LOG_LEVEL);
Runtime.install({
  logger: temporal,
  ...(env.WORKER_METRICS_ADDRESS
    ? { telemetryOptions: { metrics: { prometheus: { bindAddress: env.WORKER_METRICS_ADDRESS } } } }
    : {}),
});

const running = await runWorkers(env, queues);
// The readiness line, written whatever LOG_LEVEL says: supervisors (npm start, the tests) wait for it.
console.warn(`vigil worker: polling ${queues.join(', ')} on ${env.TEMPORAL_ADDRESS}`);
await running.done;
await tracing?.shutdown();
