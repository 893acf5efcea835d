import { defineQuery } from '@temporalio/workflow';
import type { ReportSubject, SectionKind } from './schema.ts';

/** Shared by the generateReport workflow, its activities and the API that follows it. */
export const ReportStage = {
  sections: 'sections',
  writing: 'writing',
  rendering: 'rendering',
  done: 'done',
  failed: 'failed',
} as const;
export type ReportStage = (typeof ReportStage)[keyof typeof ReportStage];

export const SectionState = {
  pending: 'pending',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
} as const;
export type SectionState = (typeof SectionState)[keyof typeof SectionState];

interface SectionProgress {
  status: SectionState;
  error?: { reason: string; message: string };
}

export interface ReportProgress {
  stage: ReportStage;
  sections: Partial<Record<SectionKind, SectionProgress>>;
  /** Sections finished (completed or failed) out of all of them. */
  done: number;
  total: number;
}

export const reportProgressQuery = defineQuery<ReportProgress>('reportProgress');

export interface GenerateReportInput {
  subject: ReportSubject;
  /** The scanner's task queue (prefix applied): the token scan runs there as a child workflow. */
  scannerTaskQueue: string;
  /** The scraper's task queue (prefix applied): its browser pool prints the PDF. */
  scraperTaskQueue: string;
  /** Who asked first; later identical requests join and are recorded by the API. */
  requestedBy: string;
}

export interface GenerateReportResult {
  report_id: string;
  sections: { kind: SectionKind; status: 'completed' | 'failed' }[];
  formats: string[];
  author: string;
}

/** Deterministic: identical concurrent requests land on one workflow and join it. */
export function reportWorkflowId(subject: ReportSubject): string {
  // EVM addresses are case-insensitive (checksums); Solana's base58 is not.
  const address = subject.address.startsWith('0x') ? subject.address.toLowerCase() : subject.address;
  return `report:${subject.kind}_${subject.chain}:${address}`;
}
