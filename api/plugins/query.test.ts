import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryInt } from './query.ts';

describe('queryInt', () => {
  const decimals = queryInt(0, 36).default(18);

  it('reads digits, and the default when the parameter is absent', () => {
    expect(decimals.parse('6')).toBe(6);
    expect(decimals.parse(' 8 ')).toBe(8);
    expect(decimals.parse(undefined)).toBe(18);
  });

  it('refuses what z.coerce.number() would have read as a number', () => {
    for (const value of ['', ' ', '1e1', '0x10', '6.0', 'abc', '37', '-1']) {
      expect(decimals.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('is documented as an integer with its bounds', () => {
    expect(z.toJSONSchema(queryInt(1, 100), { io: 'input' })).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
  });
});
