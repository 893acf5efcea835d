import { describe, expect, it } from 'vitest';
import { countStep, parseServerTiming, StepTimings, timeStep, withTimings } from './stepTimings.ts';

describe('StepTimings', () => {
  it('adds up repeated steps and round-trips through the Server-Timing header', async () => {
    const timings = new StepTimings();
    timings.add('verify', 2.04);
    timings.add('verify', 1.0);
    await timings.time('tool', () => new Promise((resolve) => setTimeout(resolve, 5)));
    timings.count('rpc', 3);
    timings.count('rpc');
    const parsed = parseServerTiming(timings.header());
    expect(parsed.verify).toBeCloseTo(3, 0);
    expect(parsed.tool).toBeGreaterThanOrEqual(4);
    expect(parsed.rpc).toBe(4);
    expect(timings.header()).toMatch(/^verify;dur=3\.0, tool;dur=\d+\.\d, rpc;desc="4"$/);
  });

  it('attributes steps to the request whose async context they run in, and ignores them outside any', async () => {
    const first = new StepTimings();
    const second = new StepTimings();
    await Promise.all([
      withTimings(first, async () => {
        await timeStep('send', () => Promise.resolve());
        countStep('rpc');
      }),
      withTimings(second, () => Promise.resolve(countStep('rpc', 2))),
    ]);
    await timeStep('outside', () => Promise.resolve());
    expect(Object.keys(parseServerTiming(first.header()))).toEqual(['send', 'rpc']);
    expect(parseServerTiming(second.header())).toEqual({ rpc: 2 });
  });
});
