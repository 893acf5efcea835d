import { Binary, type Db } from 'mongodb';
import { Report, type ReportFormat, type ReportSubject } from './core/schema.ts';

const REPORTS = 'reports';
const FILES = 'report_files';
const REQUESTS = 'report_requests';

interface ReportDoc {
  _id: string;
  subject: ReportSubject;
  report: Report;
  formats: ReportFormat[];
  stored_at: Date;
}

interface FileDoc {
  _id: string;
  job_id: string;
  format: ReportFormat;
  content: Binary;
  bytes: number;
}

interface RequestDoc {
  _id: string;
  job_id: string;
  caller: string;
  subject: ReportSubject;
  requested_at: Date;
}

export interface ReportRequest {
  job_id: string;
  subject: ReportSubject;
  requested_at: string;
}

/**
 * Reports in MongoDB: the structured report (the record), each rendered format beside it (a
 * report's PDF is well under MongoDB's 16 MB document limit, see docs/benchmarks.md), and who
 * asked for which report ("list mine"). Writes are keyed by job id: a retried store replaces.
 */
export class ReportStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async save(
    jobId: string,
    report: Report,
    files: { format: ReportFormat; content: Uint8Array }[],
  ): Promise<void> {
    await Promise.all(
      files.map((file) =>
        this.#db.collection<FileDoc>(FILES).replaceOne(
          { _id: `${jobId}:${file.format}` },
          {
            job_id: jobId,
            format: file.format,
            content: new Binary(file.content),
            bytes: file.content.byteLength,
          },
          { upsert: true },
        ),
      ),
    );
    // The record last: once it is there, every format it names is there too.
    await this.#db
      .collection<ReportDoc>(REPORTS)
      .replaceOne(
        { _id: jobId },
        { subject: report.subject, report, formats: files.map((file) => file.format), stored_at: new Date() },
        { upsert: true },
      );
  }

  /** Adds a format rendered after the record was stored (the PDF, printed elsewhere). */
  async addFormat(jobId: string, format: ReportFormat, content: Uint8Array): Promise<void> {
    await this.#db
      .collection<FileDoc>(FILES)
      .replaceOne(
        { _id: `${jobId}:${format}` },
        { job_id: jobId, format, content: new Binary(content), bytes: content.byteLength },
        { upsert: true },
      );
    await this.#db
      .collection<ReportDoc>(REPORTS)
      .updateOne({ _id: jobId }, { $addToSet: { formats: format } });
  }

  async get(jobId: string): Promise<{ report: Report; formats: ReportFormat[] } | null> {
    const doc = await this.#db.collection<ReportDoc>(REPORTS).findOne({ _id: jobId });
    return doc ? { report: Report.parse(doc.report), formats: doc.formats } : null;
  }

  async file(jobId: string, format: ReportFormat): Promise<Buffer | null> {
    const doc = await this.#db.collection<FileDoc>(FILES).findOne({ _id: `${jobId}:${format}` });
    return doc ? Buffer.from(doc.content.buffer) : null;
  }

  /** Records that `caller` asked for (or joined) the report; idempotent. */
  async addRequester(jobId: string, caller: string, subject: ReportSubject): Promise<void> {
    await this.#db
      .collection<RequestDoc>(REQUESTS)
      .updateOne(
        { _id: `${caller}|${jobId}` },
        { $setOnInsert: { job_id: jobId, caller, subject, requested_at: new Date() } },
        { upsert: true },
      );
  }

  async requestedBy(caller: string, jobId: string): Promise<boolean> {
    return (
      (await this.#db.collection<RequestDoc>(REQUESTS).countDocuments({ _id: `${caller}|${jobId}` })) > 0
    );
  }

  /** The caller's reports, newest first. */
  async listFor(caller: string, limit: number): Promise<ReportRequest[]> {
    const docs = await this.#db
      .collection<RequestDoc>(REQUESTS)
      .find({ caller })
      .sort({ requested_at: -1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({
      job_id: doc.job_id,
      subject: doc.subject,
      requested_at: doc.requested_at.toISOString(),
    }));
  }
}
