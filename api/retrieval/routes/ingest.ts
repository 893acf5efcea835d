import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { documentTypeOf } from '../../../retrieval/ingest/document.ts';
import { Problem } from '../../plugins/problem.ts';
import { bodyReadByHandler, type VigilApp } from '../../plugins/service.ts';
import type { IngestJobs, IngestOrder } from '../ingestJobs.ts';
import { IngestJob, IngestQuery, IngestRequest } from '../schemas.ts';

const RAW_TYPES = ['text/markdown', 'text/x-markdown', 'text/html', 'application/xhtml+xml'];

/** Parses with a schema and answers 422 naming each failing field, like route validation does. */
function parseOr422<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'querystring',
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    loc: [where, ...issue.path.map(String)],
    msg: issue.message,
    type: issue.code,
  }));
  throw new VigilError(
    where === 'body' ? 'validation_failed' : 'bad_request',
    `Invalid ${errors.map((entry) => entry.loc.join('.')).join(', ')}: ${errors.map((entry) => entry.msg).join('; ')}`,
    { extensions: { errors } },
  );
}

/** A raw document sent without ?doc_id= is named by its content: the same text is the same document. */
function contentDocId(body: string): string {
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

/** The document and its metadata, from a JSON body or from a raw document body with query parameters. */
function orderOf(request: FastifyRequest): IngestOrder {
  const type = documentTypeOf(request.headers['content-type']);
  if (typeof request.body === 'string' && type) {
    const query = parseOr422(IngestQuery, request.query, 'querystring');
    const docId = query.doc_id ?? contentDocId(request.body);
    return {
      docId,
      path: query.source ?? docId,
      ecosystem: query.ecosystem,
      category: query.category,
      document: { kind: 'content', body: request.body, type },
    };
  }
  const body = parseOr422(IngestRequest, request.body ?? {}, 'body');
  return {
    docId: body.doc_id,
    path: body.source ?? body.doc_id,
    ecosystem: body.ecosystem,
    category: body.category,
    document:
      body.url !== undefined
        ? { kind: 'url', url: body.url }
        : { kind: 'content', body: body.content ?? '', type: body.content_type },
  };
}

export function ingestRoutes(app: VigilApp, jobs: IngestJobs, maxDocumentBytes: number): void {
  // Documents come as they are written, read as text up to the document limit.
  app.addContentTypeParser(
    RAW_TYPES,
    { parseAs: 'string', bodyLimit: maxDocumentBytes },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/v1/ingest',
    {
      bodyLimit: maxDocumentBytes,
      // The body is JSON (IngestRequest) or the document itself: orderOf reads either, naming
      // the failing field; the route's own validator would refuse every raw document.
      validatorCompiler: bodyReadByHandler,
      schema: {
        tags: ['retrieval'],
        summary: 'Ingest a document (asynchronous)',
        description:
          'Either JSON (`IngestRequest`: the document in `content` with its `content_type`, or a `url` fetched ' +
          'through the scraper service), or the document itself as the body (`text/plain`, `text/markdown`, ' +
          '`text/html`) with `doc_id`, `source`, `ecosystem` and `category` as query parameters. Answers 202 with ' +
          'the job: an ingestDocument workflow that fetches, cleans, chunks on structure, embeds and swaps the ' +
          "document's chunks atomically. The same document id and content again is idempotent.",
        querystring: IngestQuery.partial(),
        body: IngestRequest,
        response: { 202: IngestJob, 400: Problem, 413: Problem, 415: Problem, 422: Problem, 503: Problem },
      },
    },
    async (request, reply) => {
      const job = await jobs.start(orderOf(request));
      reply.code(202).header('location', job.status_url);
      return job;
    },
  );

  app.get(
    '/v1/ingest/:job_id',
    {
      schema: {
        tags: ['retrieval'],
        summary: 'Status of an ingest job: stage, progress, counts, outcome or error',
        params: IngestJob.pick({ job_id: true }),
        response: { 200: IngestJob, 404: Problem, 503: Problem },
      },
    },
    (request) => jobs.get(request.params.job_id),
  );
}
