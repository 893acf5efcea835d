import { startWithin } from '../../clients/temporal.ts';
import { type Client, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { isGrpcDeadlineError, isGrpcServiceError } from '@temporalio/client';
import { z } from 'zod';
import { Capability, ChainKind, findChain } from '../../core/chains/registry.ts';
import { Reason } from '../../core/errors/reasons.ts';
import { VigilError } from '../../core/errors/vigilError.ts';
import { formatJobId, requireJob } from '../../core/temporal/jobIds.ts';
import { JobKind, SearchAttr } from '../../core/temporal/searchAttributes.ts';
import type { ChainClients } from '../../clients/chains/chainClients.ts';
import {
  type GenerateReportInput,
  type GenerateReportResult,
  type ReportProgress,
  reportProgressQuery,
  reportWorkflowId,
} from '../../reports/core/messages.ts';
import { type ReportFormat, type ReportSubject, SubjectKind } from '../../reports/core/schema.ts';
import type { ReportStore } from '../../reports/store.ts';
import { checkScanRequest } from '../../scanner/target.ts';
import type { generateReport } from '../../workflows/generateReport.ts';
import { type JobHolders, LetGo } from './jobHolders.ts';

export const ReportJob = z
  .object({
    job_id: z.string(),
    status: z.enum(['running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out']),
    subject: z.object({ kind: z.string(), chain: z.string(), address: z.string() }).optional(),
    progress: z
      .object({
        stage: z.string(),
        done: z.number().int(),
        total: z.number().int(),
        sections: z.record(
          z.string(),
          z.object({
            status: z.string(),
            error: z.object({ reason: z.string(), message: z.string() }).optional(),
          }),
        ),
      })
      .nullable(),
    result: z
      .object({
        sections: z.array(z.object({ kind: z.string(), status: z.string() })),
        formats: z.array(z.string()),
        author: z.string(),
      })
      .nullable(),
    error: z.object({ reason: z.string(), message: z.string() }).nullable(),
    status_url: z.string(),
    events_url: z.string(),
    downloads: z.record(z.string(), z.string()),
  })
  .meta({ id: 'ReportJob' });
export type ReportJob = z.infer<typeof ReportJob>;

/** How long a status read waits for a worker to answer the progress query (none: progress null). */
const PROGRESS_QUERY_MS = 2_000;

export interface ReportJobsDeps {
  client: Client;
  chains: ChainClients;
  store: ReportStore;
  holders: JobHolders;
  reportsTaskQueue: string;
  scannerTaskQueue: string;
  scraperTaskQueue: string;
  /** Begins every workflow id this deployment starts (its TASK_QUEUE_PREFIX; core/temporal/jobIds.ts). */
  jobScope: string;
  publicUrl: string;
}

/** Report jobs: start (identical requests join), read, follow, cancel, list a caller's own. */
export class ReportJobs {
  readonly #deps: ReportJobsDeps;

  constructor(deps: ReportJobsDeps) {
    this.#deps = deps;
  }

  /** Checks the subject as the scanner would (chain, capability, address) before any job starts. */
  check(subject: ReportSubject): ReportSubject {
    const chain = findChain(subject.chain);
    if (!chain) throw new VigilError(Reason.validationFailed, `Unknown chain "${subject.chain}".`);
    if (subject.kind === SubjectKind.wallet) {
      if (chain.kind !== ChainKind.evm || !/^0x[0-9a-fA-F]{40}$/.test(subject.address)) {
        throw new VigilError(
          Reason.invalidAddress,
          'Wallet reports read the EVM chain index: send an EVM address.',
          {
            extensions: { field: 'address' },
          },
        );
      }
      return { ...subject, address: subject.address.toLowerCase() };
    }
    const checked = checkScanRequest(this.#deps.chains, subject, Capability.tokenScan);
    return { ...subject, address: checked.address };
  }

  async submit(raw: ReportSubject, caller: string): Promise<ReportJob> {
    const subject = this.check(raw);
    const workflowId = `${this.#deps.jobScope}${reportWorkflowId(subject)}`;
    const input: GenerateReportInput = {
      subject,
      scannerTaskQueue: this.#deps.scannerTaskQueue,
      scraperTaskQueue: this.#deps.scraperTaskQueue,
      requestedBy: caller,
    };
    let runId: string;
    try {
      const { client } = this.#deps;
      const handle = await startWithin(client.connection, () =>
        client.workflow.start<typeof generateReport>('generateReport', {
          taskQueue: this.#deps.reportsTaskQueue,
          workflowId,
          args: [input],
          // Identical concurrent requests join the running report; a finished one is written anew.
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
          typedSearchAttributes: [
            { key: SearchAttr.JobKind, value: JobKind.report },
            { key: SearchAttr.Chain, value: subject.chain },
            { key: SearchAttr.TokenAddress, value: subject.address },
          ],
          staticSummary: `Report on ${subject.kind} ${subject.address} on ${subject.chain}`,
        }),
      );
      runId = handle.firstExecutionRunId;
    } catch (error) {
      throw engineUnavailable(error);
    }
    const jobId = formatJobId({ workflowId, runId });
    await this.#deps.holders.join(jobId, caller).catch(() => true);
    await this.#deps.store.addRequester(jobId, caller, subject);
    return this.get(jobId);
  }

  /** Readable by the callers that asked for it (or joined it), by API keys and by operators. */
  async assertReadable(
    jobId: string,
    caller: { id: string; operator: boolean; apiKeyId: string | null },
  ): Promise<void> {
    this.#parse(jobId);
    // As for scans: API keys read any job; anonymous callers only their own.
    if (caller.operator || caller.apiKeyId) return;
    if (!(await this.#deps.store.requestedBy(caller.id, jobId))) {
      throw new VigilError(Reason.jobNotOwned, 'Only a caller that asked for this report may read it.');
    }
  }

  async get(jobId: string): Promise<ReportJob> {
    const ref = this.#parse(jobId);
    const handle = this.#deps.client.workflow.getHandle<typeof generateReport>(ref.workflowId, ref.runId);
    const base = this.#links(jobId);
    let description;
    try {
      description = await handle.describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) {
        const stored = await this.#deps.store.get(jobId);
        if (!stored) throw new VigilError(Reason.jobNotFound, 'No such report.');
        return {
          ...base,
          job_id: jobId,
          status: 'completed',
          subject: stored.report.subject,
          progress: null,
          result: {
            sections: stored.report.sections.map((s) => ({ kind: s.kind, status: s.status })),
            formats: stored.formats,
            author: stored.report.narrative.author,
          },
          error: null,
          downloads: this.#downloads(jobId, stored.formats),
        };
      }
      throw engineUnavailable(error);
    }
    const subject = subjectOf(ref.workflowId);
    const status = description.status.name;
    if (status === 'RUNNING') {
      // Bounded: with no reports worker polling (all down, or restarting), a query waits for one.
      const progress: ReportProgress | null = await this.#deps.client.connection
        .withDeadline(Date.now() + PROGRESS_QUERY_MS, () => handle.query(reportProgressQuery))
        .catch(() => null);
      return {
        ...base,
        job_id: jobId,
        status: 'running',
        subject,
        progress,
        result: null,
        error: null,
        downloads: {},
      };
    }
    if (status === 'COMPLETED') {
      const result: GenerateReportResult = await handle.result();
      return {
        ...base,
        job_id: jobId,
        status: 'completed',
        subject,
        progress: null,
        result: { sections: result.sections, formats: result.formats, author: result.author },
        error: null,
        downloads: this.#downloads(jobId, result.formats),
      };
    }
    const failure = await handle.result().then(
      () => null,
      (error: unknown) => (error instanceof WorkflowFailedError ? error : null),
    );
    const mapped = { CANCELLED: 'cancelled', TERMINATED: 'terminated', TIMED_OUT: 'timed_out' } as const;
    const cause = failure?.cause as { type?: string; message?: string } | undefined;
    return {
      ...base,
      job_id: jobId,
      status: status in mapped ? mapped[status as keyof typeof mapped] : 'failed',
      subject,
      progress: null,
      result: null,
      error: {
        reason: cause?.type ?? (status in mapped ? mapped[status as keyof typeof mapped] : Reason.failed),
        message: cause?.message ?? failure?.message ?? `The report ended: ${status.toLowerCase()}.`,
      },
      downloads: {},
    };
  }

  /** Cancels the report when the last caller holding it lets go (workflow cancellation). */
  async cancel(jobId: string, caller: { id: string; operator: boolean }): Promise<{ outcome: string }> {
    const ref = this.#parse(jobId);
    const handle = this.#deps.client.workflow.getHandle(ref.workflowId, ref.runId);
    // No run: 404, and nothing is written for it; a finished one: 409 to its holders.
    let running: boolean;
    try {
      running = (await handle.describe()).status.name === 'RUNNING';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw new VigilError(Reason.jobNotFound, 'No such report.');
      throw engineUnavailable(error);
    }
    if (!running) {
      if (!caller.operator && !(await this.#deps.holders.holds(jobId, caller.id)))
        throw new VigilError(Reason.jobNotOwned, 'Only a caller that asked for this report may cancel it.');
      throw new VigilError(Reason.jobNotRunning, 'The report is not running.');
    }
    const { outcome } = await this.#deps.holders.letGo(
      jobId,
      caller.id,
      caller.operator ? 'force' : 'cancel',
    );
    if (outcome === LetGo.notHolder && !caller.operator) {
      throw new VigilError(Reason.jobNotOwned, 'Only a caller that asked for this report may cancel it.');
    }
    if (outcome === LetGo.detached) return { outcome };
    try {
      await handle.cancel();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError)
        throw new VigilError(Reason.jobNotRunning, 'The report is not running.');
      throw engineUnavailable(error);
    }
    return { outcome: LetGo.cancel };
  }

  list(caller: string, limit: number) {
    return this.#deps.store.listFor(caller, limit);
  }

  file(jobId: string, format: ReportFormat): Promise<Buffer | null> {
    return this.#deps.store.file(jobId, format);
  }

  #links(jobId: string) {
    const url = `${this.#deps.publicUrl}/api/v1/reports/${encodeURIComponent(jobId)}`;
    return { status_url: url, events_url: `${url}/events` };
  }

  #downloads(jobId: string, formats: string[]): Record<string, string> {
    const url = `${this.#deps.publicUrl}/api/v1/reports/${encodeURIComponent(jobId)}/report`;
    return Object.fromEntries(formats.map((format) => [format, `${url}.${format}`]));
  }

  /** A report job of this deployment (its scope begins the workflow id): 400 if malformed, else 404. */
  #parse(jobId: string) {
    return requireJob(jobId, 'report', this.#deps.jobScope);
  }
}

/** The subject is in the workflow id (`<scope>report:<kind>_<chain>:<address>`). */
function subjectOf(workflowId: string): ReportSubject {
  const [, kindChain = '', address = ''] = workflowId.split(':');
  const cut = kindChain.indexOf('_');
  const kind = kindChain.slice(0, cut) === SubjectKind.wallet ? SubjectKind.wallet : SubjectKind.token;
  return { kind, chain: kindChain.slice(cut + 1), address };
}

function engineUnavailable(error: unknown): VigilError {
  if (error instanceof VigilError) return error;
  const unreachable = isGrpcServiceError(error) || isGrpcDeadlineError(error);
  return new VigilError(
    Reason.engineUnavailable,
    unreachable ? 'The workflow engine did not answer.' : 'The workflow engine rejected the request.',
    { headers: { 'retry-after': '5' }, cause: error },
  );
}
