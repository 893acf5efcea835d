import { describe, expect, it } from 'vitest';
import { firstBlockWhere } from './firstBlock.ts';

describe('firstBlockWhere', () => {
  it('finds the lowest block where a monotone condition holds, in log_fanOut rounds', async () => {
    for (const [target, fanOut] of [
      [1n, 8],
      [777n, 8],
      [9_999n, 32],
      [10_000n, 2],
    ] as const) {
      const probed: bigint[] = [];
      const holds = (block: bigint) => {
        probed.push(block);
        return Promise.resolve(block >= target);
      };
      expect(await firstBlockWhere(holds, 0n, 10_000n, fanOut)).toBe(target);
      const rounds = Math.ceil(Math.log(10_000) / Math.log(fanOut)) + 1;
      expect(probed.length).toBeLessThanOrEqual(rounds * (fanOut - 1));
    }
  });
});
