// What Temporal itself costs a request on this machine, with no work in it: a client starts a
// workflow and awaits its result, on the embedded dev server (in memory), through a worker in
// another process's shoes (its own connection). The floor under every REST → Temporal → worker
// path (docs/benchmarks.md): what no change to Vigil's own code can take away.
//   npm run bench:temporal-floor -- [--n 60]
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, REPO_ROOT } from '../infra/stack/processes.ts';
import { startTemporal } from '../infra/stack/services.ts';
import { percentile } from './stats.ts';
import { stepTable, workflowTimelines } from './x402Breakdown.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '60' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const n = Number(values.n);
const WARMUP = 5;
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

const temporal = await startTemporal({ port: await freePort() });
const rows: { bundle: string; bundle_mb: number; workflow: string; p50_ms: number; p95_ms: number }[] = [];
const round = (value: number) => Math.round(value * 10) / 10;
/** Eager workflow start (the first task handed back with the start) against the same start without it. */
const eager: { start: string; p50_ms: number; p95_ms: number; eagerly_started: number }[] = [];
const timelines: string[] = [];
try {
  for (const [bundle, entry] of [
    ['floor workflows only', 'workflows.ts'],
    ["floor workflows + the scanner pool's", 'withScanner.ts'],
    ["floor workflows + all of Vigil's", 'withVigil.ts'],
  ] as const) {
    const { code } = await bundleWorkflowCode({
      workflowsPath: path.join(import.meta.dirname, 'temporalFloor', entry),
      logger: quiet,
    });
    const workerConnection = await NativeConnection.connect({ address: temporal.address });
    const taskQueue = `floor-${rows.length}`;
    const worker = await Worker.create({
      connection: workerConnection,
      taskQueue,
      workflowBundle: { code },
      activities: { step: () => Promise.resolve(1) },
    });
    const running = worker.run();
    const connection = await Connection.connect({ address: temporal.address });
    const client = new Client({ connection });
    try {
      for (const workflow of ['floorEmpty', 'floorOneStep', 'floorScanShape']) {
        const latencies: number[] = [];
        const runs: { workflowId: string; runId: string }[] = [];
        for (let i = 0; i < n + WARMUP; i++) {
          const started = performance.now();
          const handle = await client.workflow.start(workflow, {
            taskQueue,
            workflowId: `${taskQueue}-${workflow}-${i}`,
          });
          await handle.result();
          if (i < WARMUP) continue;
          latencies.push(performance.now() - started);
          runs.push({ workflowId: handle.workflowId, runId: handle.firstExecutionRunId });
        }
        latencies.sort((a, b) => a - b);
        rows.push({
          bundle,
          bundle_mb: round(code.length / 1e6),
          workflow,
          p50_ms: round(percentile(latencies, 50)),
          p95_ms: round(percentile(latencies, 95)),
        });
        if (workflow === 'floorScanShape')
          timelines.push(
            stepTable(
              `${workflow}, ${bundle}: step`,
              await workflowTimelines(temporal.address, runs, { localActivities: true }),
            ),
          );
      }
      // Eager start needs the client on the worker's own connection (one process starts the workflow
      // and runs its first task): both ways are measured from that client, alternately.
      if (rows.length === 3) {
        const local = new Client({ connection: workerConnection });
        const samples = { eager: [] as number[], plain: [] as number[] };
        let eagerly = 0;
        for (let i = 0; i < 2 * (n + WARMUP); i++) {
          const requestEagerStart = i % 2 === 0;
          const started = performance.now();
          const handle = await local.workflow.start('floorOneStep', {
            taskQueue,
            workflowId: `${taskQueue}-eager-${i}`,
            requestEagerStart,
          });
          await handle.result();
          if (i < 2 * WARMUP) continue;
          (requestEagerStart ? samples.eager : samples.plain).push(performance.now() - started);
          if (requestEagerStart && handle.eagerlyStarted) eagerly++;
        }
        for (const [start, values] of Object.entries(samples)) {
          values.sort((a, b) => a - b);
          eager.push({
            start: start === 'eager' ? 'eager (requestEagerStart)' : 'plain',
            p50_ms: round(percentile(values, 50)),
            p95_ms: round(percentile(values, 95)),
            eagerly_started: start === 'eager' ? eagerly : 0,
          });
        }
      }
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
      await workerConnection.close();
    }
  }
} finally {
  await temporal.process.stop();
}

const table = [
  '| bundle | MB | workflow | client p50 ms | client p95 ms |',
  '|---|---|---|---|---|',
  ...rows.map(
    (row) => `| ${row.bundle} | ${row.bundle_mb} | ${row.workflow} | ${row.p50_ms} | ${row.p95_ms} |`,
  ),
].join('\n');
const eagerTable = [
  "| floorOneStep, started from the worker's own connection | client p50 ms | client p95 ms | eagerly started |",
  '|---|---|---|---|',
  ...eager.map((row) => `| ${row.start} | ${row.p50_ms} | ${row.p95_ms} | ${row.eagerly_started} of ${n} |`),
].join('\n');
const text = `${table}\n\n${eagerTable}\n\n${timelines.join('\n\n')}`;
console.log(text);
const date = new Date().toISOString();
await mkdir(values.out, { recursive: true });
await writeFile(
  path.join(values.out, 'temporal-floor.json'),
  `${JSON.stringify({ benchmark: 'temporal-floor', date, cpus: os.cpus().length, node: process.version, n, rows, eager }, null, 2)}\n`,
);
await writeFile(
  path.join(values.out, 'temporal-floor.md'),
  `# Temporal's own cost per request (${date.slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version})\n\n${text}\n`,
);
