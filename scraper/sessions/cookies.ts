import { Cookie, CookieJar, type SerializedCookieJar } from 'tough-cookie';
import { z } from 'zod';

/**
 * One cookie as a session stores it, shared by the HTTP tiers (tough-cookie) and the browser
 * tiers (Playwright): a leading dot on `domain` means the cookie also applies to subdomains,
 * without one it is host-only (Playwright's convention). `expires` is epoch seconds, -1 for a
 * session cookie. HttpOnly cookies are kept like any other: the jar is server-side.
 */
export const StoredCookie = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string(),
  path: z.string(),
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']),
});
export type StoredCookie = z.infer<typeof StoredCookie>;

const SAME_SITE_TO_TOUGH = { Strict: 'strict', Lax: 'lax', None: 'none' } as const;

export function jarFromCookies(cookies: readonly StoredCookie[]): CookieJar {
  const now = Date.now() / 1000;
  const serialized: SerializedCookieJar = {
    version: 'tough-cookie@6',
    storeType: 'MemoryCookieStore',
    rejectPublicSuffixes: true,
    cookies: cookies
      .filter((cookie) => cookie.expires < 0 || cookie.expires > now)
      .map((cookie) => ({
        key: cookie.name,
        value: cookie.value,
        domain: cookie.domain.replace(/^\./, ''),
        path: cookie.path,
        expires: cookie.expires < 0 ? 'Infinity' : new Date(cookie.expires * 1000).toISOString(),
        hostOnly: !cookie.domain.startsWith('.'),
        httpOnly: cookie.httpOnly,
        secure: cookie.secure,
        sameSite: SAME_SITE_TO_TOUGH[cookie.sameSite],
      })),
  };
  return CookieJar.deserializeSync(serialized);
}

export function cookiesFromJar(jar: CookieJar): StoredCookie[] {
  const serialized = jar.serializeSync();
  return (serialized?.cookies ?? []).map((cookie) => {
    // Max-Age and Expires both end up here (Max-Age counted from the cookie's creation).
    const expiry = Cookie.fromJSON(cookie)?.expiryTime() ?? Number.POSITIVE_INFINITY;
    const sameSite = text(cookie.sameSite, 'lax').toLowerCase();
    return {
      name: text(cookie.key, ''),
      value: text(cookie.value, ''),
      domain: `${cookie.hostOnly === false ? '.' : ''}${text(cookie.domain, '')}`,
      path: text(cookie.path, '/'),
      expires: Number.isFinite(expiry) ? Math.floor(expiry / 1000) : -1,
      httpOnly: cookie.httpOnly === true,
      secure: cookie.secure === true,
      sameSite: sameSite === 'strict' ? 'Strict' : sameSite === 'none' ? 'None' : 'Lax',
    };
  });
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

const identity = (cookie: StoredCookie) => `${cookie.name}\u0000${cookie.domain}\u0000${cookie.path}`;

/**
 * A session's jar after a request: what the request ended with replaces what it started from,
 * and cookies another request added meanwhile are kept (two concurrent requests on one session
 * lose neither's new cookies; the later writer wins on the same cookie).
 */
export function mergeCookies(
  stored: readonly StoredCookie[],
  before: readonly StoredCookie[],
  after: readonly StoredCookie[],
): StoredCookie[] {
  const seenBefore = new Set(before.map(identity));
  const result = new Map<string, StoredCookie>();
  // Cookies someone else set since this request read the jar.
  for (const cookie of stored) if (!seenBefore.has(identity(cookie))) result.set(identity(cookie), cookie);
  for (const cookie of after) result.set(identity(cookie), cookie);
  const now = Date.now() / 1000;
  return [...result.values()].filter((cookie) => cookie.expires < 0 || cookie.expires > now);
}
