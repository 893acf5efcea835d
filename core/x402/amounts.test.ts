import { describe, expect, it } from 'vitest';
import { formatAtomic, usdToAtomic } from './amounts.ts';

describe('usdToAtomic', () => {
  it('scales catalog prices exactly to the token decimals', () => {
    expect(usdToAtomic(0.01, 6)).toBe(10_000n);
    expect(usdToAtomic(0.15, 6)).toBe(150_000n);
    expect(usdToAtomic(0.07, 18)).toBe(70_000_000_000_000_000n);
    expect(usdToAtomic(0.5, 2)).toBe(50n);
  });

  it('refuses prices finer than a micro-dollar or negative', () => {
    expect(() => usdToAtomic(0.0000001, 6)).toThrow();
    expect(() => usdToAtomic(-1, 6)).toThrow();
  });

  it('formats atomic amounts back', () => {
    expect(formatAtomic(150_000n, 6)).toBe('0.15');
    expect(formatAtomic(1_000_000n, 6)).toBe('1');
  });
});
