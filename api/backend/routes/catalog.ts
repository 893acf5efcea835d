import { z } from 'zod';
import { queryInt } from '../../plugins/query.ts';
import { catalogStats as toolStats } from '../../../core/catalog/index.ts';
import { asProblem } from '../../../chaindata/errors.ts';
import { catalogSearch, catalogStats, tokenEntry, walletEntry } from '../../../chaindata/query/catalog.ts';
import type { Analytics } from '../../../chaindata/analytics/sandbox.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import { ChainAddressParams, DataAnswer } from './dataSchemas.ts';

const PROBLEMS = { 400: Problem, 404: Problem, 422: Problem, 503: Problem };

/** /api/v1/catalog/*: platform data statistics, token and wallet entries built from the index, search. */
export function catalogRoutes(app: VigilApp, engine: () => Promise<Analytics>): void {
  app.get(
    '/api/v1/catalog/stats',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Platform data statistics: indexed chains and rows, labels, tools',
      },
    },
    async () => {
      const stats = await asProblem(async () => catalogStats(await engine()));
      return { ...stats, tools: toolStats(), generated_at: new Date().toISOString() };
    },
  );

  app.get(
    '/api/v1/catalog/tokens/:chain/:address',
    {
      schema: {
        tags: ['catalog'],
        summary: 'A token: first seen, deployer, pools, holders count, last activity, labels',
        params: ChainAddressParams,
        response: { 200: DataAnswer, ...PROBLEMS },
      },
    },
    async (request) => {
      const entry = await asProblem(async () =>
        tokenEntry(await engine(), request.params.chain, request.params.address),
      );
      return entry === null ? empty() : { data: entry, sources: ['index'] };
    },
  );

  app.get(
    '/api/v1/catalog/wallets/:chain/:address',
    {
      schema: {
        tags: ['catalog'],
        summary:
          'A wallet: first seen, last activity, who funded it (with that funder’s labels), what it deployed',
        params: ChainAddressParams,
        response: { 200: DataAnswer, ...PROBLEMS },
      },
    },
    async (request) => {
      const entry = await asProblem(async () =>
        walletEntry(await engine(), request.params.chain, request.params.address),
      );
      return entry === null ? empty() : { data: entry, sources: ['index'] };
    },
  );

  app.get(
    '/api/v1/catalog/search',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Search tokens, wallets, pools and labels by address or name',
        querystring: z.object({
          q: z.string().min(2).max(128),
          limit: queryInt(1, 100).default(20),
        }),
        response: { 200: DataAnswer, ...PROBLEMS },
      },
    },
    async (request) => {
      const found = await asProblem(async () =>
        catalogSearch(await engine(), request.query.q, request.query.limit),
      );
      return found.count === 0 ? empty(['index', 'labels']) : { data: found, sources: ['index', 'labels'] };
    },
  );
}

function empty(sources = ['index']) {
  return { data: null, reason: 'no_data' as const, sources_tried: sources };
}
