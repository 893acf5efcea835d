import { BaseError, HttpRequestError, TimeoutError, WebSocketRequestError } from 'viem';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { ProvidersUnavailableError } from './providerPool.ts';

/**
 * True when an error means the chain's providers could not be reached or did not answer in
 * time (worth retrying), as opposed to a node that answered with an error.
 */
export function isRpcUnreachable(error: unknown): boolean {
  // Follow the cause chain through wrappers of our own down to viem's transport errors.
  for (
    let current = error, depth = 0;
    current instanceof Error && depth < 10;
    current = current.cause, depth++
  ) {
    if (
      current instanceof ProvidersUnavailableError ||
      current instanceof HttpRequestError ||
      current instanceof TimeoutError ||
      current instanceof WebSocketRequestError
    ) {
      return true;
    }
  }
  return false;
}

/** A short message without URLs (viem's long messages embed the RPC URL, which may hold a key). */
export function describeRpcError(error: unknown, urls: readonly string[]): string {
  const short =
    error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error);
  const providers = urls.map(redactUrl).join(', ');
  return `${scrubUrls(short)} (providers: ${providers || 'none'})`;
}

function scrubUrls(text: string): string {
  return text.replace(/\b(?:https?|wss?):\/\/[^\s"')]+/g, (url) => redactUrl(url));
}

const HISTORICAL_STATE =
  /missing trie node|historical state|pruned|block height is \d+ but requested|BlockOutOfRange|header not found|state (is )?not available/i;

/**
 * True when a node cannot serve state at a past block (not an archive node, or state pruned):
 * reads that need history report "unknown" instead of failing.
 */
export function isHistoricalStateError(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current instanceof Error && depth < 10;
    current = current.cause, depth++
  ) {
    const details = (current as { details?: unknown }).details;
    if (
      HISTORICAL_STATE.test(current.message) ||
      (typeof details === 'string' && HISTORICAL_STATE.test(details))
    )
      return true;
  }
  return false;
}
