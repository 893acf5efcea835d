import { describe, expect, it } from 'vitest';
import { DEVNET_LP_LOCKER } from '../core/chains/registry.ts';
import { allowlistEntry, readScanConfig } from './config.ts';

describe('readScanConfig', () => {
  it('reads per-chain allowlists, matching EVM addresses whatever their case', () => {
    const config = readScanConfig({
      TOKEN_ALLOWLIST_ETHEREUM:
        '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48, 0xdAC17F958D2ee523a2206206994597C13D831ec7',
      TOKEN_ALLOWLIST_SOLANA: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    });
    expect(allowlistEntry(config, 'ethereum', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toEqual({
      source: 'TOKEN_ALLOWLIST_ETHEREUM',
    });
    expect(allowlistEntry(config, 'solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBeDefined();
    expect(allowlistEntry(config, 'base', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toBeUndefined();
  });

  it('refuses an address that is not one for its chain, naming the variable', () => {
    expect(() => readScanConfig({ TOKEN_ALLOWLIST_BASE: 'usdc' })).toThrow(
      /TOKEN_ALLOWLIST_BASE: "usdc" is not a base address/,
    );
    expect(() => readScanConfig({ LP_LOCKERS_ETHEREUM: '0x12' })).toThrow(/LP_LOCKERS_ETHEREUM/);
  });

  it('adds configured lockers to the registry’s, and bounds log scans', () => {
    const config = readScanConfig({
      LP_LOCKERS_DEVNET: '0x000000000000000000000000000000000000bEEF',
      SCAN_LOG_WINDOW_BLOCKS: '5000',
    });
    expect(config.lpLockers.get('devnet')).toEqual([
      DEVNET_LP_LOCKER,
      '0x000000000000000000000000000000000000bEEF',
    ]);
    expect(config.limits.SCAN_LOG_WINDOW_BLOCKS).toBe(5000);
    expect(() => readScanConfig({ SCAN_LOG_WINDOW_BLOCKS: '0' })).toThrow();
  });
});
