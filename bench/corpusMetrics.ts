import { TIERS, type CorpusToken, isHealthyMarket } from '../infra/devnet/corpus/schema.ts';
import { HARM_CLASSES, type HarmClass, type HarmClasses } from '../scanner/core/risk/harm.ts';

/** One corpus token: what its labels say, and what the scan said. */
export interface CorpusVerdict {
  key: string;
  token: CorpusToken;
  /** null when the scan produced no usable result (it failed, or decided nothing). */
  actual: {
    classes: HarmClasses;
    tier: string;
    risk_score: number | null;
    flags: string[];
    failed_engines: string[];
  } | null;
  error?: string;
}

export interface ClassStats {
  class: HarmClass;
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
}

export interface CorpusSummary {
  tokens: number;
  usable: number;
  classes: ClassStats[];
  tierInBand: number;
  /** Benign-but-unusual tokens with a healthy market, and how many of them were in the lowest tier. */
  benignUnusualHealthy: { total: number; lowest: number };
  /** Tokens without any class whose verdict reached the top band: launch state must not get there. */
  benignInTopBand: number;
}

export function summarise(verdicts: readonly CorpusVerdict[]): CorpusSummary {
  const classes = HARM_CLASSES.map((harm): ClassStats => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const verdict of verdicts) {
      const expected = verdict.token.labels[harm];
      // No usable result claims nothing: a scam it misses counts against recall.
      const claimed = verdict.actual?.classes[harm] ?? false;
      if (expected && claimed) tp++;
      else if (claimed) fp++;
      else if (expected) fn++;
    }
    return {
      class: harm,
      tp,
      fp,
      fn,
      precision: tp + fp === 0 ? null : tp / (tp + fp),
      recall: tp + fn === 0 ? null : tp / (tp + fn),
    };
  });
  const benignHealthy = verdicts.filter(
    (verdict) => verdict.token.labels.group === 'benign_unusual' && isHealthyMarket(verdict.token.market),
  );
  return {
    tokens: verdicts.length,
    usable: verdicts.filter((verdict) => verdict.actual !== null).length,
    classes,
    tierInBand: verdicts.filter(inBand).length,
    benignUnusualHealthy: {
      total: benignHealthy.length,
      lowest: benignHealthy.filter((verdict) => verdict.actual?.tier === 'low').length,
    },
    benignInTopBand: verdicts.filter(
      (verdict) => verdict.token.labels.group !== 'scam' && verdict.actual?.tier === 'critical',
    ).length,
  };
}

/** The verdict's tier lies in the labelled band (both ends inclusive). */
export function inBand(verdict: CorpusVerdict): boolean {
  const tier = verdict.actual?.tier;
  if (tier === undefined) return false;
  const rank = (value: string) => TIERS.indexOf(value as (typeof TIERS)[number]);
  const { min, max } = verdict.token.labels.tier;
  return rank(tier) >= rank(min) && rank(tier) <= rank(max);
}

/** Where a verdict disagrees with the labels, in one line; undefined when it agrees. */
export function disagreement(verdict: CorpusVerdict): string | undefined {
  if (!verdict.actual) return `${verdict.key}: no usable result (${verdict.error ?? 'unknown'})`;
  const { labels } = verdict.token;
  const missed = HARM_CLASSES.filter((harm) => labels[harm] && !verdict.actual?.classes[harm]);
  const extra = HARM_CLASSES.filter((harm) => !labels[harm] && verdict.actual?.classes[harm]);
  const band = inBand(verdict);
  if (missed.length === 0 && extra.length === 0 && band) return undefined;
  const parts = [
    missed.length ? `missed ${missed.join(', ')}` : '',
    extra.length ? `claimed ${extra.join(', ')}` : '',
    band ? '' : `tier ${verdict.actual.tier} outside ${labels.tier.min}–${labels.tier.max}`,
  ].filter(Boolean);
  return `${verdict.key}: ${parts.join('; ')} [flags: ${verdict.actual.flags.join(', ') || 'none'}]`;
}

const pct = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)} %`);

export function summaryMarkdown(title: string, summary: CorpusSummary): string {
  const rows = summary.classes.map(
    (row) =>
      `| ${row.class} | ${row.tp} | ${row.fp} | ${row.fn} | ${pct(row.precision)} | ${pct(row.recall)} |`,
  );
  const { total, lowest } = summary.benignUnusualHealthy;
  return [
    `${title}: ${summary.tokens} tokens, ${summary.usable} with a usable result, ` +
      `${summary.tierInBand} in their labelled tier band; benign-but-unusual tokens with a healthy market ` +
      `in the lowest tier: ${lowest} of ${total} (${pct(total === 0 ? null : lowest / total)}); ` +
      `tokens without any harm class in the top band: ${summary.benignInTopBand}.`,
    '',
    '| class | true positives | false positives | false negatives | precision | recall |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
