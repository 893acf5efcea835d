import { type Address, erc20Abi, type PublicClient } from 'viem';
import type { TokenFacts } from '../core/result.ts';
import { tryRead } from './tryRead.ts';

/** ERC-20 name, symbol, decimals and supply at a block; a field is null when its getter fails. */
export async function readTokenMetadata(
  client: PublicClient,
  { address, blockNumber }: { address: Address; blockNumber: bigint },
): Promise<TokenFacts> {
  const read = <F extends 'name' | 'symbol' | 'decimals' | 'totalSupply'>(functionName: F) =>
    tryRead(() => client.readContract({ address, abi: erc20Abi, functionName, blockNumber }));
  const [name, symbol, decimals, totalSupply] = await Promise.all([
    read('name'),
    read('symbol'),
    read('decimals'),
    read('totalSupply'),
  ]);
  return {
    name: typeof name === 'string' ? name.slice(0, 128) : null,
    symbol: typeof symbol === 'string' ? symbol.slice(0, 32) : null,
    decimals: typeof decimals === 'number' ? decimals : null,
    total_supply: typeof totalSupply === 'bigint' ? totalSupply.toString() : null,
  };
}
