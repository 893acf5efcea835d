import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RawServerDefault,
} from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type LoggerOptions, stdSerializers } from 'pino';
import { scrubError } from '../../core/errors/scrubError.ts';
import { metricsPlugin } from './metrics.ts';
import { buildProblem, problemPlugin, sendProblem } from './problem.ts';
import { Reason } from '../../core/errors/reasons.ts';
import type { TrustProxy } from './callerConfig.ts';
import { genRequestId, requestContextPlugin } from './requestContext.ts';
import { currentTracing } from '../../clients/tracing.ts';

export type VigilApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface ServiceOptions {
  /** Base URL the service is reached at; problem type URLs are built from it. */
  publicUrl: string;
  /** The service's name in its metrics (`service` label). */
  service?: string;
  /** pino options, or false for no logging (tests). */
  logger: LoggerOptions | false;
  bodyLimit?: number;
  /** Which X-Forwarded-For hops name the client (Fastify's trustProxy); default none. */
  trustProxy?: TrustProxy;
}

/** The longest path parameter the router matches; schemas cap theirs at this or less. */
const MAX_PARAM_LENGTH = 256;

/** Headers that carry credentials or payment proofs never reach a log line. */
const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-payment"]',
  'req.headers["payment-signature"]',
  'res.headers["set-cookie"]',
];

/** A hop count as Fastify's typings take it: trust the first `hops` proxies in front. */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * A Fastify instance with what every Vigil service shares: zod validation and serialization,
 * request ids and timing headers, problem documents for every error, and Prometheus metrics.
 */
export async function createService(options: ServiceOptions): Promise<VigilApp> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            ...options.logger,
            redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
            // Errors are logged with their URLs redacted (RPC keys live in them) and without the
            // request bodies libraries attach.
            serializers: { err: (error: Error) => stdSerializers.err(scrubError(error)) },
          },
    genReqId: genRequestId,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
    // The router's own refusals (a path parameter past maxParamLength, a malformed URL) are
    // problems like any other bad request, not Fastify's bare 414/400 JSON.
    // (The reply here has no decorators yet: the problem is built and sent directly.)
    frameworkErrors: (error, request, reply) => {
      const detail =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`
          : 'The URL could not be parsed.';
      void sendProblem(reply, buildProblem(options.publicUrl, request, Reason.badRequest, detail));
    },
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  closeConnectionsOnClose(app);
  // Tracing first, so every route and hook registered after it is in the request's span.
  const tracing = currentTracing();
  if (tracing) await app.register(tracing.fastify.plugin());
  await app.register(requestContextPlugin);
  await app.register(problemPlugin, { publicUrl: options.publicUrl });
  await app.register(metricsPlugin, { service: options.service ?? 'vigil' });
  return app;
}

/**
 * Closing waits for requests in flight and closes idle keep-alive connections once, when it
 * starts. Two kinds of connection outlived that and held close() for over a minute (measured): one
 * that has not sent a byte yet (Node counts it as neither idle nor busy, until its headers
 * timeout), and one whose request was in flight (its answer said keep-alive, then it sat idle for
 * the keep-alive timeout). Closing ends the first at once, and answers the second with
 * `connection: close` so it ends with its answer.
 */
function closeConnectionsOnClose(app: VigilApp): void {
  const sockets = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}

/**
 * A route's validator that lets every body through, for routes that document a body schema but
 * read the body themselves (to answer in their own shape, or to take raw documents too).
 */
export const bodyReadByHandler = () => (data: unknown) => ({ value: data });
