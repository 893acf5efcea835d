import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { STATUS_CODES } from 'node:http';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import { errorDocRoutes } from './errorDocs.ts';
import { Problem } from './problem.ts';
import type { VigilApp } from './service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a request without a body as an empty one (documented as optional). */
    bodyOptional?: boolean;
    /**
     * What a status's body is on the wire when it is not JSON (a stream, a file): documented as
     * those media types, each a string (`binary` ones as bytes).
     */
    produces?: Record<number, readonly MediaType[]>;
    /**
     * What the document says of the route's parameters or body instead of its validators: the
     * part of the accepted input this deployment serves (its configured chains, each with its
     * address format). It must accept nothing the validator refuses; what the validator accepts
     * beyond it is answered with a problem that says why (`chain_unavailable`, `invalid_address`).
     */
    documented?: { params?: z.ZodType; body?: z.ZodType };
  }
}

/**
 * A body a route sends as is: its media type, and its schema (a string by default; bytes when
 * `binary`; for `text/event-stream`, the schema of each event: `{event, data, id?}`).
 */
interface MediaType {
  type: string;
  binary?: boolean;
  schema?: Record<string, unknown>;
}

/** The API contract's version string (the OpenAPI document's info.version). */
export const API_VERSION = '2026.06.21';

export interface OpenApiOptions {
  title: string;
  description: string;
  publicUrl: string;
  /** Where the interactive page is served. */
  docsPath?: string;
  /** Authentication schemes routes may name in their `security`. */
  securitySchemes?: Record<string, Record<string, unknown>>;
  /** Paths the service's rate limit does not count; every other operation may answer 429. */
  rateLimitExempt?: readonly string[];
}

/**
 * A service's documentation: OpenAPI 3.1 generated from the route schemas (register before the
 * routes), served as JSON at /openapi.json and as an interactive page, and the page of every
 * problem type (GET /errors/{code}), so each problem's `type` URL resolves on every service.
 */
export async function registerOpenApi(app: VigilApp, options: OpenApiOptions): Promise<void> {
  const transform = createJsonSchemaTransform({ skipList: ['/openapi.json'] });
  // Operations that take their body or none (`config.bodyOptional`), as `method path`.
  const bodyOptional = new Set<string>();
  // Operations' non-JSON bodies (`config.produces`), by `method path`.
  const produces = new Map<string, Record<number, readonly MediaType[]>>();
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: API_VERSION },
      servers: [{ url: options.publicUrl }],
      ...(options.securitySchemes
        ? { components: { securitySchemes: options.securitySchemes as never } }
        : {}),
    },
    transform: (input) => {
      const config = input.route.config;
      for (const method of [input.route.method].flat()) {
        const key = `${method.toLowerCase()} ${input.url.replace(/:(\w+)/g, '{$1}')}`;
        if (config?.bodyOptional) bodyOptional.add(key);
        if (config?.produces) produces.set(key, config.produces);
      }
      return transform(
        config?.documented ? { ...input, schema: { ...input.schema, ...config.documented } } : input,
      );
    },
    transformObject: (document) =>
      withCommonProblems(
        jsonSchemaTransformObject(document) as OpenAPIV3_1.Document,
        options.rateLimitExempt,
        bodyOptional,
        produces,
      ) as ReturnType<typeof jsonSchemaTransformObject>,
  });
  await app.register(fastifySwaggerUi, { routePrefix: options.docsPath ?? '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  errorDocRoutes(app);
}

const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The statuses the service factory itself answers, documented on every operation they can reach,
 * and every error documented as what it is on the wire (application/problem+json):
 * - 400: a parameter, query or body that fails its schema, malformed JSON, a path parameter past
 *   the router's length (operations with any input);
 * - 413 (body too large), 415 (another content type) and 422 (a body that fails its schema), on
 *   operations with a body;
 * - 429 on every operation the rate limit counts (when the service has one);
 * - 500 on every operation (an unexpected failure, without internals), and 503 (a store or engine
 *   unavailable, or the service shutting down).
 * A route's own declaration of a status wins; the factory's only fills the gaps.
 */
function withCommonProblems(
  document: OpenAPIV3_1.Document,
  rateLimitExempt: readonly string[] | undefined,
  bodyOptional: ReadonlySet<string> = new Set(),
  produces: ReadonlyMap<string, Record<number, readonly MediaType[]>> = new Map(),
): OpenAPIV3_1.Document {
  const problem = { $ref: '#/components/schemas/Problem' };
  const schemas = ((document.components ??= {}).schemas ??= {});
  schemas['Problem'] ??= z.toJSONSchema(Problem, { io: 'output' }) as OpenAPIV3_1.SchemaObject;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      if (operation.requestBody && bodyOptional.has(`${method} ${path}`))
        (operation.requestBody as OpenAPIV3_1.RequestBodyObject).required = false;
      const responses = (operation.responses ??= {}) as Record<string, OpenAPIV3_1.ResponseObject>;
      for (const [status, types] of Object.entries(produces.get(`${method} ${path}`) ?? {})) {
        const response = (responses[status] ??= { description: STATUS_CODES[Number(status)] ?? 'OK' });
        if (response.description === 'Default Response')
          response.description = STATUS_CODES[Number(status)] ?? response.description;
        response.content = Object.fromEntries(
          types.map((media) => [
            media.type,
            {
              schema:
                media.schema ?? (media.binary ? { type: 'string', format: 'binary' } : { type: 'string' }),
            },
          ]),
        );
      }
      const hasInput = (operation.parameters ?? []).length > 0 || operation.requestBody !== undefined;
      const common: number[] = [500, 503];
      if (hasInput) common.push(400);
      if (operation.requestBody) common.push(413, 415, 422);
      if (rateLimitExempt && !rateLimitExempt.includes(path)) common.push(429);
      for (const status of common)
        responses[String(status)] ??= { description: STATUS_CODES[status] ?? 'Error' };
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400 || '$ref' in response) continue;
        const json = response.content?.['application/json'];
        const { ['application/json']: _json, ...others } = response.content ?? {};
        const isProblem = (json?.schema as { $ref?: string } | undefined)?.$ref === problem.$ref;
        // A route's own error body (an x402 answer, say) stays JSON; where the factory also
        // answers that status, its problem document is documented beside it.
        response.content =
          json && !isProblem
            ? {
                ...response.content,
                ...(common.includes(Number(status)) ? { [PROBLEM_CONTENT_TYPE]: { schema: problem } } : {}),
              }
            : { ...others, [PROBLEM_CONTENT_TYPE]: json ?? { schema: problem } };
        if (response.description === 'Default Response')
          response.description = STATUS_CODES[Number(status)] ?? response.description;
      }
    }
  }
  return document;
}
