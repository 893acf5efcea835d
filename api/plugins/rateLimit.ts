import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { VigilError } from '../../core/errors/vigilError.ts';
import { asNumbers, luaScript } from '../../core/stores/lua/luaScript.ts';

export const RateTier = { anonymous: 'anonymous', free: 'free', pro: 'pro' } as const;
export type RateTier = (typeof RateTier)[keyof typeof RateTier];

export interface TierLimit {
  perMinute: number;
  /** Undefined: no daily cap (anonymous callers are trial-gated instead). */
  perDay?: number;
}

export interface Caller {
  tier: RateTier;
  /** Who is counted: the API key's id, else the client fingerprint, else the address. */
  id: string;
  apiKeyId: string | null;
}

export interface RateLimitOptions {
  redis: Redis;
  limits: Record<RateTier, TierLimit>;
  apiKeys: readonly { id: string; tier: 'free' | 'pro'; key: string }[];
  enabled: boolean;
  /** When Redis cannot count: let the request through (true) or answer 503 (false). */
  failOpen: boolean;
  /** Requests that are metered otherwise (x402-paid calls): not counted unless their payment is refused. */
  isMeteredElsewhere(request: FastifyRequest): boolean;
  /** Paths never counted (orchestrator probes). */
  exempt: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

const SAFE_CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Per-tier request caps in Redis (one Lua script counts the minute and the day windows at once),
 * with X-RateLimit-Limit/Remaining/Reset on every response it governs and a 429 problem with
 * Retry-After past the cap. API keys name a Free or Pro caller; everyone else is Anonymous,
 * counted by X-Client-ID or, without one, by address.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  (app, options) => {
    const count = luaScript(options.redis, 'rateLimit', 2);
    const keys = options.apiKeys.map((entry) => ({ ...entry, hash: sha256(entry.key) }));
    app.decorateRequest('caller', null as unknown as Caller);

    const windows = (now: number) => {
      const minute = Math.floor(now / 60_000);
      const day = Math.floor(now / 86_400_000);
      return {
        minuteReset: Math.ceil(((minute + 1) * 60_000 - now) / 1000),
        dayReset: Math.ceil(((day + 1) * 86_400_000 - now) / 1000),
        keys: (id: string) => [`rl:${id}:m:${minute}`, `rl:${id}:d:${day}`],
        /** Refused payments: what paid calls are held to. */
        refusedKeys: (id: string) => [`rl:${id}:refused:m:${minute}`, `rl:${id}:refused:d:${day}`],
      };
    };

    app.addHook('onRequest', async (request, reply) => {
      request.caller = identify(request, keys);
      const path = request.url.split('?')[0] ?? '/';
      if (!options.enabled || options.exempt.includes(path)) return;
      const limit = options.limits[request.caller.tier];
      const now = Date.now();
      const window = windows(now);
      // A paid call is metered by its payment: it is neither counted nor held to the caps of the
      // caller's other requests, only to the same caps over the payments it had refused (counted
      // below), so proofs that are never accepted cannot flood the facilitator.
      const paid = options.isMeteredElsewhere(request);
      let counts: number[];
      try {
        counts = paid
          ? (await options.redis.mget(...window.refusedKeys(request.caller.id))).map(Number)
          : asNumbers(
              await count(window.keys(request.caller.id), [
                60_000,
                86_400_000,
                limit.perDay === undefined ? 0 : 1,
              ]),
            );
      } catch (error) {
        if (options.failOpen) return;
        throw new VigilError('rate_limit_unavailable', 'Rate limits could not be checked; retry shortly.', {
          headers: { 'retry-after': '5' },
          cause: error,
        });
      }
      const [minute = 0, day = 0] = counts;
      const minuteLeft = limit.perMinute - minute;
      const dayLeft = limit.perDay === undefined ? Number.POSITIVE_INFINITY : limit.perDay - day;
      // Report the window that binds first.
      const byDay = dayLeft < minuteLeft;
      reply.header('x-ratelimit-limit', String(byDay ? (limit.perDay ?? 0) : limit.perMinute));
      reply.header('x-ratelimit-remaining', String(Math.max(0, byDay ? dayLeft : minuteLeft)));
      reply.header('x-ratelimit-reset', String(byDay ? window.dayReset : window.minuteReset));
      const over = paid ? minuteLeft <= 0 || dayLeft <= 0 : minuteLeft < 0 || dayLeft < 0;
      if (over) {
        const overDay = paid ? dayLeft <= 0 : dayLeft < 0;
        const retryAfter = overDay ? window.dayReset : window.minuteReset;
        throw new VigilError(
          'rate_limited',
          `The ${request.caller.tier} tier allows ${overDay ? `${limit.perDay} requests a day` : `${limit.perMinute} requests a minute`}.`,
          {
            headers: { 'retry-after': String(retryAfter) },
            extensions: { tier: request.caller.tier, retry_after_s: retryAfter },
          },
        );
      }
    });

    // A payment that was refused (malformed, invalid, replayed) counts against the caller's paid calls.
    app.addHook('onResponse', async (request, reply) => {
      if (!options.enabled || !request.caller || !options.isMeteredElsewhere(request)) return;
      if (reply.statusCode < 400 || reply.statusCode === 429 || reply.statusCode >= 500) return;
      const limit = options.limits[request.caller.tier];
      await count(windows(Date.now()).refusedKeys(request.caller.id), [
        60_000,
        86_400_000,
        limit.perDay === undefined ? 0 : 1,
      ]).catch(() => undefined);
    });
  },
  { name: 'vigil-rate-limit', fastify: '5.x' },
);

function identify(
  request: FastifyRequest,
  keys: readonly { id: string; tier: 'free' | 'pro'; hash: Buffer }[],
): Caller {
  const sent = request.headers['x-api-key'];
  const apiKey = Array.isArray(sent) ? sent[0] : sent;
  if (apiKey !== undefined) {
    const hash = sha256(apiKey);
    const match = keys.find((entry) => timingSafeEqual(entry.hash, hash));
    if (!match) throw new VigilError('unauthorized', 'This X-API-Key is not valid here.');
    return { tier: match.tier, id: `key:${match.id}`, apiKeyId: match.id };
  }
  const clientId = request.headers['x-client-id'];
  const fingerprint = Array.isArray(clientId) ? clientId[0] : clientId;
  const id = fingerprint && SAFE_CLIENT_ID.test(fingerprint) ? `fp:${fingerprint}` : `ip:${request.ip}`;
  return { tier: RateTier.anonymous, id, apiKeyId: null };
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
