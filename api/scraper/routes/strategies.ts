import { z } from 'zod';
import { TIER_ORDER, TIER_VALUES } from '../../../core/scrape/tiers.ts';
import { decideStart } from '../../../scraper/strategy/decide.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { ScraperDeps } from '../deps.ts';

const Params = z.object({
  domain: z
    .string()
    .max(260)
    .regex(
      /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/,
      'a host name, optionally with :port',
    )
    .describe('The host as in the URL, with a port when it is not the default (example.com, 127.0.0.1:8080)'),
});

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

const StrategyView = z
  .object({
    domain: z.string(),
    known: z.boolean().describe('False when nothing is remembered: the chain starts at the plain tier'),
    start_tier: z
      .enum(TIER_VALUES)
      .describe('Where the next request without wait_for or screenshot starts (before re-checks)'),
    start_reason: z.string(),
    preferred_tier: z.enum(TIER_VALUES).nullable().describe('The tier that last worked'),
    preferred_at: z.iso.datetime().nullable(),
    recheck_ratio: z
      .number()
      .describe('Share of requests that try one tier cheaper, so stale decisions heal'),
    decay_seconds: z
      .number()
      .describe('The remembered tier steps down one tier per this many seconds without a success'),
    cooldown_s: z.number().describe('Seconds left of a back-off the target asked for with 429 (0: none)'),
    requests: z.number(),
    updated_at: z.iso.datetime().nullable(),
    tiers: z.array(
      z.object({
        tier: z.enum(TIER_VALUES),
        ok: z.number().describe('Successes, decayed (halving every decay period)'),
        blocked: z.number().describe('Failed attempts, decayed'),
        last_outcome: z.string(),
        last_reason: z.string(),
        last_at: z.iso.datetime().nullable(),
        last_blocked_at: z.iso.datetime().nullable(),
        last_elapsed_ms: z.number(),
      }),
    ),
  })
  .meta({ id: 'StrategyView' });

/** GET /v1/strategies/{domain}: what the scraper remembers about a domain (a debug aid). */
export function strategyRoutes(app: VigilApp, deps: ScraperDeps): void {
  app.get(
    '/v1/strategies/:domain',
    {
      schema: {
        tags: ['scraper'],
        summary: 'Cached strategy decisions for a domain',
        params: Params,
        response: { 200: StrategyView, 400: Problem },
      },
    },
    async (request) => {
      const domain = request.params.domain.toLowerCase();
      const [record, cooldown] = await Promise.all([
        deps.strategies.get(domain),
        deps.domains.coolingDown(domain),
      ]);
      // random = 1: never a re-check, so the route shows the deterministic decision.
      const decision = decideStart(record, Date.now(), 1, {
        decayMs: deps.strategy.decayMs,
        recheckRatio: deps.strategy.recheckRatio,
        blockMemoryMs: 3_600_000,
        proxyConfigured: deps.strategy.proxyConfigured,
        needsBrowser: false,
      });
      return {
        domain,
        known: record !== null,
        start_tier: decision.start,
        start_reason: decision.reason,
        preferred_tier: record?.preferred ?? null,
        preferred_at: iso(record?.preferred_at),
        recheck_ratio: deps.strategy.recheckRatio,
        decay_seconds: deps.strategy.decayMs / 1000,
        cooldown_s: cooldown,
        requests: record?.requests ?? 0,
        updated_at: iso(record?.updated_at),
        tiers: TIER_ORDER.flatMap((tier) => {
          const stats = record?.tiers[tier];
          return stats
            ? [{ tier, ...stats, last_at: iso(stats.last_at), last_blocked_at: iso(stats.last_blocked_at) }]
            : [];
        }),
      };
    },
  );
}
