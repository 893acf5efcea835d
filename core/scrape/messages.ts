import { defineQuery } from '@temporalio/workflow';
import type { TierAttempt } from './outcome.ts';
import type { Tier } from './tiers.ts';

export interface ScrapeProgress {
  stage: 'planning' | 'scraping' | 'done';
  tier?: Tier;
  attempts: TierAttempt[];
}

/** Which tier a scrape is on, and what the earlier ones came to. */
export const scrapeProgressQuery = defineQuery<ScrapeProgress>('scrapeProgress');
