import type { z } from 'zod';

/**
 * Rules between an object's optional fields, stated once for both sides: checked when a body is
 * parsed (an issue on the first field, with `message`) and written into the object's JSON Schema
 * (`anyOf`/`oneOf` of `required`), so a client generated from the OpenAPI document, or a tool
 * such as schemathesis, knows the rule instead of meeting it as a 422.
 */

/** At least one of `fields` is present. */
export function anyOfFields<T extends z.ZodObject>(schema: T, fields: readonly string[], message: string) {
  return schema
    .superRefine((value, context) => {
      if (!fields.some((field) => (value as Record<string, unknown>)[field] !== undefined))
        context.addIssue({ code: 'custom', path: [fields[0] ?? ''], message });
    })
    .meta({ anyOf: fields.map((field) => ({ required: [field] })) });
}

/** Exactly one of `fields` is present. */
export function oneOfFields<T extends z.ZodObject>(schema: T, fields: readonly string[], message: string) {
  return schema
    .superRefine((value, context) => {
      const present = fields.filter((field) => (value as Record<string, unknown>)[field] !== undefined);
      if (present.length !== 1) context.addIssue({ code: 'custom', path: [fields[0] ?? ''], message });
    })
    .meta({ oneOf: fields.map((field) => ({ required: [field] })) });
}
