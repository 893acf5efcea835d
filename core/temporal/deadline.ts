import { isGrpcCancelledError, isGrpcDeadlineError } from '@temporalio/client';

/**
 * Whether a call made under `connection.withDeadline(deadline, ...)` failed because that deadline
 * passed. grpc-js usually reports it as DEADLINE_EXCEEDED, but a long poll whose deadline fires as
 * it is being answered sometimes comes back CANCELLED ("Call cancelled"; about 1 in 90 long polls
 * of a workflow's result on the embedded server): past the deadline, that is the same timeout,
 * not a rejection by the engine.
 */
export function isDeadlinePassed(error: unknown, deadline: number): boolean {
  return isGrpcDeadlineError(error) || (isGrpcCancelledError(error) && Date.now() >= deadline);
}
