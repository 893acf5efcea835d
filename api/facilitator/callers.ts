import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { VigilError } from '../../core/errors/vigilError.ts';
import { asNumbers, luaScript } from '../../core/stores/lua/luaScript.ts';

export interface CallerOptions {
  /** Who may ask for verification and settlement, by name, with their secret tokens. */
  callers: readonly { name: string; token: string }[];
  redis: Redis;
  /** Requests per minute per authenticated caller. */
  perMinute: number;
  /** Requests per minute per client address for everything else (and refused authentications). */
  publicPerMinute: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's name; null for anonymous requests (the public routes). */
    facilitatorCaller: string | null;
  }
}

/** The routes that verify or move money: Vigil's backend and payments pool alone may call them. */
const PROTECTED = new Set(['/verify', '/settle', '/refund']);

/**
 * The facilitator serves Vigil alone: /verify, /settle and /refund need a caller's shared secret
 * (`Authorization: Bearer <token>`, compared in constant time by hash), everyone is rate-limited
 * in Redis (per caller, or per client address for the public routes and refused tokens), and
 * when Redis cannot count, the protected routes refuse rather than go unmetered.
 */
export const callerPlugin = fp<CallerOptions>(
  (app, options) => {
    const count = luaScript(options.redis, 'rateLimit', 'variadic');
    const tokens = options.callers.map((caller) => ({ name: caller.name, hash: sha256(caller.token) }));
    app.decorateRequest('facilitatorCaller', null);

    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      const guarded = PROTECTED.has(path);
      const caller = callerOf(request.headers.authorization, tokens);
      request.facilitatorCaller = caller;
      const limit = caller ? options.perMinute : options.publicPerMinute;
      const minute = Math.floor(Date.now() / 60_000);
      const who = caller ? `caller:${caller}` : `ip:${request.ip}`;
      let used: number;
      try {
        [used = 0] = asNumbers(await count([`fac:rl:${who}:${minute}`], [60_000]));
      } catch (error) {
        if (!guarded) return;
        throw new VigilError('rate_limit_unavailable', 'Requests could not be counted; retry shortly.', {
          headers: { 'retry-after': '5' },
          cause: error,
        });
      }
      reply.header('x-ratelimit-limit', String(limit));
      reply.header('x-ratelimit-remaining', String(Math.max(0, limit - used)));
      if (used > limit) {
        const retryAfter = Math.ceil(((minute + 1) * 60_000 - Date.now()) / 1000);
        throw new VigilError('rate_limited', `At most ${limit} requests a minute.`, {
          headers: { 'retry-after': String(retryAfter) },
          extensions: { scope: caller ? 'caller' : 'address', retry_after_s: retryAfter },
        });
      }
      if (guarded && !caller)
        throw new VigilError(
          'unauthorized',
          'This facilitator serves its own deployment only: send Authorization: Bearer <caller token>.',
        );
    });
  },
  { name: 'vigil-facilitator-callers', fastify: '5.x' },
);

function callerOf(
  header: string | undefined,
  tokens: readonly { name: string; hash: Buffer }[],
): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const hash = sha256(match[1]);
  // Every entry is compared, so the time taken says nothing about which one matched.
  let found: string | null = null;
  for (const entry of tokens) if (timingSafeEqual(entry.hash, hash)) found = entry.name;
  return found;
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
