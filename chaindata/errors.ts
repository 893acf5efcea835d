import { ZodError } from 'zod';
import { Reason } from '../core/errors/reasons.ts';
import { VigilError } from '../core/errors/vigilError.ts';
import { QueryFailed } from './analytics/engine.ts';
import { SqlRejected } from './analytics/sqlGuard.ts';
import { BadCursor } from './query/rawQuery.ts';

/** Maps what the analytics layer throws to the problem the caller gets. */
function toVigilError(error: unknown): unknown {
  if (error instanceof SqlRejected)
    return new VigilError(Reason.sqlRejected, error.message, { extensions: { reason: error.reason } });
  if (error instanceof BadCursor)
    return new VigilError(Reason.badRequest, error.message, { extensions: { field: 'cursor' } });
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    return new VigilError(
      'validation_failed',
      `Invalid ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}`,
      {
        extensions: {
          errors: error.issues.map((entry) => ({
            loc: ['body', ...entry.path.map(String)],
            msg: entry.message,
            type: entry.code,
          })),
        },
      },
    );
  }
  if (error instanceof QueryFailed) {
    if (error.reason === 'busy')
      return new VigilError(Reason.analyticsUnavailable, error.message, {
        headers: { 'retry-after': '1' },
        extensions: { reason: 'busy' },
      });
    const reason =
      error.reason === 'memory' ||
      (error.reason === 'failed' && /out of memory|memory limit/i.test(error.message))
        ? 'memory'
        : error.reason === 'failed'
          ? 'error'
          : error.reason;
    return new VigilError(Reason.queryFailed, error.message, { extensions: { reason } });
  }
  return error;
}

/** Runs analytics work, answering its failures as problems. */
export async function asProblem<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toVigilError(error);
  }
}
