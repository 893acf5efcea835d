import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { VigilApp } from '../../plugins/service.ts';
import type { BackendDeps } from '../deps.ts';
import { ProbeResult, probeMongo, probeRedis, probeRpcs, probeTemporal } from '../health.ts';
import { Reason } from '../../../core/errors/reasons.ts';

const Live = z.object({ status: z.literal('alive'), uptime_s: z.number() }).meta({ id: 'LivenessResponse' });
const Ready = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.array(ProbeResult) })
  .meta({ id: 'ReadinessResponse' });
const StackProcess = z
  .object({
    name: z.string(),
    pid: z.number().nullable(),
    state: z.enum(['running', 'restarting', 'gave_up', 'stopped']),
    restarts: z.number().int(),
    last_exit: z.string().nullable(),
    last_exit_at: z.string().nullable(),
  })
  .meta({ id: 'StackProcess' });
const Supervision = z.object({ processes: z.array(StackProcess) });

/** The embedded stack's children as its launcher last wrote them; undefined when unreadable. */
async function stackProcesses(file: string | undefined): Promise<z.infer<typeof StackProcess>[] | undefined> {
  if (!file) return undefined;
  try {
    return Supervision.parse(JSON.parse(await readFile(file, 'utf8'))).processes;
  } catch {
    return undefined;
  }
}

const Health = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    service: z.string(),
    version: z.string(),
    checked_at: z.iso.datetime(),
    stores: z.array(ProbeResult),
    degraded: z.array(z.string()).describe('Names of stores or providers that are down'),
    config: z.object({ valid: z.boolean(), warnings: z.array(z.string()) }),
    processes: z
      .array(StackProcess)
      .optional()
      .describe(
        'Under `npm start` only: every child of the embedded stack, restarted with backoff when it exits (state, restarts, last exit)',
      ),
  })
  .meta({ id: 'HealthResponse' });

/** /live (process only), /ready (critical stores), /health (every store, with latency). */
export function healthRoutes(app: VigilApp, deps: BackendDeps): void {
  app.get(
    '/live',
    { schema: { tags: ['health'], summary: 'The process is alive', response: { 200: Live } } },
    () => ({
      status: 'alive' as const,
      uptime_s: Math.round(process.uptime()),
    }),
  );

  app.get(
    '/ready',
    {
      schema: { tags: ['health'], summary: 'Ready when Redis and MongoDB answer', response: { 200: Ready } },
    },
    async (_request, reply) => {
      const checks = await Promise.all([probeRedis(deps), probeMongo(deps)]);
      const down = checks.filter((check) => check.status === 'down');
      if (down.length > 0) {
        return reply
          .header('x-degraded-stores', down.map((check) => check.name).join(','))
          .problem(
            Reason.notReady,
            `Not ready: ${down.map((check) => `${check.name} (${check.detail ?? 'down'})`).join(', ')}.`,
            {
              checks,
            },
          );
      }
      return { status: 'ready' as const, checks };
    },
  );

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Every store and chain RPC with latency',
        response: { 200: Health },
      },
    },
    async (_request, reply) => {
      const reading = stackProcesses(deps.supervisionFile);
      const stores = await Promise.all([
        probeRedis(deps),
        probeMongo(deps),
        probeTemporal(deps),
        ...probeRpcs(deps),
      ]);
      const processes = await reading;
      const down = stores.filter((store) => store.status === 'down');
      const notRunning = (processes ?? []).filter((child) => child.state !== 'running');
      const status: z.infer<typeof Health>['status'] = down.some((store) => store.critical)
        ? 'down'
        : down.length + notRunning.length > 0
          ? 'degraded'
          : 'ok';
      const body = {
        status,
        service: deps.version.service,
        version: deps.version.version,
        checked_at: new Date().toISOString(),
        stores,
        degraded: [...down.map((store) => store.name), ...notRunning.map((child) => `process:${child.name}`)],
        config: { valid: true, warnings: deps.configWarnings },
        ...(processes ? { processes } : {}),
      };
      // A report, always 200: /ready is the gate load balancers use.
      if (body.degraded.length > 0) reply.header('x-degraded-stores', body.degraded.join(','));
      return body;
    },
  );
}
