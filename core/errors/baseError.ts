/** How deep a cause chain is followed: far enough for any wrapping, never an endless loop. */
const MAX_CAUSE_DEPTH = 10;

/**
 * The first error in a chain of causes (the error itself first) that matches. Vigil's errors,
 * viem's, the Temporal SDK's and fetch's all keep what they wrap in the standard `cause`, so this
 * one walk serves every question asked of an error ("did a provider time out somewhere below?").
 */
export function walkCauses(error: unknown, matches: (error: Error) => boolean): Error | undefined {
  for (
    let current = error, depth = 0;
    current instanceof Error && depth < MAX_CAUSE_DEPTH;
    current = current.cause, depth++
  ) {
    if (matches(current)) return current;
  }
  return undefined;
}

/**
 * The base of Vigil's own errors: a message written for people, the error it wraps kept as the
 * standard `cause`, and `walk` to look through the chain.
 */
export class BaseError extends Error {
  override readonly name: string = 'BaseError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  /** This error or the first of its causes that matches. */
  walk(matches: (error: Error) => boolean): Error | undefined {
    return walkCauses(this, matches);
  }
}
