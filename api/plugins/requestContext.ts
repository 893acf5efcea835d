import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request ids: a caller's X-Request-ID is echoed when it is a safe token (it reaches logs, so
 * anything else is replaced), otherwise a UUID is generated. Pass to Fastify as `genReqId`.
 */
export function genRequestId(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  const value = Array.isArray(sent) ? sent[0] : sent;
  return value && SAFE_REQUEST_ID.test(value) ? value : randomUUID();
}

/** Every response carries X-Request-ID and X-Response-Time-Ms (server processing time). */
export const requestContextPlugin = fp(
  (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('x-response-time-ms', reply.elapsedTime.toFixed(1));
      done(null, payload);
    });
  },
  { name: 'vigil-request-context', fastify: '5.x' },
);
