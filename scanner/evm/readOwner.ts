import { type Address, type PublicClient, parseAbi } from 'viem';
import { tryRead } from './tryRead.ts';

const ownerAbi = parseAbi([
  'function owner() view returns (address)',
  'function getOwner() view returns (address)',
]);

export interface ReadOwnerReturnType {
  /** The owner, or the zero address when renounced; undefined when there is no owner getter. */
  owner?: Address;
  getter?: 'owner()' | 'getOwner()';
}

/** Reads the Ownable-style owner at a block through owner() or, failing that, getOwner(). */
export async function readOwner(
  client: PublicClient,
  { address, blockNumber }: { address: Address; blockNumber: bigint },
): Promise<ReadOwnerReturnType> {
  for (const functionName of ['owner', 'getOwner'] as const) {
    const owner = await tryRead(() =>
      client.readContract({ address, abi: ownerAbi, functionName, blockNumber }),
    );
    if (owner !== undefined) return { owner, getter: `${functionName}()` };
  }
  return {};
}
