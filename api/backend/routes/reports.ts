import { z } from 'zod';
import { jobIdPattern } from '../../../core/temporal/jobIds.ts';
import { queryInt } from '../../plugins/query.ts';
import { CHAIN_IDS, type ChainInfo } from '../../../core/chains/registry.ts';
import { anyOf, documentedAs, isEvm, isScannable, servedTargets } from './targets.ts';
import { Reason } from '../../../core/errors/reasons.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { FORMAT_CONTENT_TYPES, REPORT_FORMATS, type ReportFormat } from '../../../reports/core/schema.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import { ReportJob, type ReportJobs } from '../reportJobs.ts';
import type { ScannerTrials } from '../scannerTrials.ts';

const ReportRequest = z
  .object({
    kind: z.enum(['token', 'wallet']).default('token').describe('What the report is about'),
    chain: z.enum(CHAIN_IDS).describe('Chain slug, e.g. ethereum, base, devnet'),
    address: z.string().min(1).max(128).describe('The token contract, or the wallet'),
  })
  .strict()
  .meta({ id: 'ReportRequest' });

// A report's job id (one pattern: schemathesis cannot generate strings for two at once).
const JobParams = z.object({ job_id: z.string().max(256).regex(jobIdPattern('report')) });
const FileParams = JobParams.extend({ format: z.enum(REPORT_FORMATS as [ReportFormat, ...ReportFormat[]]) });
const ReportList = z.object({
  reports: z.array(
    z.object({
      job_id: z.string(),
      subject: z.object({ kind: z.string(), chain: z.string(), address: z.string() }),
      requested_at: z.string(),
    }),
  ),
});
const Cancellation = z.object({ job_id: z.string(), outcome: z.string() });
const problems = { 400: Problem, 404: Problem, 422: Problem, 503: Problem };

/** How often the progress stream looks at the job, and says it is alive when nothing changed. */
const EVENT_POLL_MS = 500;
const EVENT_KEEPALIVE_MS = 15_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'terminated', 'timed_out']);

/**
 * One server-sent event of a report's stream: `progress` (the job's status and progress), then
 * one of `completed`, `failed` or `cancelled` (the job), or `error` (why the stream stopped); its
 * data is JSON.
 */
const REPORT_EVENT_SCHEMA = {
  type: 'object',
  properties: {
    event: { enum: ['progress', 'completed', 'failed', 'cancelled', 'error'] },
    data: { type: 'string', contentMediaType: 'application/json' },
  },
  required: ['event', 'data'],
};

/** Research reports: start (or join), read, follow as server-sent events, download, list, cancel. */
export function reportRoutes(
  app: VigilApp,
  reports: ReportJobs,
  trials: ScannerTrials,
  served: readonly ChainInfo[],
  { eventsMaxMs = 30 * 60_000 }: { eventsMaxMs?: number } = {},
): void {
  // Wallet reports read the EVM index; token reports apply where token scans do.
  const documentedRequest = anyOf([
    servedTargets(ReportRequest.extend({ kind: z.literal('wallet') }), served.filter(isEvm)),
    servedTargets(
      ReportRequest.extend({ kind: z.literal('token').default('token') }),
      served.filter(isScannable),
    ),
  ]);
  app.post(
    '/api/v1/reports',
    {
      schema: {
        tags: ['reports'],
        summary: 'Start a research report on a token or a wallet',
        description:
          'Answers 202 with the job, its progress URL (server-sent events) and status URL. Identical concurrent ' +
          'requests join the same report. Anonymous callers are trial-gated as generate_report; API keys are not.',
        body: ReportRequest,
        response: { 202: ReportJob, 401: Problem, 402: Problem, 429: Problem, ...problems },
      },
      config: documentedAs('body', documentedRequest),
    },
    async (request, reply) => {
      // Checked before the trial is taken: a refused subject costs nothing.
      reports.check(request.body);
      const admission = await trials.admit(request.caller, request.headers, 'generate_report');
      let job: ReportJob;
      try {
        job = await reports.submit(request.body, request.caller.id);
      } catch (error) {
        await admission?.release();
        throw error;
      }
      for (const [name, value] of Object.entries(admission?.headers ?? {})) reply.header(name, value);
      return reply.code(202).header('location', job.status_url).send(job);
    },
  );

  app.get(
    '/api/v1/reports',
    {
      schema: {
        tags: ['reports'],
        summary: "The caller's reports, newest first",
        description: 'Reports asked for with the same API key, or from the same network fingerprint.',
        querystring: z.object({ limit: queryInt(1, 100).default(20) }),
        response: { 200: ReportList, ...problems },
      },
    },
    async (request) => ({ reports: await reports.list(request.caller.id, request.query.limit) }),
  );

  app.get(
    '/api/v1/reports/:job_id',
    {
      schema: {
        tags: ['reports'],
        summary: "A report's status, per-section progress, result or failure reason",
        description: 'For the callers that asked for the report and for operators; anyone else gets 403.',
        params: JobParams,
        response: { 200: ReportJob, 403: Problem, ...problems },
      },
    },
    async (request) => {
      await reports.assertReadable(request.params.job_id, request.caller);
      return reports.get(request.params.job_id);
    },
  );

  app.get(
    '/api/v1/reports/:job_id/events',
    {
      schema: {
        tags: ['reports'],
        summary: "A report's progress as server-sent events (`curl -N`)",
        description:
          'One `progress` event whenever a section or the stage changes, then one `completed`, `failed` or ' +
          '`cancelled` event with the job, and the stream ends. A comment line every 15 s keeps proxies from ' +
          'closing a quiet stream. A stream open longer than REPORT_EVENTS_MAX_SECONDS (30 minutes by default) ends ' +
          'with an `error` event, reason `stream_expired`: the report goes on, reconnect to follow it.',
        params: JobParams,
        response: { 403: Problem, ...problems },
      },
      config: { produces: { 200: [{ type: 'text/event-stream', schema: REPORT_EVENT_SCHEMA }] } },
    },
    async (request, reply) => {
      await reports.assertReadable(request.params.job_id, request.caller);
      const first = await reports.get(request.params.job_id);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let closed = false;
      request.raw.on('close', () => {
        closed = true;
      });
      const send = (event: string, data: unknown) =>
        out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      let last = '';
      let quietSince = Date.now();
      const endsAt = Date.now() + eventsMaxMs;
      let job = first;
      for (;;) {
        const state = JSON.stringify({ status: job.status, progress: job.progress });
        if (TERMINAL.has(job.status)) {
          send(job.status, job);
          break;
        }
        if (state !== last) {
          send('progress', { job_id: job.job_id, status: job.status, progress: job.progress });
          last = state;
          quietSince = Date.now();
        } else if (Date.now() - quietSince > EVENT_KEEPALIVE_MS) {
          out.write(': still running\n\n');
          quietSince = Date.now();
        }
        if (Date.now() >= endsAt) {
          send('error', { reason: Reason.streamExpired, job_id: job.job_id });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, EVENT_POLL_MS));
        if (closed) break;
        try {
          job = await reports.get(request.params.job_id);
        } catch (error) {
          send('error', { reason: error instanceof VigilError ? error.code : Reason.internalError });
          break;
        }
      }
      out.end();
    },
  );

  app.get(
    '/api/v1/reports/:job_id/report.:format',
    {
      schema: {
        tags: ['reports'],
        summary: 'Download a finished report: json, md, html or pdf',
        params: FileParams,
        // A file, sent as is (Fastify never serialises a Buffer).
        response: { 200: z.any(), 403: Problem, 409: Problem, ...problems },
      },
      config: {
        produces: {
          200: REPORT_FORMATS.map((format) => ({
            type: FORMAT_CONTENT_TYPES[format].split(';')[0] ?? FORMAT_CONTENT_TYPES[format],
            binary: format === 'pdf',
            ...(format === 'json' ? { schema: { type: 'object' } } : {}),
          })),
        },
      },
    },
    async (request, reply) => {
      const { job_id: jobId, format } = request.params;
      await reports.assertReadable(jobId, request.caller);
      const content = await reports.file(jobId, format);
      if (!content) {
        const job = await reports.get(jobId);
        if (job.status === 'running') {
          throw new VigilError(
            Reason.reportNotReady,
            'The report is still being written; follow its events URL.',
            {
              headers: { 'retry-after': '5' },
              extensions: { events_url: job.events_url },
            },
          );
        }
        throw new VigilError(Reason.notFound, `This report has no ${format} format.`);
      }
      const name = `vigil-report.${format}`;
      return (
        reply
          .header('content-type', FORMAT_CONTENT_TYPES[format])
          .header(
            'content-disposition',
            `${format === 'html' || format === 'json' ? 'inline' : 'attachment'}; filename="${name}"`,
          )
          .header('x-content-type-options', 'nosniff')
          // The HTML is opened in browsers: nothing in it may run or load, whatever the renderer missed.
          .header(
            'content-security-policy',
            "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
          )
          .send(content)
      );
    },
  );

  app.delete(
    '/api/v1/reports/:job_id',
    {
      schema: {
        tags: ['reports'],
        summary: 'Cancel a running report (workflow cancellation), or stop holding it when others still do',
        params: JobParams,
        response: { 202: Cancellation, 403: Problem, 409: Problem, ...problems },
      },
    },
    async (request, reply) => {
      const { outcome } = await reports.cancel(request.params.job_id, request.caller);
      return reply.code(202).send({ job_id: request.params.job_id, outcome });
    },
  );
}
