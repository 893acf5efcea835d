import type { Connection } from '@solana/web3.js';
import type { Address, PublicClient } from 'viem';
import type { ChainInfo } from '../../core/chains/registry.ts';
import type { ScanConfig } from '../config.ts';
import type { Check, Creation } from '../core/schema.ts';

/** A scan of another token with the same normalised code that found it harmful. */
interface HarmfulTwin {
  chain: string;
  address: string;
  flags: string[];
  gates: string[];
  scanned_at: string;
  job_id: string;
}

/** What every EVM engine reads from: one chain client, the token, the pinned block. */
export interface EvmEngineInput {
  client: PublicClient;
  chain: ChainInfo;
  address: Address;
  blockNumber: bigint;
  creation: Creation | null;
  config: ScanConfig;
  /** Earlier scans by code fingerprint, when the deployment keeps them (clone evidence). */
  harmfulTwins?: ((codeHash: string) => Promise<HarmfulTwin[]>) | undefined;
}

/** What every Solana engine reads from: one connection, the mint, the pinned slot. */
export interface SolanaEngineInput {
  connection: Connection;
  mint: string;
  slot: bigint;
}

export interface EngineOutput {
  checks: Check[];
  facts: Record<string, unknown>;
}

export function share(part: bigint, whole: bigint): number {
  if (whole === 0n) return 0;
  return Number((part * 1_000_000n) / whole) / 1_000_000;
}

export function percent(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}
