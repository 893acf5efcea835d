// Headline sentiment against hand labels: Vigil's classifier (AFINN-165 plus crypto terms) and the
// plain lexicon, accuracy and macro-F1 per set.
//   node bench/sentiment.ts [--part tuning|heldout|both] [--write]
// The held-out set (news/sentiment/heldout.tsv) was written and committed before the classifier
// and is never read while tuning it; --write records both sets' figures in bench/results.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import {
  classifyHeadline,
  classifyWithLexiconOnly,
  type HeadlineSentiment,
  type SentimentLabel,
} from '../news/sentiment/classify.ts';

const LABELS: SentimentLabel[] = ['positive', 'neutral', 'negative'];

export function readLabelled(part: 'tuning' | 'heldout'): { label: SentimentLabel; text: string }[] {
  return readFileSync(path.join(REPO_ROOT, 'news', 'sentiment', `${part}.tsv`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [label, text] = line.split('\t');
      if (!LABELS.includes(label as SentimentLabel) || !text) throw new Error(`bad line: ${line}`);
      return { label: label as SentimentLabel, text };
    });
}

export function score(
  rows: { label: SentimentLabel; text: string }[],
  classify: (text: string) => HeadlineSentiment,
) {
  const predicted = rows.map((row) => classify(row.text).label);
  const accuracy = predicted.filter((label, index) => label === rows[index]?.label).length / rows.length;
  const perClass = LABELS.map((label) => {
    const tp = predicted.filter((p, i) => p === label && rows[i]?.label === label).length;
    const fp = predicted.filter((p, i) => p === label && rows[i]?.label !== label).length;
    const fn = predicted.filter((p, i) => p !== label && rows[i]?.label === label).length;
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { label, precision, recall, f1 };
  });
  const macroF1 = perClass.reduce((sum, entry) => sum + entry.f1, 0) / LABELS.length;
  return { n: rows.length, accuracy, macro_f1: macroF1, per_class: perClass };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { part: { type: 'string', default: 'tuning' }, write: { type: 'boolean', default: false } },
  });
  const parts =
    values.part === 'both' ? (['tuning', 'heldout'] as const) : ([values.part] as ['tuning' | 'heldout']);
  const results: Record<string, unknown> = {};
  for (const part of parts) {
    const rows = readLabelled(part);
    const vigil = score(rows, classifyHeadline);
    const lexicon = score(rows, classifyWithLexiconOnly);
    results[part] = { vigil, lexicon };
    const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
    console.log(`${part} (${rows.length} headlines)`);
    console.log(
      `  vigil (afinn-165 + crypto terms): accuracy ${pct(vigil.accuracy)}, macro-F1 ${vigil.macro_f1.toFixed(3)}`,
    );
    console.log(
      `  plain lexicon (afinn-165):        accuracy ${pct(lexicon.accuracy)}, macro-F1 ${lexicon.macro_f1.toFixed(3)}`,
    );
    if (part === 'tuning')
      for (const row of rows) {
        const got = classifyHeadline(row.text);
        if (got.label !== row.label)
          console.log(`    ${row.label} → ${got.label} (${got.score}): ${row.text}`);
      }
  }
  if (values.write)
    writeFileSync(
      path.join(REPO_ROOT, 'bench', 'results', 'sentiment.json'),
      `${JSON.stringify({ measured_at: new Date().toISOString(), ...results }, null, 2)}\n`,
    );
}
