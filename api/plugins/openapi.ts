import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorDocRoutes } from './errorDocs.ts';
import type { VigilApp } from './service.ts';

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
}

/**
 * A service's documentation: OpenAPI 3.1 generated from the route schemas (register before the
 * routes), served as JSON at /openapi.json and as an interactive page, and the page of every
 * problem type (GET /errors/{code}), so each problem's `type` URL resolves on every service.
 */
export async function registerOpenApi(app: VigilApp, options: OpenApiOptions): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: API_VERSION },
      servers: [{ url: options.publicUrl }],
      ...(options.securitySchemes
        ? { components: { securitySchemes: options.securitySchemes as never } }
        : {}),
    },
    transform: createJsonSchemaTransform({ skipList: ['/openapi.json'] }),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: options.docsPath ?? '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  errorDocRoutes(app);
}
