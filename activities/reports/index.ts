import { ApplicationFailure, Context } from '@temporalio/activity';
import { Reason } from '../../core/errors/reasons.ts';
import type { Narrative, Report, ReportSubject, Section, SectionKind } from '../../reports/core/schema.ts';
import { EvidenceLinker } from '../../reports/evidence.ts';
import { scanSection } from '../../reports/sections/scan.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import { SectionUnavailable } from '../../reports/sections/unavailable.ts';
import { type ReportWriterDeps, ReportWriter, type SectionInput } from '../../reports/writer.ts';
import { NarrativeModelFailed } from '../../reports/narrative/llm.ts';

const HEARTBEAT_MS = 2_000;

/**
 * The reports pool's activities, built once per worker: one per report step. A section that has
 * no data for its subject fails non-retryably (the workflow marks it and goes on); anything else
 * is retried by the workflow's policy. The names are recorded in workflow histories: never rename.
 */
export function createReportActivities(deps: ReportWriterDeps) {
  const writer = new ReportWriter(deps);
  return {
    async writeSection(input: SectionInput & { kind: SectionKind }): Promise<Section> {
      const context = Context.current();
      // Liveness while a read waits (a slow query, a slow service): a dead worker's section moves
      // to another worker within the heartbeat timeout instead of the whole start-to-close.
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        return await writer.section(input.kind, input, context.cancellationSignal);
      } catch (error) {
        if (error instanceof SectionUnavailable) {
          throw ApplicationFailure.nonRetryable(error.message, Reason.reportSectionUnavailable);
        }
        throw error;
      } finally {
        clearInterval(beat);
      }
    },
    writeScanSection(input: { subject: ReportSubject; scan: ScanResult }): Promise<Section> {
      return Promise.resolve(scanSection(input.scan, new EvidenceLinker(input.subject.chain)));
    },
    async drawCharts(sections: Section[]): Promise<Section> {
      return writer.charts(sections);
    },
    async writeNarrative(sections: Section[]): Promise<Narrative> {
      try {
        return await writer.narrative(sections, Context.current().cancellationSignal);
      } catch (error) {
        if (error instanceof NarrativeModelFailed) {
          throw ApplicationFailure.retryable(error.message, Reason.narrativeModelFailed);
        }
        throw error;
      }
    },
    async templateNarrative(sections: Section[]): Promise<Narrative> {
      return new ReportWriter({ ...deps, llm: undefined }).narrative(sections);
    },
    async storeReport(input: { jobId: string; report: Report }): Promise<{ html: string }> {
      return writer.store(input.jobId, input.report);
    },
    // Two arguments: bytes travel as a binary payload only at the top level (inside an object
    // they would be JSON).
    async storeReportPdf(jobId: string, pdf: Uint8Array): Promise<void> {
      return writer.storePdf(jobId, pdf);
    },
  };
}

export type ReportActivities = ReturnType<typeof createReportActivities>;
