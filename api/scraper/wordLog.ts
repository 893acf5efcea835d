import { Counter } from 'prom-client';
import type { VigilApp } from '../plugins/service.ts';
import type { WordLog } from './scrapeJobs.ts';

/**
 * Where the scrape service tells of a tier's word it refused: its log (the job and the reason,
 * nothing of the word) and `scraper_refused_words_total` by reason, so a tier that publishes
 * words the service cannot take (a field added on one side only) shows on a dashboard before
 * anyone wonders why every scrape waits for its run to close.
 */
export function refusedWordLog(app: VigilApp): WordLog {
  const refused = new Counter({
    name: 'scraper_refused_words_total',
    help: "Tier words the scrape service did not answer with, by reason (the workflow's result was awaited instead)",
    labelNames: ['reason'],
    registers: [app.metrics],
  });
  return {
    warn(fields, message) {
      refused.inc({ reason: fields.reason });
      app.log.warn(fields, message);
    },
  };
}
