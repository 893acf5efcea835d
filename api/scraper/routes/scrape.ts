import type { FastifyRequest } from 'fastify';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { ScrapeJobs } from '../scrapeJobs.ts';
import { ScrapeRequest, ScrapeResponse } from '../schemas.ts';

/**
 * Who is counted against the per-minute rate: the API key, else the client's network (X-Client-ID
 * is not part of it: rotating a header must not buy more requests).
 */
function rateCallerOf(request: FastifyRequest): string {
  return request.caller.apiKeyId ? request.caller.id : request.caller.network;
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
          401: Problem,
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
      const rate = await jobs.admit(rateCallerOf(request));
      if (rate) {
        reply.header('x-ratelimit-limit', String(rate.limit));
        reply.header('x-ratelimit-remaining', String(rate.remaining));
        reply.header('x-ratelimit-reset', String(rate.reset));
      }
      // Sessions belong to the caller: its API key, or its network fingerprint (network and X-Client-ID).
      return jobs.scrape(request.body, request.caller.id);
    },
  );
}
