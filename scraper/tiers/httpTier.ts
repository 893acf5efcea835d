import type { Dispatcher } from 'undici';
import { fetchPage } from '../http/fetchPage.ts';
import { cookiesFromJar, jarFromCookies, type StoredCookie } from '../sessions/cookies.ts';
import type { EgressGuard } from '../ssrf/guard.ts';
import type { Fetched } from './types.ts';

export interface HttpTierInput {
  url: string;
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  guard: EgressGuard;
  cookies: readonly StoredCookie[];
  signal: AbortSignal;
  maxBytes: number;
  maxRedirects: number;
}

/** The HTTP tiers: one guarded GET (redirects re-checked), with the session's cookies. */
export async function httpTier(input: HttpTierInput): Promise<Fetched> {
  // A jar even without a session: cookie walls set a cookie and redirect to themselves.
  const jar = jarFromCookies(input.cookies);
  const page = await fetchPage({
    url: input.url,
    headers: input.headers,
    dispatcher: input.dispatcher,
    guard: input.guard,
    signal: input.signal,
    maxBytes: input.maxBytes,
    maxRedirects: input.maxRedirects,
    jar,
  });
  return {
    status: page.status,
    headers: page.headers,
    contentType: page.contentType,
    body: page.body,
    finalUrl: page.finalUrl,
    cookies: cookiesFromJar(jar),
  };
}
