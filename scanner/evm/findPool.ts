import { type Address, getAddress, parseAbi, type PublicClient, zeroAddress } from 'viem';
import type { DexInfo } from '../../core/chains/registry.ts';
import { tryRead } from './tryRead.ts';

const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
const pairAbi = parseAbi([
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function token0() view returns (address)',
]);

export interface FindPoolReturnType {
  dex: DexInfo;
  pair: Address;
  reserveToken: bigint;
  reserveNative: bigint;
}

/**
 * The token's deepest pool against the chain's wrapped native asset on the known V2 DEXes, at a
 * block. Pairs are asked of each factory (never computed from an init-code hash: forks differ).
 */
export async function findPool(
  client: PublicClient,
  parameters: { token: Address; dexes: readonly DexInfo[]; blockNumber: bigint },
): Promise<FindPoolReturnType | undefined> {
  return (await findPools(client, parameters))[0];
}

/** Every pool of the token against the wrapped native asset on the known DEXes, deepest first. */
export async function findPools(
  client: PublicClient,
  { token, dexes, blockNumber }: { token: Address; dexes: readonly DexInfo[]; blockNumber: bigint },
): Promise<FindPoolReturnType[]> {
  const pools = await Promise.all(
    dexes.map(async (dex): Promise<FindPoolReturnType | undefined> => {
      // A factory that does not answer (not deployed on this chain) is skipped, not fatal.
      const pair = await tryRead(() =>
        client.readContract({
          address: dex.factory,
          abi: factoryAbi,
          functionName: 'getPair',
          args: [token, dex.wrappedNative],
          blockNumber,
        }),
      );
      if (pair === undefined || pair === zeroAddress) return undefined;
      const [[reserve0, reserve1], token0] = await Promise.all([
        client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves', blockNumber }),
        client.readContract({ address: pair, abi: pairAbi, functionName: 'token0', blockNumber }),
      ]);
      const tokenIsFirst = getAddress(token0) === getAddress(token);
      return {
        dex,
        pair,
        reserveToken: tokenIsFirst ? reserve0 : reserve1,
        reserveNative: tokenIsFirst ? reserve1 : reserve0,
      };
    }),
  );
  return pools
    .filter((pool): pool is FindPoolReturnType => pool !== undefined)
    .sort((a, b) => (a.reserveNative === b.reserveNative ? 0 : a.reserveNative > b.reserveNative ? -1 : 1));
}
