import ipaddr from 'ipaddr.js';
import { OptionalEnv } from '../../core/config/env.ts';

export const ApiKeyRole = { free: 'free', pro: 'pro', operator: 'operator' } as const;
export type ApiKeyRole = (typeof ApiKeyRole)[keyof typeof ApiKeyRole];

export interface ApiKeyEntry {
  id: string;
  role: ApiKeyRole;
  key: string;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const KEY = /^[A-Za-z0-9_-]{16,256}$/;

/**
 * `API_KEYS=id:free|pro|operator:key,...`: the keys a deployment recognises. An operator key has
 * Pro limits and may act on any caller's jobs (cancel a scan it did not start).
 */
export const ApiKeysEnv = OptionalEnv.transform((value, context) => {
  const keys: ApiKeyEntry[] = [];
  for (const entry of (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [id = '', role = '', key = '', ...rest] = entry.split(':');
    if (!KEY_ID.test(id) || !Object.hasOwn(ApiKeyRole, role) || !KEY.test(key) || rest.length > 0) {
      context.addIssue({
        code: 'custom',
        // The entry itself is never echoed: it carries a secret.
        message: 'each entry must be id:free|pro|operator:key with a key of 16+ of A-Z a-z 0-9 _ -',
      });
      return [];
    }
    keys.push({ id, role: role as ApiKeyRole, key });
  }
  if (new Set(keys.map((entry) => entry.id)).size !== keys.length)
    context.addIssue({ code: 'custom', message: 'API key ids must be unique' });
  return keys;
});

/** `SCRAPER_API_KEYS=id:key,...`: callers of the scraper service; set = every scrape needs one. */
export const ServiceKeysEnv = OptionalEnv.transform((value, context) => {
  const keys: ApiKeyEntry[] = [];
  for (const entry of (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [id = '', key = '', ...rest] = entry.split(':');
    if (!KEY_ID.test(id) || !KEY.test(key) || rest.length > 0) {
      context.addIssue({
        code: 'custom',
        message: 'each entry must be id:key with a key of 16+ of A-Z a-z 0-9 _ -',
      });
      return [];
    }
    keys.push({ id, role: ApiKeyRole.free, key });
  }
  return keys;
});

/** What Fastify's `trustProxy` takes: off, every hop, a hop count, or the proxies' addresses. */
export type TrustProxy = boolean | number | string[];

/**
 * TRUST_PROXY: which X-Forwarded-For hops name the client. Unset or 0: none (the socket's peer is
 * the client, and a forwarded header changes nothing); a number: that many proxies in front;
 * addresses or CIDR ranges: the load balancers to believe; `true`: every hop (only when nothing
 * but the proxy can reach the service).
 */
export const TrustProxyEnv = OptionalEnv.transform((value, context): TrustProxy => {
  const text = (value ?? '').trim();
  if (text === '' || text === '0' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) {
      context.addIssue({
        code: 'custom',
        message: `${entry.slice(0, 64)} is not an address or CIDR range (or use a hop count)`,
      });
      return false;
    }
  }
  return entries;
});
