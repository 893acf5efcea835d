import { BaseError } from './baseError.ts';
import { type ErrorCode, ErrorCodes } from './codes.ts';

export interface VigilErrorOptions {
  /** Extra members of the problem document (RFC 7807 extension members). */
  extensions?: Record<string, unknown>;
  /** Extra response headers (Allow, Retry-After...). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** An error that maps to one problem document. `detail` is written for the person reading it. */
export class VigilError extends BaseError {
  override readonly name = 'VigilError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: VigilErrorOptions = {}) {
    super(detail, { cause: options.cause });
    this.code = code;
    this.status = ErrorCodes[code].status;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}

export function isVigilError(error: unknown): error is VigilError {
  return error instanceof VigilError;
}
