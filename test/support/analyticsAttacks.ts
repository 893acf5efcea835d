import { QueryFailed, type QueryResult } from '../../chaindata/analytics/engine.ts';

/** What the analytics attack suites keep of a query: its answer or what it threw. */
export type Outcome = { ok: true; result: QueryResult } | { ok: false; error: unknown };

export const settle = (work: Promise<QueryResult>): Promise<Outcome> =>
  work.then(
    (result) => ({ ok: true, result }),
    (error: unknown) => ({ ok: false, error }),
  );

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process still exists (signal 0 checks without signalling). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A query error that is one of the sandbox's own refusals, for one of `reasons`. */
export const failedWith = (outcome: Outcome, reasons: QueryFailed['reason'][]) =>
  !outcome.ok && outcome.error instanceof QueryFailed && reasons.includes(outcome.error.reason);
