import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { VigilError } from '../../core/errors/vigilError.ts';
import { asNumbers, luaScript } from '../../core/stores/lua/luaScript.ts';
import { type Caller, NETWORKS_PER_SITE, RateTier } from './caller.ts';

interface TierLimit {
  perMinute: number;
  perDay: number;
}

export interface RateLimitOptions {
  redis: Redis;
  limits: Record<RateTier, TierLimit>;
  /**
   * How many anonymous clients' worth one network may use: its own minute and day windows are
   * the anonymous caps times this, whatever X-Client-IDs it sends.
   */
  clientsPerNetwork: number;
  enabled: boolean;
  /** When Redis cannot count: let the request through (true) or answer 503 (false, the default). */
  failOpen: boolean;
  /**
   * Routes where an x402 proof meters the call: a request that carries a (non-empty) proof there
   * is held to the caller's payment-attempt windows instead of its request windows, and gets that
   * count back once its payment is accepted.
   */
  isPaymentRoute(request: FastifyRequest): boolean;
  /** Paths never counted (orchestrator probes). */
  exempt: readonly string[];
}

interface Window {
  key: string;
  limit: number;
  lengthMs: number;
  resetS: number;
  /** Which cap a 429 names. */
  label: string;
}

interface Metered {
  windows: Window[];
  /** Counted as a payment attempt (given back when the payment is accepted). */
  payment: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    metered: Metered | null;
  }
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Per-tier request caps in Redis, counted up front (one Lua script counts every window of a
 * request at once), with X-RateLimit-Limit/Remaining/Reset from the window that binds first and
 * a 429 problem with Retry-After past a cap. Anonymous callers are counted per network
 * fingerprint (address and X-Client-ID) and per network, by the minute and by the day; API keys
 * per key. Needs the caller plugin.
 *
 * A request that carries an x402 proof on a payment route is counted as a payment attempt
 * instead, so a payer is never stopped by its request caps; once the payment is accepted (the
 * answer carries PAYMENT-RESPONSE) the attempt is given back, and a proof that was refused or
 * never judged also counts against the caller's request windows. An empty proof header is no
 * proof.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(
  (app, options) => {
    const count = luaScript(options.redis, 'rateLimit', 'variadic');
    const giveBack = luaScript(options.redis, 'rateLimitGiveBack', 'variadic');
    app.decorateRequest('metered', null);

    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (!options.enabled || options.exempt.includes(path)) return;
      const payment = options.isPaymentRoute(request) && carriesProof(request);
      const windows = windowsOf(request.caller, options, Date.now(), payment ? 'pay' : 'req');
      let counts: number[];
      try {
        counts = asNumbers(
          await count(
            windows.map((window) => window.key),
            windows.map((window) => window.lengthMs),
          ),
        );
      } catch (error) {
        if (options.failOpen) return;
        throw new VigilError('rate_limit_unavailable', 'Rate limits could not be checked; retry shortly.', {
          headers: { 'retry-after': '5' },
          cause: error,
        });
      }
      request.metered = { windows, payment };
      const used = windows.map((window, index) => ({ window, count: counts[index * 2] ?? 0 }));
      report(reply, used);
      const over = used.filter(({ window, count }) => count > window.limit);
      if (over.length === 0) return;
      const retryAfter = Math.max(...over.map(({ window }) => window.resetS));
      const first = over.reduce((a, b) => (b.window.resetS > a.window.resetS ? b : a));
      throw new VigilError(
        'rate_limited',
        `${payment ? 'Payment attempts of ' : ''}${first.window.label}; retry after ${retryAfter} s.`,
        {
          headers: { 'retry-after': String(retryAfter) },
          extensions: { tier: request.caller.tier, retry_after_s: retryAfter },
        },
      );
    });

    app.addHook('onResponse', async (request, reply) => {
      const metered = request.metered;
      if (!metered?.payment) return;
      const receipt = acceptedReceipt(reply);
      // A payment is given back once: the same receipt again is a replay of a paid answer, which
      // costs the caller nothing and so counts like any request.
      if (receipt && (await firstSight(options.redis, receipt))) {
        await giveBack(
          metered.windows.map((window) => window.key),
          [],
        ).catch(() => undefined);
        return;
      }
      // Not paid after all: the request counts like any other (it was only held to the
      // payment-attempt caps so far).
      const windows = windowsOf(request.caller, options, Date.now(), 'req');
      await count(
        windows.map((window) => window.key),
        windows.map((window) => window.lengthMs),
      ).catch(() => undefined);
    });
  },
  { name: 'vigil-rate-limit', fastify: '5.x', dependencies: ['vigil-caller'] },
);

function windowsOf(caller: Caller, options: RateLimitOptions, now: number, kind: 'req' | 'pay'): Window[] {
  const limit = options.limits[caller.tier];
  const minute = Math.floor(now / MINUTE_MS);
  const day = Math.floor(now / DAY_MS);
  const minuteReset = Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now) / 1000));
  const dayReset = Math.max(1, Math.ceil(((day + 1) * DAY_MS - now) / 1000));
  const pair = (id: string, factor: number, who: string): Window[] => [
    {
      key: `rl:${kind}:${id}:m:${minute}`,
      limit: limit.perMinute * factor,
      lengthMs: MINUTE_MS,
      resetS: minuteReset,
      label: `${who} allows ${limit.perMinute * factor} requests a minute`,
    },
    {
      key: `rl:${kind}:${id}:d:${day}`,
      limit: limit.perDay * factor,
      lengthMs: DAY_MS,
      resetS: dayReset,
      label: `${who} allows ${limit.perDay * factor} requests a day`,
    },
  ];
  const windows = pair(caller.id, 1, `The ${caller.tier} tier`);
  if (caller.tier === RateTier.anonymous) {
    windows.push(...pair(caller.network, options.clientsPerNetwork, 'One network of anonymous callers'));
    if (caller.site)
      windows.push(
        ...pair(
          caller.site,
          options.clientsPerNetwork * NETWORKS_PER_SITE,
          'One IPv6 site (/48) of anonymous callers',
        ),
      );
  }
  return windows;
}

/** The headers name the window with the least room left (the day's, once it binds first). */
function report(reply: FastifyReply, used: { window: Window; count: number }[]): void {
  const tightest = used.reduce((a, b) => (b.window.limit - b.count < a.window.limit - a.count ? b : a));
  reply.header('x-ratelimit-limit', String(tightest.window.limit));
  reply.header('x-ratelimit-remaining', String(Math.max(0, tightest.window.limit - tightest.count)));
  reply.header('x-ratelimit-reset', String(tightest.window.resetS));
}

/** A proof header with something in it; an empty one is no proof at all. */
function carriesProof(request: FastifyRequest): boolean {
  return ['x-payment', 'payment-signature'].some((name) => {
    const value = request.headers[name];
    return (Array.isArray(value) ? value.join('') : (value ?? '')).trim().length > 0;
  });
}

/** The receipt of an accepted payment: a success that carries PAYMENT-RESPONSE. */
function acceptedReceipt(reply: FastifyReply): string | undefined {
  if (reply.statusCode < 200 || reply.statusCode >= 300) return undefined;
  const header = reply.getHeader('payment-response') ?? reply.getHeader('x-payment-response');
  return header === undefined ? undefined : String(header);
}

/** True the first time a receipt is seen (for a day); false for its replays, or without Redis. */
async function firstSight(redis: Redis, receipt: string): Promise<boolean> {
  const key = `rl:receipt:${createHash('sha256').update(receipt).digest('hex')}`;
  return (await redis.set(key, '1', 'EX', 86_400, 'NX').catch(() => null)) === 'OK';
}
