import { z } from 'zod';
import { BaseError } from '../errors/baseError.ts';

/** Thrown at boot when the environment does not match a module's schema; lists every problem. */
export class ConfigError extends BaseError {
  override readonly name = 'ConfigError';
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.issues = issues;
  }
}

/** Parses the environment once, at boot, with one module's schema. */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`),
    );
  }
  return result.data;
}

/** An integer from an environment string, with bounds. */
export const IntEnv = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A boolean from an environment string: 1/true/yes/on or 0/false/no/off. */
export const BoolEnv = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

/** An optional string where an empty value means "not set" (as shells often leave it). */
export const OptionalEnv = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
