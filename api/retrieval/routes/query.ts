import { VigilError } from '../../../core/errors/vigilError.ts';
import { searchToolCatalog } from '../../../retrieval/catalog/toolCatalog.ts';
import { sourceAnchor } from '../../../retrieval/search/retriever.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { RetrievalDeps } from '../deps.ts';
import {
  CatalogSearchRequest,
  CatalogSearchResponse,
  QueryRequest,
  QueryResponse,
  SimilarTokensRequest,
  SimilarTokensResponse,
} from '../schemas.ts';

/** A store or model failure is the index's, not the caller's: 503 with a retry hint, details logged. */
async function fromIndex<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof VigilError) throw error;
    throw new VigilError('index_unavailable', 'The index could not answer; retry shortly.', {
      headers: { 'retry-after': '5' },
      cause: error,
    });
  }
}

export function queryRoutes(app: VigilApp, deps: RetrievalDeps): void {
  app.post(
    '/v1/query',
    {
      schema: {
        tags: ['retrieval'],
        summary: 'Search the index: hybrid (BM25 + vector, fused), lexical or vector',
        body: QueryRequest,
        response: { 200: QueryResponse, 400: Problem, 422: Problem, 503: Problem },
      },
    },
    async (request) => {
      const started = performance.now();
      const { query, top_k: topK, filters, mode } = request.body;
      const hits = await fromIndex(() =>
        deps.retriever.search({
          query,
          topK,
          mode,
          filters: { ecosystem: filters?.ecosystem, category: filters?.category },
        }),
      );
      return {
        hits: hits.map(({ row, score }) => ({
          score,
          text: row.text,
          source: sourceAnchor(row),
          category: row.category,
          ecosystem: row.ecosystem,
          doc_id: row.doc_id,
          headings: row.headings ? row.headings.split(' > ') : [],
        })),
        mode,
        took_ms: Math.round((performance.now() - started) * 100) / 100,
      };
    },
  );

  app.post(
    '/v1/catalog/search',
    {
      schema: {
        tags: ['retrieval'],
        summary: "Natural-language search over Vigil's tool catalog (the query_catalog tool)",
        body: CatalogSearchRequest,
        response: { 200: CatalogSearchResponse, 422: Problem, 503: Problem },
      },
    },
    async (request) => ({
      tools: await fromIndex(() => searchToolCatalog(deps.retriever, request.body.query, request.body.top_k)),
    }),
  );

  app.post(
    '/v1/tokens/similar',
    {
      schema: {
        tags: ['retrieval'],
        summary:
          'Scanned tokens with similar code (the find_similar_tokens tool), near-clones of harmful ones first',
        body: SimilarTokensRequest,
        response: { 200: SimilarTokensResponse, 422: Problem, 503: Problem },
      },
    },
    async (request) => {
      const { chain, address, fingerprint, top_k: topK, cross_chain: crossChain } = request.body;
      return fromIndex(async () => {
        await deps.fingerprints.refresh();
        const tokens = await deps.tokens.similar({ fingerprint, chain, address, topK, crossChain });
        return { tokens, indexed_tokens: await deps.tokens.count() };
      });
    },
  );
}
