import { ApplicationFailure } from '@temporalio/common';
import { describeRpcError, isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';
import { Reason } from '../../core/errors/reasons.ts';
import { isVigilError } from '../../core/errors/vigilError.ts';

/**
 * Turns anything an activity throws into an ApplicationFailure with a stable `type` and a
 * message safe to show (RPC URLs redacted): permanent problems are non-retryable, unreachable
 * providers are retried by the policy declared at the workflow's proxy.
 */
export function toActivityFailure(error: unknown, rpcUrls: readonly string[]): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (isVigilError(error)) {
    return ApplicationFailure.create({ message: error.message, type: error.code, nonRetryable: true });
  }
  if (isRpcUnreachable(error)) {
    return ApplicationFailure.create({
      message: `The chain's RPC did not answer: ${describeRpcError(error, rpcUrls)}`,
      type: Reason.chainUnreachable,
    });
  }
  const message = error instanceof Error ? describeRpcError(error, rpcUrls) : String(error);
  return ApplicationFailure.create({ message, type: Reason.engineError });
}
