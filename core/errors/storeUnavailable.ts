import { isVigilError, VigilError } from './vigilError.ts';

/**
 * Runs a store call whose failure must not turn into a free answer or a 500: a store that does
 * not answer becomes a 503 store_unavailable problem (with Retry-After) saying what was at stake.
 */
export async function orStoreUnavailable<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isVigilError(error)) throw error;
    throw new VigilError('store_unavailable', `${what} could not be checked; retry shortly.`, {
      headers: { 'retry-after': '5' },
      cause: error,
    });
  }
}
