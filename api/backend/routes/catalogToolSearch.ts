import { z } from 'zod';
import { queryInt } from '../../plugins/query.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { RetrievalClient } from '../retrievalClient.ts';

const CatalogSearch = z
  .object({
    query: z.string().trim().min(1).max(500).describe('What you want to do, in your own words'),
    top_k: z.number().int().min(1).max(20).default(5),
  })
  .strict()
  .meta({ id: 'CatalogRagSearch' });

const CatalogSearchAnswer = z
  .object({ query: z.string(), tools: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: 'CatalogRagSearchResult' });

/**
 * The catalog's RAG search: tools matching a question, best first, with their input schemas,
 * chains and prices (the retrieval service embeds the catalog at start). Free, like the other
 * catalog routes; the same search is the paid `query_catalog` tool for agents.
 */
export function catalogToolSearchRoutes(app: VigilApp, retrieval: RetrievalClient): void {
  app.post(
    '/api/v1/catalog/tools/search',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Natural-language search over the tool catalog (RAG)',
        body: CatalogSearch,
        response: { 200: CatalogSearchAnswer, 422: Problem, 503: Problem },
      },
    },
    async (request) => {
      const { tools } = await retrieval.searchCatalog(request.body.query, request.body.top_k);
      return { query: request.body.query, tools: tools as Record<string, unknown>[] };
    },
  );
  app.get(
    '/api/v1/catalog/tools/search',
    {
      schema: {
        tags: ['catalog'],
        summary: 'The same search as a GET (`?q=...&top_k=5`)',
        querystring: z
          .object({
            q: z.string().trim().min(1).max(500),
            top_k: queryInt(1, 20).default(5),
          })
          .strict(),
        response: { 200: CatalogSearchAnswer, 400: Problem, 503: Problem },
      },
    },
    async (request) => {
      const { tools } = await retrieval.searchCatalog(request.query.q, request.query.top_k);
      return { query: request.query.q, tools: tools as Record<string, unknown>[] };
    },
  );
}
