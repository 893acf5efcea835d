import { AttemptOutcome } from '../../core/scrape/outcome.ts';
import { FetchFailedError } from '../http/fetchPage.ts';
import { UrlRefusedError } from '../ssrf/guard.ts';

export interface Classified {
  outcome: AttemptOutcome;
  reason: string;
}

const RESET =
  /ECONNRESET|UND_ERR_SOCKET|other side closed|socket hang up|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|ERR_HTTP2_PROTOCOL_ERROR/;
const UNREACHABLE =
  /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE|ERR_NAME_NOT_RESOLVED/;
const TLS = /CERT_|ERR_TLS|UNABLE_TO_VERIFY|SELF_SIGNED|ERR_SSL|ERR_CERT/;
const TIMEOUT = /TimeoutError|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|ERR_TIMED_OUT|Timeout \d+ms exceeded/;

/**
 * What a thrown error means for the chain: refused and unreachable targets end it (no tier can
 * help), a reset connection is how some WAFs block (escalate), running out of budget is a timeout.
 * Anything else is returned as undefined: the activity fails and Temporal's retry policy decides.
 */
export function classifyError(error: unknown, budgetExpired: boolean): Classified | undefined {
  if (error instanceof UrlRefusedError)
    return { outcome: AttemptOutcome.refused, reason: `refused: ${error.message}` };
  if (error instanceof FetchFailedError) return { outcome: AttemptOutcome.failed, reason: error.reason };
  if (budgetExpired) return { outcome: AttemptOutcome.timeout, reason: 'the tier ran out of time' };
  const text = describe(error);
  if (TIMEOUT.test(text)) return { outcome: AttemptOutcome.timeout, reason: 'the tier ran out of time' };
  if (RESET.test(text)) return { outcome: AttemptOutcome.blocked, reason: 'connection_reset' };
  if (UNREACHABLE.test(text))
    return { outcome: AttemptOutcome.failed, reason: `unreachable (${codeOf(text)})` };
  if (TLS.test(text)) return { outcome: AttemptOutcome.failed, reason: `tls_error (${codeOf(text)})` };
  return undefined;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code ?? '';
  const cause = error.cause instanceof Error ? ` ${describe(error.cause)}` : '';
  return `${error.name} ${code} ${error.message}${cause}`;
}

function codeOf(text: string): string {
  return /(E[A-Z]+|ERR_[A-Z_0-9]+|[A-Z_]*CERT[A-Z_]*)/.exec(text)?.[1] ?? 'error';
}
