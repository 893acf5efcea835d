import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import ipaddr from 'ipaddr.js';
import { VigilError } from '../../core/errors/vigilError.ts';
import { type ApiKeyEntry, ApiKeyRole } from './callerConfig.ts';

export const RateTier = { anonymous: 'anonymous', free: 'free', pro: 'pro' } as const;
export type RateTier = (typeof RateTier)[keyof typeof RateTier];

/** Who sent a request, as far as limits, trials and job ownership are concerned. */
export interface Caller {
  tier: RateTier;
  /**
   * Who is counted: `key:<id>` for an API key, else `fp:<hash>` of the network fingerprint (the
   * client's network and its X-Client-ID), so rotating the header alone never makes a new caller
   * on a new network.
   */
  id: string;
  apiKeyId: string | null;
  /** An operator key: may act on any caller's jobs. */
  operator: boolean;
  /** `net:<hash>` of the client's address (IPv6 by its prefix): what one network may spend. */
  network: string;
  /**
   * `site:<hash>` of an IPv6 client's /48, the most one subscriber is commonly given (null for
   * IPv4, or when the network prefix is already that wide): what all its /64s together may spend.
   */
  site: string | null;
  /** The X-Client-ID when it is well formed. */
  clientId: string | null;
}

export interface CallerOptions {
  apiKeys: readonly ApiKeyEntry[];
  /** IPv6 clients are one network per prefix of this length (a /64 is one subscriber's). */
  ipv6Prefix: number;
  /** Every request outside `isOpen` needs a valid X-API-Key (401 otherwise). */
  requireApiKey?: boolean;
  /** Paths that never need a key (probes, documentation). */
  isOpen?: (path: string) => boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
    /** Why the request is refused once it has been counted (an unknown key, a missing one). */
    callerRefusal: string | null;
  }
}

/**
 * The prefix of an IPv6 site, and how many networks' worth of anonymous use it gets. One home or
 * phone is a /64, but one subscriber may hold a /56 or a /48 (65,536 /64s, free from a tunnel
 * broker): counted only per /64, rotating addresses would multiply every cap by as many.
 */
const IPV6_SITE_PREFIX = 48;
export const NETWORKS_PER_SITE = 16;

export const SAFE_CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Identifies every request's caller before anything else runs: a valid X-API-Key names a Free,
 * Pro or operator caller; a key that is not valid is refused (401) rather than treated as
 * anonymous. Everyone else is anonymous, known by the network fingerprint: the client address
 * Fastify derives (TRUST_PROXY decides which X-Forwarded-For hops count) and X-Client-ID.
 */
export const callerPlugin = fp<CallerOptions>(
  (app, options) => {
    const keys = options.apiKeys.map((entry) => ({ ...entry, hash: sha256(entry.key) }));
    app.decorateRequest('caller', null as unknown as Caller);
    app.decorateRequest('callerRefusal', null);
    app.addHook('onRequest', (request, _reply, done) => {
      const { caller, refusal } = identify(request, keys, options.ipv6Prefix);
      request.caller = caller;
      const path = request.url.split('?')[0] ?? '/';
      request.callerRefusal =
        refusal ??
        (options.requireApiKey && !caller.apiKeyId && !options.isOpen?.(path)
          ? 'Send X-API-Key: this service serves known callers only.'
          : null);
      done();
    });
    // Refused only now, after the rate limits (onRequest) have counted the request as anonymous:
    // guessing keys costs a caller its requests like anything else.
    app.addHook('preValidation', (request, _reply, done) => {
      done(request.callerRefusal ? new VigilError('unauthorized', request.callerRefusal) : undefined);
    });
  },
  { name: 'vigil-caller', fastify: '5.x' },
);

function identify(
  request: FastifyRequest,
  keys: readonly (ApiKeyEntry & { hash: Buffer })[],
  ipv6Prefix: number,
): { caller: Caller; refusal?: string } {
  const network = `net:${digest(networkOf(request.ip, ipv6Prefix))}`;
  const site =
    ipv6Prefix > IPV6_SITE_PREFIX && isIpv6Client(request.ip)
      ? `site:${digest(networkOf(request.ip, IPV6_SITE_PREFIX))}`
      : null;
  const sentId = single(request.headers['x-client-id']);
  const clientId = sentId && SAFE_CLIENT_ID.test(sentId) ? sentId : null;
  const apiKey = single(request.headers['x-api-key']);
  if (apiKey !== undefined) {
    const hash = sha256(apiKey);
    // Every entry is compared, so the time taken does not tell how far down the list a key is.
    let match: (ApiKeyEntry & { hash: Buffer }) | undefined;
    for (const entry of keys) if (timingSafeEqual(entry.hash, hash)) match ??= entry;
    if (match)
      return {
        caller: {
          tier: match.role === ApiKeyRole.free ? RateTier.free : RateTier.pro,
          id: `key:${match.id}`,
          apiKeyId: match.id,
          operator: match.role === ApiKeyRole.operator,
          network,
          site,
          clientId,
        },
      };
  }
  const caller: Caller = {
    tier: RateTier.anonymous,
    id: fingerprintOf(network, clientId),
    apiKeyId: null,
    operator: false,
    network,
    site,
    clientId,
  };
  return apiKey === undefined ? { caller } : { caller, refusal: 'This X-API-Key is not valid here.' };
}

/** The id of an anonymous caller: its network and X-Client-ID (none: the network alone). */
export function fingerprintOf(network: string, clientId: string | null): string {
  return `fp:${digest(`${network}\n${clientId ?? ''}`)}`;
}

/**
 * The network an address belongs to: an IPv4 address is itself (IPv4-mapped IPv6 unwrapped);
 * an IPv6 address is its prefix, since one subscriber holds a whole /64 and could otherwise be a
 * new client per address.
 */
function networkOf(address: string, ipv6Prefix: number): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${ipv6Prefix}`).toString()}/${ipv6Prefix}`;
}

function isIpv6Client(address: string): boolean {
  try {
    return ipaddr.process(address).kind() === 'ipv6';
  } catch {
    return false;
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
