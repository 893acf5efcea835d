import { defineQuery } from '@temporalio/workflow';
import { Reason } from '../../core/errors/reasons.ts';

/** What can be ingested, by media type. */
export const DocumentType = {
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
} as const;
export type DocumentType = (typeof DocumentType)[keyof typeof DocumentType];
export const DOCUMENT_TYPES = Object.values(DocumentType) as [DocumentType, ...DocumentType[]];

/** Where the document comes from: a body the API stored, or a URL the scraper service fetches. */
type IngestSource = { kind: 'stored'; bodyKey: string; type: DocumentType } | { kind: 'url'; url: string };

export interface IngestInput {
  docId: string;
  /** The path hits cite (`<path>#L<start>-L<end>`); the document id unless given. */
  path: string;
  ecosystem: string;
  category: string;
  /** When the API received this version (ms since the epoch). */
  receivedAt: number;
  source: IngestSource;
}

export const IngestStage = {
  queued: 'queued',
  fetching: 'fetching',
  chunking: 'chunking',
  embedding: 'embedding',
  committing: 'committing',
  done: 'done',
  failed: 'failed',
} as const;
export type IngestStage = (typeof IngestStage)[keyof typeof IngestStage];

export const IngestOutcome = {
  /** The new version replaced the document's chunks. */
  indexed: 'indexed',
  /** The content was already indexed: nothing was done. */
  unchanged: 'unchanged',
  /** A newer version of the document was indexed first: this one was dropped. */
  superseded: 'superseded',
} as const;
export type IngestOutcome = (typeof IngestOutcome)[keyof typeof IngestOutcome];

export interface IngestProgress {
  stage: IngestStage;
  chunks_total: number | null;
  chunks_embedded: number;
  version: string | null;
}

export interface IngestResult {
  outcome: IngestOutcome;
  doc_id: string;
  version: string;
  chunks: number;
}

export const ingestProgressQuery = defineQuery<IngestProgress>('ingestProgress');

/** The reasons an ingest fails with (ApplicationFailure types, shown in job status). */
export const IngestFailure = {
  emptyDocument: Reason.emptyDocument,
  fetchFailed: Reason.fetchFailed,
  urlNotAllowed: Reason.urlNotAllowed,
  bodyExpired: Reason.bodyExpired,
  scraperRefused: Reason.scraperRefused,
} as const;
