import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PageRef, ScrapeOutcome, TierAttempt } from '../../core/scrape/outcome.ts';
import { summarize } from '../../core/scrape/summarize.ts';
import { type OutcomeWord, parseOutcome } from './outcomeWord.ts';

const JOB = 'scrape:6f1c2a9e-0000-4000-8000-000000000001';
const own = (name: string) => `scraper:page:${JOB}:${name}`;

const blocked: TierAttempt = {
  tier: 'http',
  outcome: 'blocked',
  status: 403,
  reason: 'HTTP 403',
  elapsed_ms: 12,
};
const got = (page: Partial<NonNullable<TierAttempt['page']>> = {}): TierAttempt => ({
  tier: 'browser',
  outcome: 'ok',
  status: 200,
  reason: 'got the page',
  elapsed_ms: 840,
  page: {
    contentKey: own('content'),
    screenshotKey: own('screenshot'),
    finalUrl: 'https://news.example/a',
    contentType: 'text/html',
    bytes: 5120,
    ...page,
  },
});
/** A word as a tier publishes it: the workflow's own summary of its attempts. */
const word = (attempts: TierAttempt[]) =>
  JSON.stringify(summarize('news.example', 'default', attempts, false));

describe("the tier's word the scrape service answers with", () => {
  it('takes a whole successful outcome whose pages are this job’s own', () => {
    const read = parseOutcome(word([blocked, got()]), JOB);
    expect(read).toEqual({ outcome: summarize('news.example', 'default', [blocked, got()], false) });
  });

  it('ignores anything else: another job’s page, a verdict without a page, a malformed word', () => {
    const other = 'scrape:6f1c2a9e-0000-4000-8000-000000000002';
    const another = { refused: "names another job's page" };
    expect(parseOutcome(word([got({ contentKey: `scraper:page:${other}:content` })]), JOB)).toEqual(another);
    expect(parseOutcome(word([got({ screenshotKey: `scraper:page:${other}:shot` })]), JOB)).toEqual(another);
    // A key that only begins like this job's (the job id's prefix) is another job's.
    expect(parseOutcome(word([got({ contentKey: `scraper:page:${JOB}0:content` })]), JOB)).toEqual(another);
    expect(parseOutcome(word([blocked]), JOB)).toEqual({ refused: 'not a whole successful outcome' });
    expect(parseOutcome('{"kind":"ok"', JOB)).toEqual({ refused: 'not JSON' });
    expect(parseOutcome('null', JOB)).toEqual({ refused: 'not a whole successful outcome' });
  });

  it('refuses a word whose fields are of the wrong kind or unknown, rather than answering with it', () => {
    const good = JSON.parse(word([got()])) as Record<string, unknown>;
    const attempts = good.attempts as Record<string, unknown>[];
    const variants: unknown[] = [
      { ...good, attempts: 'all of them' },
      { ...good, attempts: [{ ...attempts[0], elapsed_ms: '840' }] },
      { ...good, attempts: [{ ...attempts[0], tier: 'teleport' }] },
      { ...good, page: { ...(good.page as object), bytes: -1 } },
      { ...good, page: { ...(good.page as object), contentKey: 7 } },
      { ...good, debug: '<script>' },
      { ...good, page: { ...(good.page as object), body: 'the page itself' } },
    ];
    for (const variant of variants)
      expect(parseOutcome(JSON.stringify(variant), JOB)).toEqual({
        refused: 'not a whole successful outcome',
      });
  });

  it('knows every field the workflow’s result has, and no other (checked by the type check)', () => {
    // A field added to the result, its attempts or its pages fails here, not silently in every
    // word (a strict schema refuses a word with a field it does not know).
    type Attempt = OutcomeWord['attempts'][number];
    expectTypeOf<keyof OutcomeWord>().toEqualTypeOf<keyof ScrapeOutcome>();
    expectTypeOf<keyof Attempt>().toEqualTypeOf<keyof TierAttempt>();
    expectTypeOf<keyof OutcomeWord['page']>().toEqualTypeOf<keyof PageRef>();
    expectTypeOf<keyof NonNullable<Attempt['page']>>().toEqualTypeOf<keyof PageRef>();
  });
});
