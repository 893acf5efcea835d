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
  /** Requests that are metered otherwise (x402-paid calls): identified, not counted. */
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
 * with X-RateLimit-Limit/Remaining/Reset on every counted response and a 429 problem with
 * Retry-After past the cap. API keys name a Free or Pro caller; everyone else is Anonymous,
 * counted by X-Client-ID or, without one, by address.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  (app, options) => {
    const count = luaScript(options.redis, 'rateLimit', 2);
    const keys = options.apiKeys.map((entry) => ({ ...entry, hash: sha256(entry.key) }));
    app.decorateRequest('caller', null as unknown as Caller);

    app.addHook('onRequest', async (request, reply) => {
      request.caller = identify(request, keys);
      const path = request.url.split('?')[0] ?? '/';
      if (!options.enabled || options.exempt.includes(path) || options.isMeteredElsewhere(request)) return;
      const limit = options.limits[request.caller.tier];
      const now = Date.now();
      const minuteWindow = Math.floor(now / 60_000);
      const dayWindow = Math.floor(now / 86_400_000);
      let counts: number[];
      try {
        counts = asNumbers(
          await count(
            [`rl:${request.caller.id}:m:${minuteWindow}`, `rl:${request.caller.id}:d:${dayWindow}`],
            [60_000, 86_400_000, limit.perDay === undefined ? 0 : 1],
          ),
        );
      } catch (error) {
        if (options.failOpen) return;
        throw new VigilError('rate_limit_unavailable', 'Rate limits could not be checked; retry shortly.', {
          headers: { 'retry-after': '5' },
          cause: error,
        });
      }
      const [minute = 0, day = 0] = counts;
      const minuteReset = Math.ceil(((minuteWindow + 1) * 60_000 - now) / 1000);
      const dayReset = Math.ceil(((dayWindow + 1) * 86_400_000 - now) / 1000);
      const minuteLeft = limit.perMinute - minute;
      const dayLeft = limit.perDay === undefined ? Number.POSITIVE_INFINITY : limit.perDay - day;
      // Report the window that binds first.
      const byDay = dayLeft < minuteLeft;
      const shown = {
        limit: byDay ? (limit.perDay ?? 0) : limit.perMinute,
        remaining: Math.max(0, byDay ? dayLeft : minuteLeft),
        reset: byDay ? dayReset : minuteReset,
      };
      reply.header('x-ratelimit-limit', String(shown.limit));
      reply.header('x-ratelimit-remaining', String(shown.remaining));
      reply.header('x-ratelimit-reset', String(shown.reset));
      if (minuteLeft < 0 || dayLeft < 0) {
        const retryAfter = dayLeft < 0 ? dayReset : minuteReset;
        throw new VigilError(
          'rate_limited',
          `The ${request.caller.tier} tier allows ${dayLeft < 0 ? `${limit.perDay} requests a day` : `${limit.perMinute} requests a minute`}.`,
          {
            headers: { 'retry-after': String(retryAfter) },
            extensions: { tier: request.caller.tier, retry_after_s: retryAfter },
          },
        );
      }
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
