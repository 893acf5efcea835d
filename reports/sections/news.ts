import type { NewsItem } from '../../news/core/schema.ts';
import { type Fact, type Section, SECTION_TITLES, SectionKind, SectionStatus } from '../core/schema.ts';
import type { EvidenceLinker } from '../evidence.ts';
import { safeHref } from '../render/escape.ts';

/** The latest news items on the subject with their sentiment, and the aggregate. */
export function newsSection(items: readonly NewsItem[], links: EvidenceLinker): Section {
  const counts = { positive: 0, neutral: 0, negative: 0 };
  for (const item of items) counts[item.sentiment.label] += 1;
  const mean = items.length ? items.reduce((sum, item) => sum + item.sentiment.score, 0) / items.length : 0;
  const facts: Fact[] = items.map((item, index) => ({
    id: `news-item-${index}`,
    text: `${item.source} (${item.published_at.slice(0, 10)}, ${item.sentiment.label}): ${item.title}`,
    evidence: safeHref(item.url ?? undefined) ? [links.source(item.url ?? '')] : [],
  }));
  facts.unshift({
    id: 'news-aggregate',
    text: items.length
      ? `${items.length} recent news item${items.length === 1 ? '' : 's'}: ${counts.positive} positive, ${counts.neutral} neutral, ${counts.negative} negative (mean sentiment ${mean.toFixed(2)}).`
      : 'No news items mention it.',
    evidence: [],
  });
  return {
    kind: SectionKind.news,
    title: SECTION_TITLES.news,
    status: SectionStatus.completed,
    facts,
    data: { aggregate: { ...counts, mean, items: items.length }, items },
    charts: [],
  };
}
