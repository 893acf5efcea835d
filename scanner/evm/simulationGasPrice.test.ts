import { HttpRequestError, type PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { simulationGasPrice } from './simulationGasPrice.ts';

/** A node answering a base fee of 10 wei and a tip of 2; `down` makes every read fail as unreachable. */
function node(state: { down: boolean; blockReads: number }): PublicClient {
  const fail = () => Promise.reject(new HttpRequestError({ url: 'http://node.invalid' }));
  return {
    getBlock: () => {
      state.blockReads++;
      return state.down ? fail() : Promise.resolve({ baseFeePerGas: 10n });
    },
    request: () => (state.down ? fail() : Promise.resolve('0x2')),
    getGasPrice: () => (state.down ? fail() : Promise.resolve(12n)),
  } as unknown as PublicClient;
}

describe('simulationGasPrice', () => {
  it("is the base fee and the node's tip, read once per block however many engines ask", async () => {
    const state = { down: false, blockReads: 0 };
    const client = node(state);
    const prices = await Promise.all([1, 2, 3].map(() => simulationGasPrice(client, 100n)));
    expect(prices).toEqual([12n, 12n, 12n]);
    expect(state.blockReads).toBe(1);
    await simulationGasPrice(client, 101n);
    expect(state.blockReads).toBe(2);
  });

  it('asks an unreachable node again next time instead of keeping the failure', async () => {
    const state = { down: true, blockReads: 0 };
    const client = node(state);
    await expect(simulationGasPrice(client, 7n)).rejects.toThrow();
    state.down = false;
    await expect(simulationGasPrice(client, 7n)).resolves.toBe(12n);
    expect(state.blockReads).toBe(2);
  });
});
