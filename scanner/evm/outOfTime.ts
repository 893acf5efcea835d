import { walkCauses } from '../../core/errors/baseError.ts';

/**
 * A simulation or trace refused before it reached the node: power discovery's time budget was
 * spent while it waited for a free slot. Discovery reads it as a call not made, never as an answer.
 */
export class OutOfTimeError extends Error {
  override name = 'OutOfTimeError';
}

export function isOutOfTime(error: unknown): boolean {
  return walkCauses(error, (cause) => cause instanceof OutOfTimeError) !== undefined;
}
