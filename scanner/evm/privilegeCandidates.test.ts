import { describe, expect, it } from 'vitest';
import { rangeCap, traceWindows } from './privilegeCandidates.ts';

describe('reading a token’s calls from a trace index that caps its block range', () => {
  it('reads the cap a refusal names, and only from a refusal about the range', () => {
    // anvil 1.x's words, then others' shapes.
    expect(rangeCap('block range too large, currently limited to 300', 5_000n)).toBe(300n);
    expect(rangeCap('trace_filter block range exceeds max 100 blocks', 5_000n)).toBe(100n);
    expect(rangeCap('query exceeds max block range 2000', 100_000n)).toBe(2_000n);
    // A refusal that names no cap below the span: a guess, still smaller than the span.
    expect(rangeCap('block range too large', 5_000n)).toBe(100n);
    expect(rangeCap('block range too large', 60n)).toBe(30n);
    // Not about the range: no windows (the provider has no trace_filter, or failed).
    expect(rangeCap('the method trace_filter does not exist/is not available', 5_000n)).toBeUndefined();
    expect(rangeCap('request timed out after 5000 ms', 5_000n)).toBeUndefined();
  });

  it('covers the earliest blocks first, then the latest, within the budget and never twice', () => {
    const windows = traceWindows(1_000n, 4_000n, 300n, 7);
    expect(windows).toHaveLength(7);
    expect(windows[0]).toEqual([1_000n, 1_299n]);
    expect(windows.at(-1)).toEqual([3_701n, 4_000n]);
    const early = windows.filter(([from]) => from < 2_500n);
    expect(early).toHaveLength(5);
    for (const [index, [from, to]] of windows.entries()) {
      expect(to - from + 1n).toBeLessThanOrEqual(300n);
      if (index > 0) expect(from).toBeGreaterThan((windows[index - 1] as [bigint, bigint])[1]);
    }
    // A history the windows cover whole is read whole, with no gap and nothing twice.
    const whole = traceWindows(0n, 999n, 300n, 7);
    expect(whole.reduce((sum, [from, to]) => sum + (to - from + 1n), 0n)).toBe(1_000n);
    expect(whole).toHaveLength(4);
  });
});
