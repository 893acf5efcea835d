import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ReportActivities } from '../activities/reports/index.ts';
import type { ScraperActivities } from '../activities/scraper/index.ts';
import { Reason } from '../core/errors/reasons.ts';
import { formatJobId } from '../core/temporal/jobIds.ts';
import {
  type GenerateReportInput,
  type GenerateReportResult,
  type ReportProgress,
  reportProgressQuery,
  ReportStage,
  reportWorkflowId,
  SectionState,
} from '../reports/core/messages.ts';
import {
  MANDATORY_SECTIONS,
  type Narrative,
  ReportFormat,
  type Section,
  SECTION_TITLES,
  SectionKind,
  SECTIONS_OF,
  SectionStatus,
} from '../reports/core/schema.ts';
import type { ScanResult } from '../scanner/core/result.ts';
import { scanToken } from './scanToken.ts';

// Sections read the chain index (DuckDB), the chain and the retrieval service: a few retries for
// a busy engine or a slow service, then the section is marked failed and the report goes on.
const sections = proxyActivities<ReportActivities>({
  startToCloseTimeout: '1m',
  // Sections heartbeat every 2 s: a section on a dead worker is retried elsewhere within 10 s.
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: [Reason.reportSectionUnavailable],
  },
});
// The model may be slow; two tries, then the templates write the summary.
const { writeNarrative } = proxyActivities<ReportActivities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', maximumAttempts: 2 },
});
// Store writes are keyed by job id: retried for as long as a store needs to come back.
const store = proxyActivities<ReportActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 20 },
});

/**
 * A research report on a token or a wallet: the token scan (a child workflow on the scanner
 * queue, the one mandatory section), the other sections in parallel as activities, charts over
 * what completed, the narrative, then the rendered formats and the PDF printed by the scraper's
 * browser pool. A section that fails is marked and the report still completes; each finished
 * step is in the history, so a worker lost mid-report never redoes it.
 */
export async function generateReport(input: GenerateReportInput): Promise<GenerateReportResult> {
  const info = workflowInfo();
  const jobId = formatJobId(info);
  const kinds = SECTIONS_OF[input.subject.kind];
  const progress: ReportProgress = {
    stage: ReportStage.sections,
    sections: Object.fromEntries(kinds.map((kind) => [kind, { status: SectionState.pending }])),
    done: 0,
    total: kinds.length,
  };
  setHandler(reportProgressQuery, () => progress);
  const mark = (kind: SectionKind, status: SectionState, error?: { reason: string; message: string }) => {
    progress.sections[kind] = error ? { status, error } : { status };
    if (status === SectionState.completed || status === SectionState.failed) progress.done += 1;
  };

  const written: Section[] = [];
  let scan: ScanResult | null = null;
  try {
    if (kinds.includes(SectionKind.scan)) {
      mark(SectionKind.scan, SectionState.running);
      try {
        scan = await executeChild(scanToken, {
          args: [{ chain: input.subject.chain, address: input.subject.address }],
          taskQueue: input.scannerTaskQueue,
          // From the input, not workflowInfo: histories replay under another workflow id.
          workflowId: `${reportWorkflowId(input.subject)}:${info.runId}:scan`,
        });
      } catch (error) {
        if (isCancellation(error)) throw error;
        const reason = reasonOf(error);
        mark(SectionKind.scan, SectionState.failed, reason);
        throw ApplicationFailure.create({
          type: MANDATORY_SECTIONS.has(SectionKind.scan) ? Reason.reportScanFailed : reason.reason,
          message: `The token scan failed (${reason.reason}): ${reason.message}`,
          nonRetryable: true,
        });
      }
      written.push(await sections.writeScanSection({ subject: input.subject, scan }));
      mark(SectionKind.scan, SectionState.completed);
    }

    const parallel = kinds.filter((kind) => kind !== SectionKind.scan && kind !== SectionKind.charts);
    const results = await Promise.all(
      parallel.map(async (kind): Promise<Section> => {
        mark(kind, SectionState.running);
        try {
          const section = await sections.writeSection({ kind, subject: input.subject, scan });
          mark(kind, SectionState.completed);
          return section;
        } catch (error) {
          if (isCancellation(error)) throw error;
          const reason = reasonOf(error);
          mark(kind, SectionState.failed, reason);
          return failedSection(kind, reason);
        }
      }),
    );
    written.push(...results);

    if (kinds.includes(SectionKind.charts)) {
      mark(SectionKind.charts, SectionState.running);
      try {
        written.push(await sections.drawCharts(written));
        mark(SectionKind.charts, SectionState.completed);
      } catch (error) {
        if (isCancellation(error)) throw error;
        const reason = reasonOf(error);
        mark(SectionKind.charts, SectionState.failed, reason);
        written.push(failedSection(SectionKind.charts, reason));
      }
    }

    progress.stage = ReportStage.writing;
    let narrative: Narrative;
    try {
      narrative = await writeNarrative(written);
    } catch (error) {
      if (isCancellation(error)) throw error;
      narrative = await store.templateNarrative(written);
    }

    progress.stage = ReportStage.rendering;
    const report = {
      id: jobId,
      subject: input.subject,
      generated_at: new Date(info.startTime).toISOString(),
      narrative,
      sections: written,
    };
    const { html } = await store.storeReport({ jobId, report });
    const formats: string[] = [ReportFormat.json, ReportFormat.markdown, ReportFormat.html];
    try {
      const pdf = await printer(input.scraperTaskQueue).printReportPdf(html);
      await store.storeReportPdf(jobId, pdf);
      formats.push(ReportFormat.pdf);
    } catch (error) {
      // No scraper pool or a browser failure: the report stands without its PDF.
      if (isCancellation(error)) throw error;
    }
    progress.stage = ReportStage.done;
    return {
      report_id: jobId,
      sections: written.map((section) => ({ kind: section.kind, status: section.status })),
      formats,
      author: narrative.author,
    };
  } catch (error) {
    progress.stage = ReportStage.failed;
    throw error;
  }
}

// Printing runs in the scraper pool's browser; a scraper pool that is down should not hold the
// report for long: two tries within two minutes, then the report completes without a PDF.
function printer(taskQueue: string) {
  return proxyActivities<ScraperActivities>({
    taskQueue,
    startToCloseTimeout: '1m',
    scheduleToCloseTimeout: '2m',
    retry: { initialInterval: '1s', maximumAttempts: 2 },
  });
}

function failedSection(kind: SectionKind, error: { reason: string; message: string }): Section {
  return {
    kind,
    title: SECTION_TITLES[kind],
    status: SectionStatus.failed,
    facts: [],
    data: {},
    charts: [],
    error,
  };
}

function reasonOf(error: unknown): { reason: string; message: string } {
  let cause = error;
  while (cause instanceof ActivityFailure || cause instanceof ChildWorkflowFailure) cause = cause.cause;
  if (cause instanceof ApplicationFailure)
    return { reason: cause.type ?? Reason.failed, message: cause.message };
  if (cause instanceof Error) return { reason: Reason.failed, message: cause.message };
  return { reason: Reason.failed, message: String(cause) };
}
