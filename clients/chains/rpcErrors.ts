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

/**
 * JSON-RPC "method not found" (-32601), "invalid params" (-32602: an override or tracer option a node
 * does not read; a token's code cannot cause it) and "method not supported" (EIP-1474's -32004).
 */
const UNSUPPORTED_CODES = new Set([-32601, -32602, -32004]);
const UNSUPPORTED =
  /method .*(not found|does not exist|not available|not supported|is not enabled)|unsupported method|unknown method|no such method|(tracer|tracing) .*not (found|supported|available|enabled)|unsupported tracer|unknown tracer|eth_simulateV1 .*(not|unsupported)/i;

/**
 * True when a node answered that it does not offer a method (or a tracer, or an override): what
 * the node can do, the same for every token, as opposed to an error this call met (a timeout, a
 * tracer out of time, a revert).
 */
export function isUnsupportedMethod(error: unknown): boolean {
  return (
    walkCauses(error, (cause) => {
      const { code, details } = cause as { code?: unknown; details?: unknown };
      // A provider refusing the request over HTTP (405, 403: not on this plan), but for a timeout
      // or a rate limit, which say nothing of what it offers.
      const status = cause instanceof HttpRequestError ? cause.status : undefined;
      return (
        (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) ||
        (typeof code === 'number' && UNSUPPORTED_CODES.has(code)) ||
        UNSUPPORTED.test(cause.message) ||
        (typeof details === 'string' && UNSUPPORTED.test(details))
      );
    }) !== undefined
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
