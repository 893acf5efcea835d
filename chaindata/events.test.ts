import { keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { Topic } from './events.ts';

const SIGNATURES: Record<keyof typeof Topic, string> = {
  transfer: 'Transfer(address,address,uint256)',
  pairCreated: 'PairCreated(address,address,address,uint256)',
  swapV2: 'Swap(address,uint256,uint256,uint256,uint256,address)',
  sync: 'Sync(uint112,uint112)',
  mintV2: 'Mint(address,uint256,uint256)',
  burnV2: 'Burn(address,uint256,uint256,address)',
  poolCreatedV3: 'PoolCreated(address,address,uint24,int24,address)',
  swapV3: 'Swap(address,address,int256,int256,uint160,uint128,int24)',
  mintV3: 'Mint(address,address,int24,int24,uint128,uint256,uint256)',
  burnV3: 'Burn(address,int24,int24,uint128,uint256,uint256)',
  collectV3: 'Collect(address,address,int24,int24,uint128,uint128)',
};

describe('event topics', () => {
  it('are the keccak256 of their signatures', () => {
    for (const [key, signature] of Object.entries(SIGNATURES))
      expect(Topic[key as keyof typeof Topic], signature).toBe(keccak256(toHex(signature)));
  });
});
