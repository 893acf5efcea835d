import type { TokenFingerprintStore } from '../../scanner/fingerprint/fingerprintStore.ts';
import type { SimilarTokenIndex } from './similarTokens.ts';

const PAGE = 1_000;
/** A query reads new fingerprints at most this often. */
const MIN_INTERVAL_MS = 1_000;

/**
 * Brings fingerprints that scans recorded since the last read into the similar-token index.
 * The watermark starts at 0 in each process: the first read re-indexes every record, which is
 * idempotent (one row per token).
 */
export class FingerprintSync {
  readonly #records: TokenFingerprintStore;
  readonly #index: SimilarTokenIndex;
  #watermark = 0;
  #lastRun = 0;
  #running: Promise<number> | undefined;

  constructor(records: TokenFingerprintStore, index: SimilarTokenIndex) {
    this.#records = records;
    this.#index = index;
  }

  /** Reads new records unless it did within the last second; answers how many it indexed. */
  async refresh(force = false): Promise<number> {
    if (!force && Date.now() - this.#lastRun < MIN_INTERVAL_MS) return 0;
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<number> {
    this.#lastRun = Date.now();
    let total = 0;
    for (;;) {
      const page = await this.#records.since(this.#watermark, PAGE);
      await this.#index.upsert(page);
      total += page.length;
      const last = page.at(-1);
      if (last) this.#watermark = last.stored_at;
      if (page.length < PAGE) return total;
    }
  }
}
