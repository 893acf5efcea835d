import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ErrorCode, ErrorCodes } from '../../core/errors/codes.ts';
import { isVigilError } from '../../core/errors/vigilError.ts';
import { Reason } from '../../core/errors/reasons.ts';

const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The RFC 7807 problem document; extension members (errors, checks...) are allowed. */
export const Problem = z
  .looseObject({
    type: z.string().describe('URL of the error type; GET it for its documentation'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().describe('The request path that failed'),
    code: z.string().describe('Stable machine code of the error type'),
    request_id: z.string(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

export interface ProblemPluginOptions {
  /** Base of problem `type` URLs: `<publicUrl>/errors/<code>`. */
  publicUrl: string;
}

declare module 'fastify' {
  interface FastifyReply {
    /** Sends a problem document for a registered error code. */
    problem(code: ErrorCode, detail: string, extensions?: Record<string, unknown>): FastifyReply;
  }
}

/**
 * Every error any Vigil service answers is a problem document: validation (400/422 naming the
 * field), 404 for unknown routes, 405 with Allow for a known path and the wrong method, and 500
 * without internals (logged with the request id).
 */
/** A problem document for `request`, its `type` URL under `publicUrl`. */
export function buildProblem(
  publicUrl: string,
  request: FastifyRequest,
  code: ErrorCode,
  detail: string,
  extensions: Record<string, unknown> = {},
): Problem {
  return {
    // Extension members never override the standard ones.
    ...extensions,
    type: `${publicUrl.replace(/\/+$/, '')}/errors/${code}`,
    title: ErrorCodes[code].title,
    status: ErrorCodes[code].status,
    detail,
    instance: request.url.split('?')[0] ?? request.url,
    code,
    request_id: request.id,
  };
}

/** Sends a problem document (also from where the reply has no decorators: the router's errors). */
export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).serializer(JSON.stringify).send(problem);
}

export const problemPlugin = fp<ProblemPluginOptions>(
  (app, options) => {
    const build = (
      request: FastifyRequest,
      code: ErrorCode,
      detail: string,
      extensions: Record<string, unknown> = {},
    ): Problem => buildProblem(options.publicUrl, request, code, detail, extensions);
    const send = sendProblem;

    app.decorateReply(
      'problem',
      function (this: FastifyReply, code: ErrorCode, detail: string, extensions?: Record<string, unknown>) {
        return send(this, build(this.request, code, detail, extensions));
      },
    );

    // A mirror of the routing table, to tell "no such path" (404) from "wrong method" (405).
    const routes = FindMyWay({ ignoreTrailingSlash: true });
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        try {
          routes.on(method as HTTPMethod, route.url, () => undefined, { pattern: route.url });
        } catch {
          // The same method and path registered twice (HEAD twins); one entry is enough.
        }
      }
    });

    const unrouted = (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      // A path can match one method's static route and another's parametric one
      // (/x402-tools/discovery: GET, and POST /x402-tools/:tool_name): the resource is the most
      // specific pattern, and Allow lists the methods of that one, as its document does.
      const matches = (['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).flatMap(
        (method) => {
          const found = routes.find(method, path);
          const pattern = (found?.store as { pattern?: string } | null | undefined)?.pattern;
          return found && pattern !== undefined ? [{ method, pattern }] : [];
        },
      );
      const specificity = (pattern: string) => (pattern.match(/[:*]/g) ?? []).length;
      const best = Math.min(...matches.map((match) => specificity(match.pattern)));
      const allowed = matches
        .filter((match) => specificity(match.pattern) === best)
        .map((match) => match.method);
      if (allowed.length > 0) {
        return send(
          reply.header('allow', allowed.join(', ')),
          build(
            request,
            Reason.methodNotAllowed,
            `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`,
            { allow: allowed },
          ),
        );
      }
      return send(reply, build(request, Reason.notFound, `No route answers ${request.method} ${path}.`));
    };
    app.setNotFoundHandler(unrouted);
    // Answered before the body is read: a method no route declares (QUERY, say) is a 404 or 405,
    // not a complaint about the body it did or did not send.
    app.addHook('onRequest', async (request, reply) => {
      if (request.is404) return unrouted(request, reply);
    });

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (isVigilError(error)) {
        // A dependency's failure behind a 5xx is the operator's to see (the client gets the problem).
        if (ErrorCodes[error.code].status >= 500 && error.cause !== undefined)
          request.log.warn({ err: error.cause, code: error.code }, 'request failed on a dependency');
        for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
        return send(reply, build(request, error.code, error.message, error.extensions));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const where = error.validationContext ?? 'body';
        const errors = error.validation.map((issue) => ({
          loc: [where, ...issue.instancePath.split('/').filter(Boolean)],
          msg: issue.message ?? 'invalid',
          type: issue.keyword,
        }));
        const fields = errors.map((entry) => entry.loc.join('.')).join(', ');
        const code: ErrorCode = where === 'body' ? Reason.validationFailed : Reason.badRequest;
        return send(
          reply,
          build(request, code, `Invalid ${fields}: ${errors.map((entry) => entry.msg).join('; ')}`, {
            errors,
          }),
        );
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response did not match its schema');
        return send(
          reply,
          build(request, Reason.internalError, 'The server could not produce a valid answer.'),
        );
      }
      const status = error.statusCode ?? 500;
      if (status === 413)
        return send(reply, build(request, Reason.payloadTooLarge, 'The request body is too large.'));
      if (status === 415)
        return send(
          reply,
          build(
            request,
            Reason.unsupportedMediaType,
            `Unsupported Content-Type: ${request.headers['content-type'] ?? 'none'}.`,
          ),
        );
      if (status === 404) return send(reply, build(request, Reason.notFound, 'Not found.'));
      if (status >= 400 && status < 500) {
        // Fastify's own client errors (malformed JSON, empty body with a JSON content type...).
        return send(reply, build(request, Reason.badRequest, error.message));
      }
      request.log.error({ err: error }, 'unhandled error');
      return send(reply, build(request, Reason.internalError, 'An unexpected error occurred.'));
    });
  },
  { name: 'vigil-problem', fastify: '5.x' },
);
