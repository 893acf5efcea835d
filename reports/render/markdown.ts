import type { EvidenceLink, Report, Section } from '../core/schema.ts';
import { escapeMarkdown, safeHref } from './escape.ts';

function evidence(link: EvidenceLink): string {
  const label = `${link.kind} ${escapeMarkdown(link.ref)}`;
  const href = safeHref(link.url);
  // The URL is percent-encoded by the parser; closing parentheses are encoded too for Markdown.
  return href
    ? `[${label}](${href.replace(/\(/g, '%28').replace(/\)/g, '%29')})`
    : `\`${link.kind} ${link.ref.replace(/`/g, '')}\``;
}

function section(part: Section, factNumbers: Map<string, number>): string {
  const lines = [`## ${escapeMarkdown(part.title)}`, ''];
  if (part.status === 'failed') {
    lines.push(
      `> This section could not be written: ${escapeMarkdown(part.error?.message ?? 'unknown error')} (\`${part.error?.reason ?? 'failed'}\`)`,
      '',
    );
    return lines.join('\n');
  }
  for (const fact of part.facts) {
    const links = fact.evidence.map(evidence).join(', ');
    lines.push(
      `- **[F${factNumbers.get(fact.id)}]** ${escapeMarkdown(fact.text)}${links ? ` — ${links}` : ''}`,
    );
  }
  for (const chart of part.charts) {
    lines.push(`- Chart: ${escapeMarkdown(chart.title)} (SVG in the HTML and PDF formats)`);
  }
  if (part.facts.length === 0 && part.charts.length === 0) lines.push('_Nothing to report._');
  lines.push('');
  return lines.join('\n');
}

/** Fact numbers as printed ([F1], [F2]...), in the order facts appear in the report. */
export function numberFacts(report: Report): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const part of report.sections) for (const fact of part.facts) numbers.set(fact.id, numbers.size + 1);
  return numbers;
}

export function renderMarkdown(report: Report): string {
  const numbers = numberFacts(report);
  const { subject, narrative } = report;
  const author =
    narrative.author === 'llm'
      ? `Summary written by a language model (${escapeMarkdown(narrative.model ?? 'unknown')}) from the facts below; every sentence cites them${narrative.dropped ? `, ${narrative.dropped} uncited sentence${narrative.dropped === 1 ? '' : 's'} removed` : ''}.`
      : 'Summary written from fixed templates over the facts below (no language model).';
  const summary = narrative.sentences.map(
    (sentence) =>
      `${escapeMarkdown(sentence.text)} ${sentence.cites.map((id) => `[F${numbers.get(id) ?? '?'}]`).join('')}`,
  );
  return [
    `# Vigil report: ${escapeMarkdown(subject.kind)} ${escapeMarkdown(subject.address)} on ${escapeMarkdown(subject.chain)}`,
    '',
    `Generated ${report.generated_at} · report \`${report.id}\``,
    '',
    '## Summary',
    '',
    `_${author}_`,
    '',
    summary.join(' '),
    '',
    ...report.sections.map((part) => section(part, numbers)),
  ].join('\n');
}
