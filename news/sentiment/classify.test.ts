import { describe, expect, it } from 'vitest';
import { readLabelled, score } from '../../bench/sentiment.ts';
import { classifyHeadline, classifyWithLexiconOnly } from './classify.ts';

describe('headline sentiment', () => {
  it('reads crypto losses, gains and routine news as a trader does', () => {
    expect(classifyHeadline('Bridge hacked, attacker drains $90 million in wrapped ether').label).toBe(
      'negative',
    );
    expect(classifyHeadline('New memecoin exposed as a rug pull after liquidity vanishes').label).toBe(
      'negative',
    );
    expect(classifyHeadline('Token rallies after listing on a major exchange').label).toBe('positive');
    expect(classifyHeadline('Validators to vote on the parameter change next week').label).toBe('neutral');
  });

  it('leaves the plain lexicon untouched (the baseline never sees the crypto terms)', () => {
    classifyHeadline('Exchange delists token after exploit');
    expect(classifyWithLexiconOnly('Exchange delists token').label).toBe('neutral');
    expect(classifyHeadline('Exchange delists token').label).toBe('negative');
  });

  it('beats the plain lexicon on the held-out headlines by a wide margin', () => {
    const rows = readLabelled('heldout');
    const vigil = score(rows, classifyHeadline);
    const lexicon = score(rows, classifyWithLexiconOnly);
    expect(rows.length).toBeGreaterThanOrEqual(100);
    expect(vigil.macro_f1).toBeGreaterThan(0.8);
    expect(vigil.macro_f1 - lexicon.macro_f1).toBeGreaterThan(0.15);
  });
});
