import type { ToolDefinition } from '../../../core/catalog/index.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';

/** A tool's input checked against its zod schema; a 422 names every failing field under `at`. */
export function validateToolInput(
  tool: ToolDefinition,
  value: unknown,
  at: readonly string[] = ['body'],
): unknown {
  // No body reads as no input ({}); a body of JSON null is not an object, and fails like one.
  const parsed = tool.input.safeParse(value === undefined ? {} : value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    loc: [...at, ...issue.path.map(String)],
    msg: issue.message,
    type: issue.code,
  }));
  throw new VigilError(
    'validation_failed',
    `Invalid ${errors.map((error) => error.loc.join('.')).join(', ')}: ${errors.map((error) => error.msg).join('; ')}`,
    { extensions: { errors } },
  );
}
