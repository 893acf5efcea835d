import type { PublicClient } from 'viem';

/** Blocks remembered per client (one per chain and process): the latest few pins. */
const REMEMBERED_BLOCKS = 64;

/**
 * A chain read made once per client and block however many engines of a scan ask (they run side by
 * side at one pinned block). A failed read is not kept: the next caller asks the node again.
 */
export function perBlock<T>(
  read: (client: PublicClient, blockNumber: bigint) => Promise<T>,
): (client: PublicClient, blockNumber: bigint) => Promise<T> {
  const byClient = new WeakMap<PublicClient, Map<bigint, Promise<T>>>();
  return (client, blockNumber) => {
    let byBlock = byClient.get(client);
    if (!byBlock) byClient.set(client, (byBlock = new Map<bigint, Promise<T>>()));
    const known = byBlock.get(blockNumber);
    if (known) return known;
    const value = read(client, blockNumber);
    byBlock.set(blockNumber, value);
    const oldest = byBlock.keys().next();
    if (byBlock.size > REMEMBERED_BLOCKS && !oldest.done) byBlock.delete(oldest.value);
    value.catch(() => byBlock.delete(blockNumber));
    return value;
  };
}

/** The pinned block itself (its timestamp, its base fee), read once per scan. */
export const pinnedBlock = perBlock((client, blockNumber) => client.getBlock({ blockNumber }));
