import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import { type BrowserLaunch, launchOptions } from './launchOptions.ts';
import { RendererMemoryGuard } from './rendererMemory.ts';
import { Semaphore } from './semaphore.ts';

export interface BrowserPoolOptions {
  /** How Chromium is launched: its binary, default proxy (the egress guard), sandbox and limits. */
  launch: BrowserLaunch;
  /** Contexts open at once; more wait (throughput is flat beyond ~1 per core). */
  maxContexts: number;
  /** A browser serves this many contexts, then is replaced once its last context closes. */
  recycleAfter: number;
}

export interface PoolStats {
  executable: string;
  connected: boolean;
  launches: number;
  contexts_open: number;
  contexts_waiting: number;
  contexts_served: number;
  max_contexts: number;
  last_error: string | null;
}

interface Generation {
  browser: Browser;
  served: number;
  open: number;
  retiring: boolean;
}

/**
 * One long-lived Chromium per worker process, a fresh context per job (closed in `finally`:
 * never-closed contexts are what leaks), relaunched when it disconnects and recycled after
 * `recycleAfter` contexts. Launching is lazy: a worker that never needs a browser never starts one.
 */
export class BrowserPool {
  readonly #options: BrowserPoolOptions;
  readonly #slots: Semaphore;
  readonly #memory: RendererMemoryGuard;
  #current: Generation | undefined;
  #launching: Promise<Generation> | undefined;
  #launches = 0;
  #served = 0;
  #lastError: string | null = null;
  #closed = false;

  constructor(options: BrowserPoolOptions) {
    this.#options = options;
    this.#slots = new Semaphore(options.maxContexts);
    this.#memory = new RendererMemoryGuard(
      options.launch.maxMemoryMb * 1024 * 1024,
      () => this.#slots.held > 0,
    );
  }

  /** Runs `use` in a new context; the context is closed whatever happens. */
  async withContext<T>(
    options: BrowserContextOptions,
    signal: AbortSignal,
    use: (context: BrowserContext) => Promise<T>,
  ): Promise<T> {
    const release = await this.#slots.acquire(signal);
    let generation: Generation | undefined;
    let context: BrowserContext | undefined;
    try {
      generation = await this.#generation();
      generation.open++;
      generation.served++;
      this.#served++;
      if (generation.served >= this.#options.recycleAfter) generation.retiring = true;
      context = await generation.browser.newContext(options);
      const closeOnAbort = () => void context?.close().catch(() => undefined);
      signal.addEventListener('abort', closeOnAbort, { once: true });
      try {
        return await use(context);
      } finally {
        signal.removeEventListener('abort', closeOnAbort);
      }
    } catch (error) {
      // A job cancelled (its context closed under it) says nothing about the browser's health.
      if (
        !signal.aborted &&
        error instanceof Error &&
        /Target .*closed|browser has been closed|Browser closed/i.test(error.message)
      )
        this.#lastError = error.message.split('\n')[0] ?? error.message;
      throw error;
    } finally {
      await context?.close().catch(() => undefined);
      if (generation) {
        generation.open--;
        if (generation.retiring && generation.open === 0) {
          if (this.#current === generation) this.#current = undefined;
          void generation.browser.close().catch(() => undefined);
        }
      }
      release();
    }
  }

  async #generation(): Promise<Generation> {
    if (this.#closed) throw new Error('the browser pool is closed');
    const current = this.#current;
    if (current && !current.retiring && current.browser.isConnected()) return current;
    this.#launching ??= this.#launch().finally(() => {
      this.#launching = undefined;
    });
    return this.#launching;
  }

  async #launch(): Promise<Generation> {
    try {
      const browser = await chromium.launch(launchOptions(this.#options.launch));
      this.#launches++;
      this.#memory.start();
      const generation: Generation = { browser, served: 0, open: 0, retiring: false };
      browser.on('disconnected', () => {
        if (this.#current === generation) this.#current = undefined;
      });
      const previous = this.#current;
      this.#current = generation;
      if (previous && previous.open === 0) void previous.browser.close().catch(() => undefined);
      this.#lastError = null;
      return generation;
    } catch (error) {
      this.#lastError =
        error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
      throw error;
    }
  }

  stats(): PoolStats {
    return {
      executable: this.#options.launch.executablePath,
      connected: this.#current?.browser.isConnected() ?? false,
      launches: this.#launches,
      contexts_open: this.#slots.held,
      contexts_waiting: this.#slots.waiting,
      contexts_served: this.#served,
      max_contexts: this.#options.maxContexts,
      last_error: this.#lastError,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#memory.stop();
    const current = this.#current;
    this.#current = undefined;
    await current?.browser.close().catch(() => undefined);
  }
}
