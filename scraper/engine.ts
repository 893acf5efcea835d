import { availableParallelism } from 'node:os';
import type { Redis } from 'ioredis';
import type { WordLost } from '../clients/jobWords.ts';
import type { Agent } from 'undici';
import {
  AttemptOutcome,
  type ScrapeJobInput,
  type ScrapePlan,
  type TierAttempt,
} from '../core/scrape/outcome.ts';
import { tiersFrom } from '../core/scrape/escalation.ts';
import { isBrowserTier, type Tier, Tier as Tiers } from '../core/scrape/tiers.ts';
import { detectBlock } from './block/detectBlock.ts';
import { BrowserPool, type PoolStats } from './browser/browserPool.ts';
import { resolveChromiumPath } from './browser/launchOptions.ts';
import { proxyUrls, type ScraperEngineEnv } from './config.ts';
import { ConvertPool } from './convert/convertPool.ts';
import { createGuardedAgent } from './http/guardedAgent.ts';
import { browserLikeHeaders, plainHeaders } from './http/headers.ts';
import { PageStore } from './pageStore.ts';
import { DomainLimiter } from './politeness/domainLimiter.ts';
import { RobotsPolicy } from './robots.ts';
import { SessionStore } from './sessions/sessionStore.ts';
import { parseAllowlist, parsePortPolicy } from './ssrf/addressPolicy.ts';
import { EgressGuard, UrlRefusedError } from './ssrf/guard.ts';
import { GuardProxy } from './ssrf/guardProxy.ts';
import { decideStart } from './strategy/decide.ts';
import { StrategyStore } from './strategy/strategyStore.ts';
import { browserTier } from './tiers/browserTier.ts';
import { classifyError } from './tiers/classifyError.ts';
import { httpTier } from './tiers/httpTier.ts';
import type { Fetched } from './tiers/types.ts';

export interface TierJob extends ScrapeJobInput {
  /** This tier's own budget (ms), within the request's deadline. */
  budgetMs: number;
  /**
   * The plan and the attempts before this one: a tier that gets the page tells the waiting
   * request the whole answer at once (PageStore.announce), ahead of the workflow's result.
   */
  announce?: { domain: string; startReason: string; forcedStart: boolean; earlier: TierAttempt[] };
}

/** Challenge pages get this long to clear themselves: a little in the browser tier, more when hardened. */
const CHALLENGE_WAIT_MS = { plain: 5_000, hardened: 12_000 };

/**
 * The scraping engine of one worker process: the egress guard and its proxies, the HTTP agents,
 * the browser pool (launched on first use) and the Redis-backed stores. Activities call it;
 * benchmarks and engine tests call it directly.
 */
export class ScraperEngine {
  readonly env: ScraperEngineEnv;
  readonly guard: EgressGuard;
  readonly sessions: SessionStore;
  readonly strategies: StrategyStore;
  readonly limiter: DomainLimiter;
  readonly pages: PageStore;
  readonly #agents: { plain: Agent; fingerprint: Agent };
  readonly #robots: RobotsPolicy;
  readonly #proxies: string[];
  readonly #convert: ConvertPool;
  #egress: Promise<{ direct: GuardProxy; pool: BrowserPool }> | undefined;
  #pool: BrowserPool | undefined;
  #nextUpstream = 0;

  /** `onWordLost`: told when a scrape's word could not be published (clients/jobWords.ts). */
  constructor(redis: Redis, env: ScraperEngineEnv, onWordLost?: WordLost) {
    this.env = env;
    this.guard = new EgressGuard({
      allow: parseAllowlist(env.SCRAPER_ALLOWLIST),
      ports: parsePortPolicy(env.SCRAPER_ALLOWED_PORTS),
    });
    this.#agents = {
      plain: createGuardedAgent(this.guard),
      fingerprint: createGuardedAgent(this.guard, { allowH2: true }),
    };
    this.sessions = new SessionStore(redis, env.SCRAPER_SESSION_TTL_SECONDS);
    this.strategies = new StrategyStore(redis, {
      ttlSeconds: env.SCRAPER_STRATEGY_TTL_SECONDS,
      halfLifeMs: env.SCRAPER_STRATEGY_DECAY_SECONDS * 1000,
    });
    this.limiter = new DomainLimiter(redis, {
      maxInFlight: env.SCRAPER_DOMAIN_CONCURRENCY,
      perSecond: env.SCRAPER_DOMAIN_RATE_PER_SECOND,
      burst: env.SCRAPER_DOMAIN_BURST,
      maxWaitMs: env.SCRAPER_DOMAIN_MAX_WAIT_MS,
    });
    this.pages = new PageStore(redis, env.SCRAPER_PAGE_TTL_SECONDS, onWordLost);
    this.#robots = new RobotsPolicy({ redis, guard: this.guard, dispatcher: this.#agents.plain });
    this.#proxies = proxyUrls(env);
    this.#convert = new ConvertPool(env.SCRAPER_CONVERT_THREADS ?? Math.min(4, availableParallelism()));
  }

  get proxyConfigured(): boolean {
    return this.#proxies.length > 0;
  }

  /** Where the chain starts, or why it does not run at all. */
  async plan(job: ScrapeJobInput, signal: AbortSignal, random = Math.random()): Promise<ScrapePlan> {
    let url: URL;
    try {
      url = (await this.guard.checkTarget(job.url)).url;
    } catch (error) {
      const kind = error instanceof UrlRefusedError ? 'refused' : 'failed';
      const reason = error instanceof UrlRefusedError ? error.message : 'invalid URL';
      return {
        domain: safeHost(job.url),
        tiers: [],
        startReason: 'none',
        stop: { kind, reason: kind === 'refused' ? `refused: ${reason}` : reason },
      };
    }
    const domain = url.host.toLowerCase();
    const cooling = await this.limiter.coolingDown(domain);
    if (cooling > 0) {
      return {
        domain,
        tiers: [],
        startReason: 'none',
        stop: { kind: 'rate_limited', reason: 'the target asked to back off (429)', retryAfterS: cooling },
      };
    }
    if (this.env.SCRAPER_RESPECT_ROBOTS) {
      const verdict = await this.#robots.check(url, signal);
      if (!verdict.allowed)
        return {
          domain,
          tiers: [],
          startReason: 'none',
          stop: { kind: 'disallowed', reason: verdict.reason },
        };
    }
    const record = await this.strategies.get(domain);
    const decision = decideStart(record, Date.now(), random, {
      decayMs: this.env.SCRAPER_STRATEGY_DECAY_SECONDS * 1000,
      recheckRatio: this.env.SCRAPER_RECHECK_RATIO,
      blockMemoryMs: 3_600_000,
      proxyConfigured: this.proxyConfigured,
      needsBrowser: job.waitFor !== undefined || job.screenshot,
    });
    return { domain, tiers: tiersFrom(decision.start, this.proxyConfigured), startReason: decision.reason };
  }

  /** One tier's attempt; never throws for what a target does, only for what breaks. */
  async runTier(tier: Tier, job: TierJob, signal: AbortSignal): Promise<TierAttempt> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const budget = AbortSignal.timeout(Math.max(1, job.budgetMs));
    const combined = AbortSignal.any([signal, budget]);
    const url = new URL(job.url);
    const domain = url.host.toLowerCase();
    // Honouring robots.txt includes its Crawl-delay: the domain's starts are spaced by it.
    const crawlDelayS = this.env.SCRAPER_RESPECT_ROBOTS
      ? await this.#robots.crawlDelaySeconds(url, combined).catch(() => 0)
      : 0;
    const slot = await this.limiter.acquire(domain, job.budgetMs, combined, crawlDelayS * 1000);
    if (!slot.granted) {
      signal.throwIfAborted();
      return {
        tier,
        outcome: AttemptOutcome.rateLimited,
        status: null,
        reason:
          crawlDelayS > 0 ? `robots.txt Crawl-delay of ${crawlDelayS} s` : 'over the domain politeness limit',
        elapsed_ms: elapsed(),
        retry_after_s: slot.retryAfterS,
      };
    }
    try {
      const cookies = job.sessionId ? await this.sessions.load(job.sessionId) : [];
      const deadline = Math.min(job.deadline, Date.now() + job.budgetMs);
      const fetched = await this.#fetch(tier, job, cookies, combined, deadline);
      // A cancelled job ends as cancelled, even when the tier turned the abort into a verdict.
      signal.throwIfAborted();
      if (job.sessionId && fetched.verdict?.outcome !== AttemptOutcome.refused)
        await this.sessions.save(job.sessionId, cookies, fetched.cookies);
      const status = fetched.status > 0 ? fetched.status : null;
      if (fetched.verdict)
        return {
          tier,
          outcome: fetched.verdict.outcome,
          status,
          reason: fetched.verdict.reason,
          elapsed_ms: elapsed(),
        };
      const verdict = detectBlock({ ...fetched, rendered: isBrowserTier(tier) });
      if (verdict.outcome === AttemptOutcome.rateLimited && verdict.retryAfterS)
        await this.limiter.coolDown(domain, verdict.retryAfterS);
      if (verdict.outcome !== AttemptOutcome.ok) {
        return {
          tier,
          outcome: verdict.outcome,
          status,
          reason: verdict.reason,
          elapsed_ms: elapsed(),
          ...(verdict.retryAfterS ? { retry_after_s: verdict.retryAfterS } : {}),
        };
      }
      const converted = await this.#convert.convert({
        format: job.format,
        body: fetched.body,
        contentType: fetched.contentType,
        url: fetched.finalUrl,
        headers: fetched.headers,
        ...(job.options ? { options: job.options } : {}),
      });
      const extras = converted.links !== undefined || converted.chunks !== undefined;
      const stored = await this.pages.putContent(job.jobId, tier, extras ? converted : converted.content);
      const screenshotKey = fetched.screenshot
        ? await this.pages.putScreenshot(job.jobId, tier, fetched.screenshot)
        : undefined;
      return {
        tier,
        outcome: AttemptOutcome.ok,
        status,
        reason: verdict.reason,
        elapsed_ms: elapsed(),
        page: {
          contentKey: stored.key,
          finalUrl: fetched.finalUrl,
          contentType: fetched.contentType,
          bytes: stored.bytes,
          ...(extras ? { extras } : {}),
          ...(screenshotKey ? { screenshotKey } : {}),
        },
      };
    } catch (error) {
      // Whatever broke while cancelling, the job was cancelled: rethrow the cancellation itself.
      signal.throwIfAborted();
      const classified = classifyError(error, budget.aborted);
      if (!classified) throw error;
      return { tier, ...classified, status: null, elapsed_ms: elapsed() };
    } finally {
      await slot.release().catch(() => undefined);
    }
  }

  async #fetch(
    tier: Tier,
    job: TierJob,
    cookies: Fetched['cookies'],
    signal: AbortSignal,
    deadline: number,
  ): Promise<Fetched> {
    const limits = {
      maxBytes: this.env.SCRAPER_MAX_BODY_BYTES,
      maxRedirects: this.env.SCRAPER_MAX_REDIRECTS,
    };
    if (tier === Tiers.http || tier === Tiers.httpFingerprint) {
      const fingerprint = tier === Tiers.httpFingerprint;
      return httpTier({
        url: job.url,
        headers: fingerprint ? browserLikeHeaders() : plainHeaders(),
        dispatcher: fingerprint ? this.#agents.fingerprint : this.#agents.plain,
        guard: this.guard,
        cookies,
        signal,
        ...limits,
      });
    }
    const egress = await this.#egressReady();
    const hardened = tier !== Tiers.browser;
    let upstream: string | undefined;
    if (tier === Tiers.browserProxy) {
      upstream = this.#proxies[this.#nextUpstream++ % this.#proxies.length];
      if (!upstream)
        return {
          status: 0,
          headers: {},
          contentType: '',
          body: '',
          finalUrl: job.url,
          cookies,
          verdict: { outcome: AttemptOutcome.error, reason: 'no upstream proxy configured' },
        };
    }
    // Each job's page talks through its own guard proxy, which counts every byte the targets send
    // it (document, subresources, websockets) and cuts them all off past the page's budget.
    const proxy = await GuardProxy.start({
      guard: this.guard,
      maxBytes: this.env.SCRAPER_BROWSER_MAX_BYTES,
      ...(upstream ? { upstream } : {}),
    });
    try {
      return await browserTier({
        url: job.url,
        pool: egress.pool,
        guard: this.guard,
        stealth: hardened,
        proxyServer: proxy.url,
        budget: proxy,
        limits: {
          maxBytes: this.env.SCRAPER_BROWSER_MAX_BYTES,
          maxDomNodes: this.env.SCRAPER_BROWSER_MAX_DOM_NODES,
          maxHeapBytes: this.env.SCRAPER_BROWSER_MAX_HEAP_MB * 1024 * 1024,
        },
        cookies,
        ...(job.waitFor ? { waitFor: job.waitFor } : {}),
        screenshot: job.screenshot,
        challengeWaitMs: hardened ? CHALLENGE_WAIT_MS.hardened : CHALLENGE_WAIT_MS.plain,
        signal,
        deadline,
      });
    } finally {
      await proxy.close();
    }
  }

  /** The browser pool (and the guard proxy every context defaults to), started on the first browser tier. */
  #egressReady() {
    this.#egress ??= (async () => {
      const direct = await GuardProxy.start({ guard: this.guard });
      this.#pool = new BrowserPool({
        launch: {
          executablePath: resolveChromiumPath(this.env.CHROMIUM_PATH),
          proxyServer: direct.url,
          sandbox: this.env.SCRAPER_BROWSER_SANDBOX,
          user: this.env.SCRAPER_BROWSER_USER,
          maxHeapMb: this.env.SCRAPER_BROWSER_MAX_HEAP_MB,
          maxMemoryMb: this.env.SCRAPER_BROWSER_MAX_MEMORY_MB,
        },
        maxContexts: this.env.SCRAPER_BROWSER_CONTEXTS,
        recycleAfter: this.env.SCRAPER_BROWSER_RECYCLE_AFTER,
      });
      return { direct, pool: this.#pool };
    })();
    return this.#egress;
  }

  /**
   * Prints a page Vigil rendered itself (a report) to PDF in the pool's browser, so there is one
   * browser stack. The context runs no script and is offline: the page needs nothing from outside
   * (its charts are inline images), and nothing in it can reach out.
   */
  async printPdf(html: string, signal: AbortSignal): Promise<Uint8Array> {
    const { pool } = await this.#egressReady();
    return pool.withContext({ javaScriptEnabled: false, offline: true }, signal, async (context) => {
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      return new Uint8Array(await page.pdf({ format: 'A4', printBackground: true }));
    });
  }

  poolStats(): PoolStats | null {
    return this.#pool?.stats() ?? null;
  }

  async close(): Promise<void> {
    const egress = await this.#egress?.catch(() => undefined);
    await egress?.pool.close();
    await egress?.direct.close().catch(() => undefined);
    await Promise.allSettled([
      this.#agents.plain.close(),
      this.#agents.fingerprint.close(),
      this.#convert.close(),
    ]);
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}
