import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';

/**
 * Runs a read that may legitimately fail (the function does not exist, the call reverts) and
 * returns undefined then. Unreachable providers still throw, so the activity is retried instead
 * of reporting "no owner" because the node was down.
 */
export async function tryRead<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isRpcUnreachable(error)) throw error;
    return undefined;
  }
}
