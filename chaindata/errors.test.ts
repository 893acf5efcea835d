import { describe, expect, it } from 'vitest';
import { VigilError } from '../core/errors/vigilError.ts';
import { QueryFailed } from './analytics/engine.ts';
import { asProblem } from './errors.ts';

const problemOf = (error: Error) =>
  asProblem(() => Promise.reject(error)).then(
    () => undefined,
    (caught: unknown) => caught as VigilError,
  );

describe('analytics failures as problems', () => {
  it.each([
    [
      'memory',
      new QueryFailed('memory', 'The query took its process past 450 MiB of memory and was stopped.'),
    ],
    ['memory', new QueryFailed('failed', 'Out of Memory Error: failed to allocate data of size 256.0 MiB')],
    ['error', new QueryFailed('failed', 'Binder Error: column "x" not found')],
    ['timeout', new QueryFailed('timeout', 'The query ran longer than 5000 ms and was cancelled.')],
  ])('answers 422 query_failed with reason %s', async (reason, error) => {
    const problem = await problemOf(error);
    expect(problem).toBeInstanceOf(VigilError);
    expect(problem?.code).toBe('query_failed');
    expect(problem?.status).toBe(422);
    expect(problem?.extensions.reason).toBe(reason);
  });

  it('answers a busy engine 503 with Retry-After', async () => {
    const problem = await problemOf(new QueryFailed('busy', 'The analytics engine is busy; retry shortly.'));
    expect(problem?.status).toBe(503);
    expect(problem?.headers['retry-after']).toBe('1');
  });
});
