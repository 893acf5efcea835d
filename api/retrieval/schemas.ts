import { z } from 'zod';
import { oneOfFields } from '../../core/schema/fieldRules.ts';
import { DOCUMENT_TYPES } from '../../retrieval/core/ingest.ts';
import { SearchMode } from '../../retrieval/search/retriever.ts';
import { BytecodeFingerprint } from '../../scanner/fingerprint/bytecodeFingerprint.ts';

/** Ecosystem and category values: short lowercase tags, the only caller strings that reach a filter. */
const Tag = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'lowercase letters, digits and . _ - only, at most 64');

const DocId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/, 'letters, digits and . _ : / @ + - only');

const metadata = {
  doc_id: DocId.describe('Stable id of the document: a new version with the same id replaces the old one'),
  source: DocId.optional().describe('The path hits cite, e.g. docs/x402.md (default: doc_id)'),
  ecosystem: Tag.default('general').describe('e.g. ethereum, solana, vigil'),
  category: Tag.default('docs').describe('e.g. docs, risk, news'),
};

export const IngestRequest = oneOfFields(
  z
    .object({
      ...metadata,
      content: z.string().optional().describe('The document itself (or use url)'),
      content_type: z.enum(DOCUMENT_TYPES).default('text/markdown').describe('How content is written'),
      url: z
        .url({ protocol: /^https?$/ })
        .max(4_096)
        .optional()
        .describe('A public http(s) page, fetched through the scraper service (or use content)'),
    })
    .strict(),
  ['content', 'url'],
  'send exactly one of content and url',
).meta({ id: 'IngestRequest' });
export type IngestRequest = z.infer<typeof IngestRequest>;

/** Metadata of a document sent as the raw body (text/plain, text/markdown, text/html). */
export const IngestQuery = z
  .object({
    ...metadata,
    doc_id: metadata.doc_id
      .optional()
      .describe(
        'Stable id of the document (default: sha256:<hex> of the body, so the same text is the same document)',
      ),
  })
  .strict()
  .meta({ id: 'IngestQuery' });

const IngestStatus = z.enum(['running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out']);

export const IngestJob = z
  .object({
    job_id: z.string().describe('The ingestDocument workflow run (find it in the Temporal UI)'),
    status_url: z.string(),
    doc_id: z.string().nullable(),
    status: IngestStatus,
    stage: z
      .string()
      .nullable()
      .describe('fetching, embedding, committing, done, failed; null when no worker answered'),
    progress: z.object({ chunks_total: z.number().nullable(), chunks_embedded: z.number() }).nullable(),
    outcome: z
      .enum(['indexed', 'unchanged', 'superseded'])
      .nullable()
      .describe(
        'indexed: replaced the previous version; unchanged: already indexed; superseded: a newer version won',
      ),
    version: z.string().nullable().describe('SHA-256 of the document as indexed'),
    chunks: z.number().nullable(),
    error: z.object({ reason: z.string(), message: z.string() }).nullable(),
    created_at: z.string().nullable(),
    closed_at: z.string().nullable(),
  })
  .meta({ id: 'IngestJob' });
export type IngestJob = z.infer<typeof IngestJob>;

const QueryFilters = z
  .object({ ecosystem: Tag.optional(), category: Tag.optional() })
  .strict()
  .meta({ id: 'QueryFilters' });

export const QueryRequest = z
  .object({
    query: z.string().trim().min(1).max(2_000),
    top_k: z.number().int().min(1).max(100).default(10),
    filters: QueryFilters.optional(),
    mode: z
      .enum([SearchMode.hybrid, SearchMode.lexical, SearchMode.vector])
      .default(SearchMode.hybrid)
      .describe('hybrid (default: BM25 and vector fused by reciprocal rank), lexical or vector'),
  })
  .strict()
  .meta({ id: 'RetrievalQuery' });
export type QueryRequest = z.infer<typeof QueryRequest>;

const Hit = z
  .object({
    score: z
      .number()
      .describe('hybrid: reciprocal-rank-fusion score; lexical: BM25; vector: cosine similarity'),
    text: z.string(),
    source: z.string().describe('The document path with the chunk line range, e.g. docs/x402.md#L30-L52'),
    category: z.string(),
    ecosystem: z.string(),
    doc_id: z.string(),
    headings: z.array(z.string()),
  })
  .meta({ id: 'RetrievalHit' });

export const QueryResponse = z
  .object({ hits: z.array(Hit), mode: z.string(), took_ms: z.number() })
  .meta({ id: 'RetrievalResult' });

export const CatalogSearchRequest = z
  .object({ query: z.string().trim().min(1).max(500), top_k: z.number().int().min(1).max(20).default(5) })
  .strict()
  .meta({ id: 'CatalogSearchRequest' });

const CatalogTool = z
  .object({
    score: z.number(),
    name: z.string(),
    title: z.string(),
    description: z.string(),
    method: z.string(),
    path: z.string(),
    price_usd: z.number(),
    tier: z.string(),
    paid: z.boolean(),
    chains: z.array(z.object({ id: z.string(), caip2: z.string().nullable() })),
    input_schema: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'CatalogTool' });

export const CatalogSearchResponse = z
  .object({ tools: z.array(CatalogTool) })
  .meta({ id: 'CatalogSearchResult' });

export const SimilarTokensRequest = z
  .object({
    chain: z.string().min(1).max(64),
    address: z.string().min(1).max(128),
    fingerprint: BytecodeFingerprint,
    top_k: z.number().int().min(1).max(50).default(10),
    cross_chain: z.boolean().default(true),
  })
  .strict()
  .meta({ id: 'SimilarTokensRequest' });

const SimilarToken = z
  .object({
    chain: z.string(),
    address: z.string(),
    similarity: z
      .number()
      .describe('MinHash estimate of the Jaccard similarity of the normalised opcode shingles'),
    selector_overlap: z.number().nullable(),
    identical_code: z.boolean(),
    near_clone: z.boolean(),
    known_verdict: z.object({
      risk_score: z.number().nullable(),
      tier: z.string(),
      flags: z.array(z.string()),
      gates: z.array(z.string()),
      scanned_at: z.string(),
      job_id: z.string(),
      harmful: z.boolean(),
    }),
  })
  .meta({ id: 'SimilarToken' });

export const SimilarTokensResponse = z
  .object({ tokens: z.array(SimilarToken), indexed_tokens: z.number() })
  .meta({ id: 'SimilarTokensResult' });
