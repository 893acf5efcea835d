import type { ChartImage, EvidenceLink, Report, Section } from '../core/schema.ts';
import { escapeHtml, safeHref } from './escape.ts';
import { numberFacts } from './markdown.ts';

/**
 * Nothing in a report runs: no scripts, no external loads. The page is opened in a browser to
 * print the PDF, and a reader's browser opens it too, so this holds even if an escape is missed.
 */
const CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `
body{font:14px/1.5 system-ui,sans-serif;max-width:860px;margin:24px auto;padding:0 16px;color:#1b1b1b}
h1{font-size:22px}h2{font-size:17px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:28px}
.failed{background:#fff3e0;border-left:4px solid #ef6c00;padding:8px 12px}
.author{color:#555;font-style:italic}.fact{margin:4px 0}.id{color:#777;font-size:12px}
.evidence a,.evidence code{font-size:12px;margin-right:6px}figure{margin:12px 0;page-break-inside:avoid}
figure img{max-width:100%;height:auto}figcaption{font-size:12px;color:#555}`;

function evidence(link: EvidenceLink): string {
  const label = `${escapeHtml(link.kind)} ${escapeHtml(shorten(link.ref))}`;
  const href = safeHref(link.url);
  return href
    ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow" title="${escapeHtml(link.ref)}">${label}</a>`
    : `<code title="${escapeHtml(link.ref)}">${label}</code>`;
}

function shorten(ref: string): string {
  return ref.length > 20 ? `${ref.slice(0, 10)}…${ref.slice(-6)}` : ref;
}

/** SVG as an image: scripts inside an SVG never run from an <img>, whatever text it holds. */
function chart(image: ChartImage): string {
  const data = Buffer.from(image.svg, 'utf8').toString('base64');
  return `<figure data-chart="${escapeHtml(image.id)}"><img alt="${escapeHtml(image.title)}" src="data:image/svg+xml;base64,${data}"><figcaption>${escapeHtml(image.title)}</figcaption></figure>`;
}

function section(part: Section, numbers: Map<string, number>): string {
  const head = `<section data-section="${escapeHtml(part.kind)}" data-status="${escapeHtml(part.status)}"><h2>${escapeHtml(part.title)}</h2>`;
  if (part.status === 'failed') {
    return `${head}<p class="failed">This section could not be written: ${escapeHtml(part.error?.message ?? 'unknown error')} <code>${escapeHtml(part.error?.reason ?? 'failed')}</code></p></section>`;
  }
  const facts = part.facts
    .map(
      (fact) =>
        `<p class="fact" id="${escapeHtml(fact.id)}"><span class="id">[F${numbers.get(fact.id)}]</span> ${escapeHtml(fact.text)} <span class="evidence">${fact.evidence.map(evidence).join('')}</span></p>`,
    )
    .join('');
  const empty = part.facts.length === 0 && part.charts.length === 0 ? '<p>Nothing to report.</p>' : '';
  return `${head}${facts}${part.charts.map(chart).join('')}${empty}</section>`;
}

export function renderHtml(report: Report): string {
  const numbers = numberFacts(report);
  const { subject, narrative } = report;
  const title = `Vigil report: ${subject.kind} ${subject.address} on ${subject.chain}`;
  const author =
    narrative.author === 'llm'
      ? `Summary written by a language model (${narrative.model ?? 'unknown'}) from the facts below; every sentence cites them${narrative.dropped ? `; ${narrative.dropped} uncited sentence${narrative.dropped === 1 ? '' : 's'} removed` : ''}.`
      : 'Summary written from fixed templates over the facts below (no language model).';
  const summary = narrative.sentences
    .map(
      (sentence) =>
        `${escapeHtml(sentence.text)} ${sentence.cites.map((id) => `<a href="#${escapeHtml(id)}">[F${numbers.get(id) ?? '?'}]</a>`).join('')}`,
    )
    .join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body data-report="${escapeHtml(report.id)}" data-author="${escapeHtml(narrative.author)}"><h1>${escapeHtml(title)}</h1><p>Generated ${escapeHtml(report.generated_at)}</p><h2>Summary</h2><p class="author">${escapeHtml(author)}</p><p class="summary">${summary}</p>${report.sections.map((part) => section(part, numbers)).join('')}</body></html>`;
}
