import { BaseError, HttpRequestError, TimeoutError, WebSocketRequestError } from 'viem';
import { walkCauses } from '../../core/errors/baseError.ts';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { ProvidersUnavailableError } from './providerPool.ts';

/**
 * True when an error means the chain's providers could not be reached or did not answer in
 * time (worth retrying), as opposed to a node that answered with an error.
 */
export function isRpcUnreachable(error: unknown): boolean {
  // Through wrappers of our own down to viem's transport errors.
  return (
    walkCauses(
      error,
      (cause) =>
        cause instanceof ProvidersUnavailableError ||
        cause instanceof HttpRequestError ||
        cause instanceof TimeoutError ||
        cause instanceof WebSocketRequestError,
    ) !== undefined
  );
}

/** A short message without URLs (viem's long messages embed the RPC URL, which may hold a key). */
export function describeRpcError(error: unknown, urls: readonly string[]): string {
  const short =
    error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error);
  const providers = urls.map(redactUrl).join(', ');
  return `${scrubUrls(short)} (providers: ${providers || 'none'})`;
}

/** `text` with every URL in it redacted (redactUrl). */
export function scrubUrls(text: string): string {
  return text.replace(/\b(?:https?|wss?):\/\/[^\s"')]+/g, (url) => redactUrl(url));
}

const HISTORICAL_STATE =
  /missing trie node|historical state|pruned|block height is \d+ but requested|BlockOutOfRange|header not found|state (is )?not available/i;

/**
 * True when a node cannot serve state at a past block (not an archive node, or state pruned):
 * reads that need history report "unknown" instead of failing.
 */
export function isHistoricalStateError(error: unknown): boolean {
  return (
    walkCauses(error, (cause) => {
      const details = (cause as { details?: unknown }).details;
      return (
        HISTORICAL_STATE.test(cause.message) ||
        (typeof details === 'string' && HISTORICAL_STATE.test(details))
      );
    }) !== undefined
  );
}
