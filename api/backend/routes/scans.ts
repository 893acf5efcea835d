import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { JOB_ID_PATTERN } from '../../../core/temporal/jobIds.ts';
import { CHAIN_IDS, type ChainInfo } from '../../../core/chains/registry.ts';
import { documentedAs, isScannable, servedTargets } from './targets.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import { ScanCancellation, ScanJob, type ScanJobs } from '../scanJobs.ts';
import type { ScannerTrials } from '../scannerTrials.ts';

const ScanRequest = z
  .object({
    chain: z.enum(CHAIN_IDS).describe('Chain slug, e.g. ethereum, base, devnet'),
    address: z.string().min(1).max(128).describe('Token contract address'),
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(120_000)
      .optional()
      .describe(
        'Wait up to this long for the outcome (capped by the server). Without it the answer still waits up to 2 s ' +
          "for the scan's first step, which reads the chain: a refused target answers its problem, else 202",
      ),
    fresh: z.boolean().optional().describe('Ignore a cached result and scan again'),
  })
  .strict()
  .meta({ id: 'ScanRequest' });

const JobParams = z.object({ job_id: z.string().max(256).regex(JOB_ID_PATTERN) });
const problems = { 400: Problem, 404: Problem, 422: Problem, 503: Problem };
const gated = { 401: Problem, 402: Problem, 429: Problem };

/** The async multi-engine scanner: start, read and cancel token scan jobs. */
export function scanRoutes(
  app: VigilApp,
  jobs: ScanJobs,
  trials: ScannerTrials,
  served: readonly ChainInfo[],
): void {
  const documentedRequest = servedTargets(ScanRequest, served.filter(isScannable));
  app.post(
    '/api/v2/scanner/scans',
    {
      schema: {
        tags: ['scanner'],
        summary: 'Start a token risk scan',
        description:
          'Answers 202 with the job id and a status URL, or 200 with the outcome when it is known within wait_ms ' +
          '(or cached). Identical concurrent requests join the same job. A target the scan refuses after reading the ' +
          'chain (no code at the address, not a mint) answers 422 naming its failed job (`job_id`). Anonymous ' +
          'callers are trial-gated: each scan takes a free call of token_risk (X-Client-ID, or X-Wallet-Proof for a ' +
          'proven wallet); API keys are not.',
        body: ScanRequest,
        response: { 200: ScanJob, 202: ScanJob, ...problems, ...gated },
      },
      config: documentedAs('body', documentedRequest),
    },
    async (request, reply) => {
      const admission = await trials.admit(request.caller, request.headers, 'token_risk');
      let job: ScanJob;
      try {
        job = await jobs.submit(request.body, { id: request.caller.id });
      } catch (error) {
        // A refused request (bad address, no code, engine down) costs no trial.
        await admission?.release();
        throw error;
      }
      for (const [name, value] of Object.entries(admission?.headers ?? {})) reply.header(name, value);
      degradedHeader(reply, job);
      if (job.status === 'running') return reply.code(202).header('location', job.status_url).send(job);
      // A cache hit's result was checked against its schema when read back; checking the whole
      // answer again on the way out would double the cost of the hottest path.
      if (job.cached) reply.serializer(JSON.stringify);
      return reply.code(200).send(job);
    },
  );

  app.get(
    '/api/v2/scanner/scans/:job_id',
    {
      schema: {
        tags: ['scanner'],
        summary: 'Status, per-engine progress, result or failure reason of a scan job',
        description:
          'For the callers that started or joined the job (the same network fingerprint) and for API keys; ' +
          'anyone else gets 403.',
        params: JobParams,
        response: { 200: ScanJob, 403: Problem, ...problems },
      },
    },
    async (request, reply) => {
      await jobs.assertReadable(request.params.job_id, request.caller);
      const job = await jobs.get(request.params.job_id);
      degradedHeader(reply, job);
      return job;
    },
  );

  app.delete(
    '/api/v2/scanner/scans/:job_id',
    {
      schema: {
        tags: ['scanner'],
        summary: 'Cancel a running scan job (or stop holding it, when others still do)',
        description:
          'Only a caller that started or joined the job (the same API key or network fingerprint), or an operator key, ' +
          'may cancel it (403 otherwise). A job joined by several callers goes on while any of them holds it: a cancel ' +
          'detaches the caller (`cancel.outcome: detached`) and the last one cancels the workflow (`cancelled`).',
        params: JobParams,
        response: { 202: ScanCancellation, 403: Problem, 409: Problem, ...problems },
      },
    },
    async (request, reply) =>
      reply.code(202).send(
        await jobs.cancel(request.params.job_id, {
          id: request.caller.id,
          operator: request.caller.operator,
        }),
      ),
  );
}

/** Chain providers the scan had to skip (dead, slow, wrong chain), named as /health names them. */
function degradedHeader(reply: FastifyReply, job: ScanJob): void {
  const degraded = job.result?.degraded_providers ?? [];
  if (degraded.length > 0) reply.header('x-degraded-stores', degraded.join(','));
}
