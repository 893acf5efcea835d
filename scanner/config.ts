import { z } from 'zod';
import { CHAINS, type ChainId, ChainKind, findChain } from '../core/chains/registry.ts';
import { IntEnv } from '../core/config/env.ts';

/**
 * Bounds on the historical reads scans make (log scans for holders, trading and deployers):
 * every engine stays within them however old or busy a token is, and says so when a window
 * did not reach back far enough.
 */
const ScanLimitsEnv = z.object({
  /** How far back holder and deployer log scans reach, in blocks. */
  SCAN_LOG_WINDOW_BLOCKS: IntEnv(1, 100_000_000).default(200_000),
  /** Blocks per eth_getLogs request (providers cap ranges). */
  SCAN_LOG_CHUNK_BLOCKS: IntEnv(1, 10_000_000).default(10_000),
  /** Logs read per scan and engine at most; more means the engine reports what it could not see. */
  SCAN_MAX_LOGS: IntEnv(10, 1_000_000).default(20_000),
  /** The trading-activity window, in blocks (7,200 is a day on Ethereum). */
  SCAN_TRADING_WINDOW_BLOCKS: IntEnv(1, 10_000_000).default(7_200),
  /** Deployer nonces whose CREATE addresses are checked for earlier tokens. */
  SCAN_DEPLOYER_MAX_NONCE: IntEnv(1, 100_000).default(256),
  /** Earlier tokens of a deployer analysed in depth (pool, liquidity history, simulation). */
  SCAN_DEPLOYER_MAX_TOKENS: IntEnv(1, 100).default(8),
  /** Recent buyers whose sells are simulated. */
  SCAN_HOLDER_SELL_SAMPLE: IntEnv(0, 50).default(5),
  /** How long a deployer's reputation is reused, in seconds (0: never). */
  SCAN_DEPLOYER_CACHE_SECONDS: IntEnv(0, 86_400).default(60),
  /**
   * Wall time power discovery may take, in milliseconds; past it the scan reports what it found and
   * leaves the checks it could not finish unknown. At most 150 s: a scan's step has 180 s
   * (workflows/scanToken.ts), and the engine's other reads come before discovery.
   */
  SCAN_DISCOVERY_BUDGET_MS: IntEnv(1_000, 150_000).default(120_000),
});
export type ScanLimits = z.infer<typeof ScanLimitsEnv>;

export interface ScanConfig {
  limits: ScanLimits;
  /** Allowlisted tokens per chain, lower-cased (EVM) or as given (Solana). */
  allowlist: ReadonlyMap<ChainId, ReadonlySet<string>>;
  /** LP lockers per chain: the registry's plus configured ones. */
  lpLockers: ReadonlyMap<ChainId, readonly string[]>;
}

function allowlistEnvName(chain: ChainId): string {
  return `TOKEN_ALLOWLIST_${chain.toUpperCase()}`;
}

function lockersEnvName(chain: ChainId): string {
  return `LP_LOCKERS_${chain.toUpperCase()}`;
}

/**
 * Reads TOKEN_ALLOWLIST_<CHAIN> and LP_LOCKERS_<CHAIN> (comma-separated addresses) and the
 * SCAN_* limits. An address that is not one for its chain stops the process at boot.
 */
export function readScanConfig(env: NodeJS.ProcessEnv = process.env): ScanConfig {
  const limits = ScanLimitsEnv.parse(env);
  const allowlist = new Map<ChainId, Set<string>>();
  const lpLockers = new Map<ChainId, string[]>();
  for (const chain of CHAINS) {
    const listed = parseAddresses(env[allowlistEnvName(chain.id)], chain.id, allowlistEnvName(chain.id));
    if (listed.length > 0)
      allowlist.set(chain.id, new Set(listed.map((address) => normalise(chain.id, address))));
    const lockers = [
      ...((chain as { lpLockers?: readonly string[] }).lpLockers ?? []),
      ...parseAddresses(env[lockersEnvName(chain.id)], chain.id, lockersEnvName(chain.id)),
    ];
    if (lockers.length > 0) lpLockers.set(chain.id, lockers);
  }
  return { limits, allowlist, lpLockers };
}

/** Whether a token is on its chain's allowlist; the source names the variable, for the verdict. */
export function allowlistEntry(
  config: Pick<ScanConfig, 'allowlist'>,
  chain: string,
  address: string,
): { source: string } | undefined {
  const listed = config.allowlist.get(chain as ChainId);
  if (!listed?.has(normalise(chain, address))) return undefined;
  return { source: allowlistEnvName(chain as ChainId) };
}

function normalise(chain: string, address: string): string {
  return findChain(chain)?.kind === ChainKind.evm ? address.toLowerCase() : address;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function parseAddresses(raw: string | undefined, chain: ChainId, name: string): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const kind = findChain(chain)?.kind;
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const ok = kind === ChainKind.evm ? EVM_ADDRESS.test(part) : SOLANA_ADDRESS.test(part);
      if (!ok) throw new Error(`${name}: "${part.slice(0, 64)}" is not a ${chain} address`);
      return part;
    });
}
