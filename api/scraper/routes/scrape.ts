import type { FastifyRequest } from 'fastify';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { ScrapeJobs } from '../scrapeJobs.ts';
import { ScrapeRequest, ScrapeResponse } from '../schemas.ts';

const SAFE_CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Who is counted against the per-minute rate: the X-Client-ID fingerprint, else the address. */
export function callerOf(request: FastifyRequest): string {
  const sent = request.headers['x-client-id'];
  const clientId = Array.isArray(sent) ? sent[0] : sent;
  return clientId && SAFE_CLIENT_ID.test(clientId) ? `fp:${clientId}` : `ip:${request.ip}`;
}

export function scrapeRoutes(app: VigilApp, jobs: ScrapeJobs): void {
  app.post(
    '/v1/scrape',
    {
      schema: {
        tags: ['scraper'],
        summary: 'Scrape a page through the escalation chain',
        description:
          'Walks plain HTTP → HTTP with a browser fingerprint → headless Chromium → hardened Chromium (→ an upstream ' +
          'proxy when configured), starting from the tier that last worked for the domain, and answers with the page ' +
          'in the asked format. 429 (Retry-After) when the caller, the domain or the target is over its rate; 451 when ' +
          'every tier was blocked (the attempts and their reasons are in the problem); 504 when timeout_ms ran out.',
        body: ScrapeRequest,
        response: {
          200: ScrapeResponse,
          400: Problem,
          422: Problem,
          429: Problem,
          451: Problem,
          502: Problem,
          503: Problem,
          504: Problem,
        },
      },
    },
    async (request, reply) => {
      const rate = await jobs.admit(callerOf(request));
      if (rate) {
        reply.header('x-ratelimit-limit', String(rate.limit));
        reply.header('x-ratelimit-remaining', String(rate.remaining));
        reply.header('x-ratelimit-reset', String(rate.reset));
      }
      return jobs.scrape(request.body);
    },
  );
}
