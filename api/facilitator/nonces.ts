import type { Client, NonceManager } from 'viem';
import { getTransactionCount } from 'viem/actions';

type Account = { address: `0x${string}`; chainId: number };

/** viem's NonceManager, plus handing back a nonce whose transaction the chain never received. */
export interface SignerNonces extends NonceManager {
  release(parameters: Account, nonce: number): void;
}

/**
 * Transaction nonces of the facilitator's signer counted in this process: read from the chain
 * (pending) once, then handed out one after another without a round trip, however many settles
 * run at once. A nonce is taken only for a transaction about to be signed (after its simulation
 * passed); one whose send the chain never received is handed back and given to the next send
 * first, so no gap is left to stall the transactions after it. A reset (after a send whose fate
 * is unknown) re-reads the chain. One facilitator process owns one signer key.
 */
export function localNonceManager(): SignerNonces {
  const next = new Map<string, number>();
  const returned = new Map<string, number[]>();
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
        // A handed-back nonce first (the lowest), so the chain sees no gap.
        const free = returned.get(key);
        if (free && free.length > 0) {
          free.sort((a, b) => a - b);
          const nonce = free.shift();
          if (nonce !== undefined) return nonce;
        }
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
      returned.delete(keyOf(parameters));
    },
    release(parameters, nonce) {
      const key = keyOf(parameters);
      const known = next.get(key);
      // Only a nonce this count handed out, and not one a reset has since forgotten.
      if (known === undefined || nonce >= known) return;
      const free = returned.get(key) ?? [];
      if (!free.includes(nonce)) free.push(nonce);
      returned.set(key, free);
    },
  };
}
