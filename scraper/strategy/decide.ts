import { type Tier, Tier as Tiers, TIER_ORDER, tierIndex } from '../../core/scrape/tiers.ts';
import type { StrategyRecord } from './record.ts';

export interface DecideOptions {
  /** The remembered tier steps down one tier per this much time without a success there. */
  decayMs: number;
  /** Share of requests that start one tier below the remembered one, to notice a domain heal. */
  recheckRatio: number;
  /** A tier blocked within this window is not re-checked. */
  blockMemoryMs: number;
  proxyConfigured: boolean;
  /** wait_for or screenshot: the page must be rendered. */
  needsBrowser: boolean;
}

export interface StartDecision {
  start: Tier;
  /** default | learned | decayed | recheck, with `+forced_browser` when the request raised it. */
  reason: string;
  /** Where the domain alone would start (what the strategy route shows). */
  learnedStart: Tier;
}

/**
 * Where the escalation chain starts for a domain: the tier that last worked, stepping down one
 * tier per `decayMs` since it last worked (stale decisions heal on their own), and with
 * probability `recheckRatio` one tier lower still, unless that tier was blocked recently.
 */
export function decideStart(
  record: StrategyRecord | null,
  now: number,
  random: number,
  options: DecideOptions,
): StartDecision {
  let index = 0;
  let reason = 'default';
  if (record?.preferred && record.preferred_at !== null) {
    const steps = Math.floor(Math.max(0, now - record.preferred_at) / options.decayMs);
    index = Math.max(0, tierIndex(record.preferred) - steps);
    reason = steps > 0 && index < tierIndex(record.preferred) ? 'decayed' : 'learned';
  }
  const cap = tierIndex(options.proxyConfigured ? Tiers.browserProxy : Tiers.browserStealth);
  index = Math.min(index, cap);
  const learnedStart = TIER_ORDER[index] ?? Tiers.http;
  if (index > 0 && random < options.recheckRatio) {
    const cheaper = TIER_ORDER[index - 1] ?? Tiers.http;
    const lastBlocked = record?.tiers[cheaper]?.last_blocked_at ?? null;
    if (lastBlocked === null || now - lastBlocked > options.blockMemoryMs) {
      index -= 1;
      reason = 'recheck';
    }
  }
  if (options.needsBrowser && index < tierIndex(Tiers.browser)) {
    index = tierIndex(Tiers.browser);
    reason = `${reason}+forced_browser`;
  }
  return { start: TIER_ORDER[index] ?? Tiers.http, reason, learnedStart };
}
