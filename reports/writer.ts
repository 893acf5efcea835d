import type { PublicClient } from 'viem';
import type { Analytics } from '../chaindata/analytics/sandbox.ts';
import { readTokenHistory } from '../charts/history.ts';
import type { TokenHistory } from '../charts/core/series.ts';
import type { NewsStore } from '../news/store.ts';
import type { ScanResult } from '../scanner/core/result.ts';
import type { LlmSettings } from './config.ts';
import {
  type Narrative,
  type Report,
  ReportFormat,
  type ReportSubject,
  type Section,
  SectionKind,
  SectionStatus,
} from './core/schema.ts';
import { EvidenceLinker } from './evidence.ts';
import { llmNarrative } from './narrative/llm.ts';
import { templateNarrative } from './narrative/templates.ts';
import { renderHtml } from './render/html.ts';
import { renderMarkdown } from './render/markdown.ts';
import { chartsSection, type ChartSources } from './sections/charts.ts';
import { deployerSection } from './sections/deployer.ts';
import { holdersSection, liquiditySection } from './sections/market.ts';
import { newsSection } from './sections/news.ts';
import { similarSection } from './sections/similar.ts';
import { walletSection } from './sections/wallet.ts';
import type { ReportStore } from './store.ts';

export interface ReportWriterDeps {
  analytics: () => Promise<Analytics>;
  evm: (chain: string) => PublicClient;
  store: ReportStore;
  news: NewsStore;
  /** Unset: the narrative comes from templates. */
  llm: LlmSettings | undefined;
  retrievalUrl: string;
}

/** What a section is written from: the subject, and the token scan when the subject is a token. */
export interface SectionInput {
  subject: ReportSubject;
  scan: ScanResult | null;
}

const NEWS_ITEMS = 10;

/**
 * Writes a report's parts: each section from its own data, the narrative over their facts, the
 * rendered formats. Framework-free; the reports pool runs each step as an activity.
 */
export class ReportWriter {
  readonly #deps: ReportWriterDeps;

  constructor(deps: ReportWriterDeps) {
    this.#deps = deps;
  }

  async section(kind: SectionKind, input: SectionInput, signal?: AbortSignal): Promise<Section> {
    const { subject, scan } = input;
    const links = new EvidenceLinker(subject.chain);
    switch (kind) {
      case SectionKind.deployer:
        return deployerSection(requireScan(scan), await this.#deps.analytics(), links);
      case SectionKind.holders:
        return holdersSection(await this.#history(subject, scan), links);
      case SectionKind.liquidity:
        return liquiditySection(await this.#history(subject, scan), scan?.creation?.deployer ?? null, links);
      case SectionKind.wallet:
        return walletSection(await this.#deps.analytics(), subject.chain, subject.address, links);
      case SectionKind.similar:
        return similarSection(this.#deps.evm(subject.chain), this.#deps.retrievalUrl, subject, signal);
      case SectionKind.news: {
        const items = await this.#deps.news.latest({
          address: subject.address,
          ...(scan?.token.symbol ? { symbol: scan.token.symbol } : {}),
          limit: NEWS_ITEMS,
        });
        return newsSection(items, links);
      }
      case SectionKind.scan:
      case SectionKind.charts:
        throw new Error(`the ${kind} section is not written from chain data alone`);
    }
  }

  /** The charts of the sections that completed. */
  charts(sections: readonly Section[]): Promise<Section> {
    const data = (kind: SectionKind) =>
      sections.find((section) => section.kind === kind && section.status === SectionStatus.completed)?.data;
    const scan = data(SectionKind.scan);
    const holders = data(SectionKind.holders);
    const liquidity = data(SectionKind.liquidity);
    const sources: ChartSources = {
      ...(scan ? { categories: scan.categories as ChartSources['categories'] } : {}),
      ...(holders
        ? {
            holders: holders.points as ChartSources['holders'],
            topHolders: holders.top_holders as ChartSources['topHolders'],
          }
        : {}),
      ...(liquidity
        ? {
            candles: liquidity.candles as ChartSources['candles'],
            liquidity: liquidity.liquidity as ChartSources['liquidity'],
          }
        : {}),
    };
    return chartsSection(sources);
  }

  /** The prose: from the configured model, else (or when it fails) from templates. */
  async narrative(sections: readonly Section[], signal?: AbortSignal): Promise<Narrative> {
    if (!this.#deps.llm) return templateNarrative(sections);
    return llmNarrative(
      this.#deps.llm,
      sections.flatMap((section) => section.facts),
      signal,
    );
  }

  /** Renders JSON, Markdown and HTML and stores them with the record; returns the HTML to print. */
  async store(jobId: string, report: Report): Promise<{ html: string }> {
    const html = renderHtml(report);
    const encoder = new TextEncoder();
    await this.#deps.store.save(jobId, report, [
      { format: ReportFormat.json, content: encoder.encode(JSON.stringify(report)) },
      { format: ReportFormat.markdown, content: encoder.encode(renderMarkdown(report)) },
      { format: ReportFormat.html, content: encoder.encode(html) },
    ]);
    return { html };
  }

  async storePdf(jobId: string, pdf: Uint8Array): Promise<void> {
    await this.#deps.store.addFormat(jobId, ReportFormat.pdf, pdf);
  }

  async #history(subject: ReportSubject, scan: ScanResult | null): Promise<TokenHistory> {
    return readTokenHistory(
      await this.#deps.analytics(),
      subject.chain,
      subject.address,
      scan?.token.decimals ?? 18,
    );
  }
}

function requireScan(scan: ScanResult | null): ScanResult {
  if (!scan) throw new Error('this section needs the token scan');
  return scan;
}
