import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anyOfFields, oneOfFields } from './fieldRules.ts';

const Fields = z
  .object({ a: z.string().optional(), b: z.number().optional(), c: z.boolean().optional() })
  .strict();

describe('rules between optional fields', () => {
  it('at least one: parses as it documents', () => {
    const schema = anyOfFields(Fields, ['a', 'b'], 'send a or b');
    expect(schema.safeParse({ a: 'x' }).success).toBe(true);
    expect(schema.safeParse({ a: 'x', b: 1 }).success).toBe(true);
    expect(schema.safeParse({ c: true }).error?.issues).toEqual([
      expect.objectContaining({ path: ['a'], message: 'send a or b' }),
    ]);
    expect(z.toJSONSchema(schema, { io: 'input' })).toMatchObject({
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
    });
  });

  it('exactly one: parses as it documents, and keeps metadata given after it', () => {
    const schema = oneOfFields(Fields, ['a', 'b'], 'send a or b, not both').meta({ id: 'OneOfAB' });
    expect(schema.safeParse({ b: 2 }).success).toBe(true);
    expect(schema.safeParse({ a: 'x', b: 2 }).success).toBe(false);
    expect(schema.safeParse({}).success).toBe(false);
    const json = z.toJSONSchema(schema, { io: 'input' }) as { $defs: Record<string, unknown> };
    expect(json.$defs['OneOfAB']).toMatchObject({ oneOf: [{ required: ['a'] }, { required: ['b'] }] });
  });
});
