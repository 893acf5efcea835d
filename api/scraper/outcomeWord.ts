import { z } from 'zod';
import { AttemptOutcome, type ScrapeOutcome, ScrapeOutcomeKind } from '../../core/scrape/outcome.ts';
import { TIER_VALUES } from '../../core/scrape/tiers.ts';

const PageRefWord = z.strictObject({
  contentKey: z.string(),
  screenshotKey: z.string().exactOptional(),
  finalUrl: z.string(),
  contentType: z.string(),
  bytes: z.number().int().nonnegative(),
  extras: z.boolean().exactOptional(),
});

/**
 * The word a tier publishes when it got the page: a successful ScrapeOutcome (core/scrape/summarize.ts),
 * checked in full, since the service answers with it as it stands. Typed against the workflow's
 * result, and strict: a word with a field this schema does not know is no answer (the workflow's
 * result is awaited instead), and the unit test builds its words with `summarize` itself.
 */
const OkOutcomeWord = z.strictObject({
  kind: z.literal(ScrapeOutcomeKind.ok),
  domain: z.string(),
  startReason: z.string(),
  attempts: z.array(
    z.strictObject({
      tier: z.enum(TIER_VALUES),
      outcome: z.enum(Object.values(AttemptOutcome) as [AttemptOutcome, ...AttemptOutcome[]]),
      status: z.number().int().nullable(),
      reason: z.string(),
      elapsed_ms: z.number().nonnegative(),
      retry_after_s: z.number().nonnegative().exactOptional(),
      page: PageRefWord.exactOptional(),
    }),
  ),
  page: PageRefWord,
  status: z.number().int().exactOptional(),
  tier: z.enum(TIER_VALUES).exactOptional(),
  retryAfterS: z.number().nonnegative().exactOptional(),
  reason: z.string().exactOptional(),
}) satisfies z.ZodType<ScrapeOutcome>;

/** What the schema reads: the unit test holds its keys equal to ScrapeOutcome's, at every level. */
export type OutcomeWord = z.infer<typeof OkOutcomeWord>;

/** Why a word was not taken as the answer (fixed phrases: nothing of the word itself). */
export type RefusedWord = 'not JSON' | 'not a whole successful outcome' | "names another job's page";

/**
 * A tier's word: the scrape's answer, when it is a whole successful outcome with a page of this
 * job's own; otherwise why not (the workflow's result is awaited instead).
 */
export function parseOutcome(
  payload: string,
  jobId: string,
): { outcome: ScrapeOutcome } | { refused: RefusedWord } {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return { refused: 'not JSON' };
  }
  const parsed = OkOutcomeWord.safeParse(json);
  if (!parsed.success) return { refused: 'not a whole successful outcome' };
  const outcome = parsed.data;
  const own = `scraper:page:${jobId}:`;
  const keys = [outcome.page, ...outcome.attempts.map((attempt) => attempt.page)].flatMap((page) =>
    page ? [page.contentKey, ...(page.screenshotKey === undefined ? [] : [page.screenshotKey])] : [],
  );
  return keys.every((key) => key.startsWith(own)) ? { outcome } : { refused: "names another job's page" };
}
