/**
 * The escalation chain, cheapest first. A tier is tried only when the cheaper ones were blocked
 * (or the domain's remembered strategy, or the request's shape, says to start higher).
 */
export const Tier = {
  /** Plain HTTP with Vigil's own user agent. */
  http: 'http',
  /** HTTP with a desktop Chrome header set (user agent, client hints, sec-fetch, order). */
  httpFingerprint: 'http_fingerprint',
  /** Headless Chromium, one pooled browser, a fresh context per job. */
  browser: 'browser',
  /** Chromium hardened against headless detection, waiting out challenge pages. */
  browserStealth: 'browser_stealth',
  /** The hardened browser through a configured upstream proxy (another IP). */
  browserProxy: 'browser_proxy',
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

export const TIER_ORDER: readonly Tier[] = [
  Tier.http,
  Tier.httpFingerprint,
  Tier.browser,
  Tier.browserStealth,
  Tier.browserProxy,
];

export const TIER_VALUES = TIER_ORDER as [Tier, ...Tier[]];

export function tierIndex(tier: Tier): number {
  return TIER_ORDER.indexOf(tier);
}

export function isBrowserTier(tier: Tier): boolean {
  return tierIndex(tier) >= tierIndex(Tier.browser);
}
