import { redactUrl } from './redactUrl.ts';

const URL_PATTERN = /\b(?:https?|wss?):\/\/[^\s"'`)<>\]]+/g;

/** Every URL in a text redacted (keys in paths, queries and user info masked). */
export function scrubText(text: string): string {
  return text.replace(URL_PATTERN, (url) => redactUrl(url));
}

/** Properties where libraries keep the URL or the request body of a failed call (viem, fetch). */
const LEAKY = ['url', 'body', 'requestBody', 'request'];
const TEXTS = ['message', 'stack', 'shortMessage', 'details', 'docsPath'];

/**
 * Redacts, in place, every URL an error (and its causes) carries in its texts, and drops the
 * properties that hold a failed call's URL or request body: RPC providers put API keys in URLs,
 * and viem's errors quote them. Applied where errors leave the process (logs, workflow failures),
 * so a key never reaches a log line or a stored job. Answers the same error.
 */
export function scrubError<T>(error: T): T {
  const seen = new Set<unknown>();
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    if (seen.has(current)) break;
    seen.add(current);
    const record = current as unknown as Record<string, unknown>;
    for (const key of TEXTS) {
      const value = record[key];
      if (typeof value === 'string') {
        try {
          record[key] = scrubText(value);
        } catch {
          // A read-only property: its text cannot leak through us if we cannot write it either way.
        }
      }
    }
    const meta = record.metaMessages;
    if (Array.isArray(meta))
      record.metaMessages = (meta as unknown[]).map((line) =>
        typeof line === 'string' ? scrubText(line) : line,
      );
    for (const key of LEAKY) if (key in record) delete record[key];
    current = current.cause;
  }
  return error;
}
