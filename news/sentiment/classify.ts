import { createRequire } from 'node:module';
import Sentiment from 'sentiment';

/**
 * Sentiment of a crypto headline: positive, neutral or negative, with a score from -1 to 1.
 *
 * The `sentiment` package scores words with the AFINN-165 lexicon, which knows "hack" as a
 * playful word, "rally" and "listing" not at all, and "drained", "rug pull" or "depeg" not as a
 * trader reads them. The crypto terms below are added to it (as a language of its own), and a few
 * two-word phrases are read as one term first. Built on the tuning set
 * (news/sentiment/tuning.tsv) only; bench/sentiment.ts scores it and the plain lexicon on the
 * held-out set.
 */

const CRYPTO_TERMS: Record<string, number> = {
  // Losses, attacks and failures.
  exploit: -4,
  exploited: -4,
  exploits: -4,
  hack: -4,
  hacked: -4,
  hackers: -4,
  attacker: -3,
  attack: -3,
  drained: -4,
  drain: -3,
  drains: -3,
  drainer: -4,
  siphon: -4,
  stolen: -4,
  steals: -4,
  rugpull: -5,
  rug: -4,
  honeypot: -5,
  scam: -4,
  scams: -4,
  ponzi: -5,
  fraud: -4,
  fraudulent: -4,
  laundering: -3,
  launder: -3,
  phishing: -4,
  depeg: -4,
  depegs: -4,
  delist: -3,
  delists: -3,
  delisted: -3,
  halts: -3,
  halted: -3,
  suspends: -3,
  outage: -3,
  offline: -2,
  downtime: -3,
  stalls: -2,
  freezes: -2,
  freezing: -2,
  locks: -1,
  liquidated: -3,
  liquidations: -2,
  insolvent: -4,
  bankruptcy: -4,
  bust: -4,
  plunges: -3,
  plunge: -3,
  crashes: -3,
  tumbles: -3,
  slump: -3,
  slumps: -3,
  slides: -2,
  sinks: -3,
  dumps: -3,
  dump: -3,
  charges: -2,
  charged: -3,
  sues: -3,
  seize: -2,
  fine: -2,
  fined: -3,
  sanctions: -2,
  sanctioned: -2,
  vulnerability: -3,
  flaw: -3,
  bug: -2,
  compromised: -4,
  compromise: -3,
  bearish: -3,
  // Gains, adoption and recoveries.
  rally: 3,
  rallies: 3,
  surges: 3,
  surge: 2,
  soars: 3,
  jumps: 2,
  climbs: 2,
  rebounds: 3,
  recovers: 2,
  inflows: 2,
  listing: 2,
  mainnet: 2,
  partners: 2,
  partnership: 2,
  adopts: 2,
  adoption: 2,
  integrates: 2,
  approves: 3,
  approved: 3,
  buyback: 2,
  audited: 2,
  reimburses: 2,
  bullish: 3,
  record: 1,
  decentralizes: 2,
  whole: 1,
  approve: 3,
  higher: 1,
  improvements: 2,
  upgrade: 1,
  launch: 1,
  bounty: 1,
  resumes: 2,
  returned: 2,
  recovering: 2,
  recovered: 2,
  cheaper: 2,
  vindicated: 2,
  faked: -3,
  alleges: -2,
  reverses: -1,
  flood: -2,
  // Everyday words of the trade that AFINN reads as losses: a risk committee, a bug bounty.
  risk: 0,
};

/** Phrases whose words mislead alone ("all-time high", "rug pull"), read as one term. */
const PHRASES: [RegExp, string][] = [
  [/\brug[\s-]?pull(s|ed)?\b/gi, ' rugpull '],
  [/\ball[\s-]time high\b/gi, ' record '],
  [/\bexit scam\b/gi, ' scam '],
  [/\bno critical (findings|issues)\b/gi, ' audited '],
  [/\bcannot sell\b/gi, ' honeypot '],
  [/\bmade whole\b/gi, ' reimburses '],
  [/\b(cuts|slashes|lowers|reduces)( transaction| gas)? (fees|costs)\b/gi, ' cheaper '],
  [/\bhighest level\b/gi, ' record '],
  [/\bsingle point of failure\b/gi, ' '],
  [/\b(throws out|dismisses|dismissed) (the )?(case|lawsuit|charges)\b/gi, ' vindicated '],
  [/\bgoes live\b/gi, ' launch '],
];

/** Comparative score (per word) beyond which a headline is not neutral. */
const NEUTRAL_BAND = 0.1;

// The package merges `extras` into its shared English lexicon in place (every later analysis,
// the baseline's too, would see them), so the crypto terms are a language of their own instead.
const english = createRequire(import.meta.url)('sentiment/languages/en/index.js') as Sentiment.LanguageModule;
const CRYPTO_LANGUAGE = 'en-crypto';
const analyzer = new Sentiment();
analyzer.registerLanguage(CRYPTO_LANGUAGE, {
  ...english,
  labels: { ...english.labels, ...CRYPTO_TERMS },
});

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

export interface HeadlineSentiment {
  label: SentimentLabel;
  /** -1 (negative) .. 1 (positive). */
  score: number;
  method: string;
}

const SENTIMENT_METHOD = 'afinn-165+crypto/1';

export function classifyHeadline(text: string): HeadlineSentiment {
  const normalised = PHRASES.reduce((current, [pattern, term]) => current.replace(pattern, term), text);
  const { comparative } = analyzer.analyze(normalised, { language: CRYPTO_LANGUAGE });
  return { label: labelOf(comparative), score: clamp(comparative / 2), method: SENTIMENT_METHOD };
}

/** The plain lexicon, as the `sentiment` package scores it with no crypto terms: the baseline. */
export function classifyWithLexiconOnly(text: string): HeadlineSentiment {
  const { comparative } = analyzer.analyze(text);
  return { label: labelOf(comparative), score: clamp(comparative / 2), method: 'afinn-165' };
}

function labelOf(comparative: number): SentimentLabel {
  if (comparative > NEUTRAL_BAND) return 'positive';
  if (comparative < -NEUTRAL_BAND) return 'negative';
  return 'neutral';
}

function clamp(value: number): number {
  return Math.max(-1, Math.min(1, Math.round(value * 1000) / 1000));
}
