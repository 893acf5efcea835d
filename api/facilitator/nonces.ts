import type { Client, NonceManager } from 'viem';
import { getTransactionCount } from 'viem/actions';

type Account = { address: `0x${string}`; chainId: number };

/**
 * Transaction nonces of the facilitator's signer counted in this process: read from the chain
 * (pending) once, then handed out one after another without a round trip, however many settles
 * run at once. A failed send resets the count (viem does so itself), so the next one reads the
 * chain again; this is why one facilitator process owns one signer key.
 */
export function localNonceManager(): NonceManager {
  const next = new Map<string, number>();
  const loading = new Map<string, Promise<number>>();
  const keyOf = ({ address, chainId }: Account) => `${address.toLowerCase()}.${chainId}`;

  /** Makes sure the count is known, reading the chain once for everyone waiting. */
  async function seed(parameters: Account & { client: Client }): Promise<void> {
    const key = keyOf(parameters);
    if (next.has(key)) return;
    let load = loading.get(key);
    if (!load) {
      load = getTransactionCount(parameters.client, { address: parameters.address, blockTag: 'pending' });
      loading.set(key, load);
      void load.finally(() => loading.delete(key)).catch(() => undefined);
    }
    const fetched = await load;
    if (!next.has(key)) next.set(key, fetched);
  }

  return {
    async consume(parameters) {
      const key = keyOf(parameters);
      for (;;) {
        await seed(parameters);
        // Taken and advanced in one synchronous step: no two sends get the same nonce.
        const nonce = next.get(key);
        if (nonce !== undefined) {
          next.set(key, nonce + 1);
          return nonce;
        }
      }
    },
    increment(parameters) {
      const key = keyOf(parameters);
      const known = next.get(key);
      if (known !== undefined) next.set(key, known + 1);
    },
    async get(parameters) {
      await seed(parameters);
      return next.get(keyOf(parameters)) ?? 0;
    },
    reset(parameters) {
      next.delete(keyOf(parameters));
    },
  };
}
