import { getAddress } from 'viem';
import type { ChainClients } from '../../core/chains/chainClients.ts';
import { ChainKind, findChain, getChain, type ChainId } from '../../core/chains/registry.ts';
import { unknownCheck } from '../../core/scan/checks.ts';
import { type Engine, ENGINE_CHECKS, enginesFor } from '../../core/scan/engines.ts';
import { assertScannable, checkScanRequest } from '../../core/scan/resolveTarget.ts';
import { ScanResult, type TokenFacts } from '../../core/scan/result.ts';
import { allowlistEntry, readScanConfig, type ScanConfig } from '../../core/scan/scanConfig.ts';
import type { Creation, EngineReport, ScanTarget } from '../../core/scan/schema.ts';
import { scoreToken } from '../../core/risk/score.ts';
import type { ScanStore } from '../../core/stores/scans.ts';
import type { TokenFingerprintStore } from '../../core/stores/tokenFingerprints.ts';
import { bytecodeFingerprint } from '../../scanner/fingerprint/bytecodeFingerprint.ts';
import type { EngineOutput, EvmEngineInput } from './engines/context.ts';
import { contractSafety } from './engines/contractSafety.ts';
import { DeployerCache, deployer } from './engines/deployer.ts';
import { holders } from './engines/holders.ts';
import { honeypot } from './engines/honeypot.ts';
import { liquidity } from './engines/liquidity.ts';
import { trading } from './engines/trading.ts';
import { findCreation } from './evm/findCreation.ts';
import { toActivityFailure } from './failures.ts';
import { solanaHolders } from './solana/holdersEngine.ts';
import { solanaMint } from './solana/mintEngine.ts';

export interface ScannerDeps {
  chains: ChainClients;
  scans: ScanStore;
  /** Where each EVM scan's bytecode fingerprint is kept (for similar-token search); optional. */
  fingerprints?: TokenFingerprintStore | undefined;
  /** Allowlist, LP lockers and log-scan bounds; read from the environment when absent. */
  config?: ScanConfig;
}

export interface PrepareScanInput {
  chain: string;
  address: string;
}

export interface PreparedScan {
  target: ScanTarget;
  /** Decided here, recorded in history: replaying an old scan never runs a newer engine list. */
  engines: Engine[];
}

export interface EngineFailure {
  engine: Engine;
  reason: string;
  message: string;
}

export interface FinalizeScanInput {
  jobId: string;
  target: ScanTarget;
  reports: EngineReport[];
  failures: EngineFailure[];
  /** Providers skipped while preparing. */
  degraded?: string[];
}

const EMPTY_TOKEN: TokenFacts = { name: null, symbol: null, decimals: null, total_supply: null };
const CREATION_CACHE_LIMIT = 50_000;

/** The scanner pool's activities, built once per worker with its dependencies. */
export function createScannerActivities({
  chains,
  scans,
  fingerprints,
  config = readScanConfig(),
}: ScannerDeps) {
  const deployerCache = new DeployerCache(config.limits.SCAN_DEPLOYER_CACHE_SECONDS);
  // A contract's creation never changes: found once per process, reused by every later scan.
  const creations = new Map<string, Creation | null>();

  async function runEngine(
    engine: Engine,
    target: ScanTarget,
    run: () => Promise<EngineOutput>,
  ): Promise<EngineReport> {
    const started = performance.now();
    try {
      const output = await run();
      return {
        engine,
        status: 'ok',
        block: target.block,
        duration_ms: Math.round(performance.now() - started),
        checks: output.checks,
        facts: output.facts,
        degraded: chains.degraded(target.chain),
      };
    } catch (error) {
      throw toActivityFailure(error, chains.rpcUrls(target.chain));
    }
  }

  const evmInput = (target: ScanTarget): EvmEngineInput => ({
    client: chains.evm(target.chain),
    chain: getChain(target.chain as ChainId),
    address: getAddress(target.address),
    blockNumber: BigInt(target.block),
    creation: target.creation ?? null,
    config,
  });

  async function creationOf(target: ScanTarget): Promise<Creation | null> {
    const key = `${target.chain}:${target.address}`;
    const known = creations.get(key);
    if (known !== undefined) return known;
    const found =
      (await findCreation(chains.evm(target.chain), {
        address: getAddress(target.address),
        blockNumber: BigInt(target.block),
        logWindow: BigInt(config.limits.SCAN_LOG_WINDOW_BLOCKS),
      }).catch((error: unknown) => {
        // A provider without past state cannot answer; the engines that need it say so.
        if (error instanceof Error && /missing trie node|historical state|pruned/i.test(error.message))
          return undefined;
        throw error;
      })) ?? null;
    if (creations.size >= CREATION_CACHE_LIMIT) creations.clear();
    creations.set(key, found);
    return found;
  }

  return {
    /** Validates the target, pins the block (slot) every engine reads, finds its creation, picks the engines. */
    async prepareScan(input: PrepareScanInput): Promise<PreparedScan> {
      try {
        const checked = checkScanRequest(chains, input);
        const solana = checked.chain.kind === ChainKind.solana;
        const block = solana
          ? BigInt(await chains.solana(checked.chain.id).getSlot('confirmed'))
          : await chains.evm(checked.chain.id).getBlockNumber({ cacheTime: 0 });
        await assertScannable(chains, checked, block);
        const target: ScanTarget = {
          chain: checked.chain.id,
          address: checked.address,
          block: block.toString(),
        };
        if (!solana) target.creation = await creationOf(target);
        return { target, engines: [...enginesFor(checked.chain.kind)] };
      } catch (error) {
        throw toActivityFailure(error, chains.rpcUrls(input.chain));
      }
    },

    async scanContractSafety(target: ScanTarget): Promise<EngineReport> {
      return runEngine('contract_safety', target, () => contractSafety(evmInput(target)));
    },

    async scanHoneypot(target: ScanTarget): Promise<EngineReport> {
      return runEngine('honeypot', target, () => honeypot(evmInput(target)));
    },

    async scanLiquidity(target: ScanTarget): Promise<EngineReport> {
      return runEngine('liquidity', target, () => liquidity(evmInput(target)));
    },

    async scanHolders(target: ScanTarget): Promise<EngineReport> {
      return runEngine('holders', target, () => holders(evmInput(target)));
    },

    async scanDeployer(target: ScanTarget): Promise<EngineReport> {
      return runEngine('deployer', target, () => deployer(evmInput(target), deployerCache));
    },

    async scanTrading(target: ScanTarget): Promise<EngineReport> {
      return runEngine('trading', target, () => trading(evmInput(target)));
    },

    async scanSolanaMint(target: ScanTarget): Promise<EngineReport> {
      return runEngine('solana_mint', target, () =>
        solanaMint({
          connection: chains.solana(target.chain),
          mint: target.address,
          slot: BigInt(target.block),
        }),
      );
    },

    async scanSolanaHolders(target: ScanTarget): Promise<EngineReport> {
      return runEngine('solana_holders', target, () =>
        solanaHolders({
          connection: chains.solana(target.chain),
          mint: target.address,
          slot: BigInt(target.block),
        }),
      );
    },

    /** Scores the checks, stores the result (MongoDB + Redis cache) and returns it. */
    async finalizeScan({
      jobId,
      target,
      reports,
      failures,
      degraded = [],
    }: FinalizeScanInput): Promise<ScanResult> {
      const raw = [
        ...reports.flatMap((report) => report.checks),
        ...failures.flatMap((failure) =>
          ENGINE_CHECKS[failure.engine].map((id) =>
            unknownCheck(id, `The ${failure.engine} engine failed: ${failure.message}`),
          ),
        ),
      ];
      const allowlist = findChain(target.chain)
        ? allowlistEntry(config, target.chain, target.address)
        : undefined;
      const { checks, ...summary } = scoreToken(raw, allowlist ? { allowlist } : {});
      const engines: ScanResult['engines'] = {};
      const facts: ScanResult['facts'] = {};
      for (const report of reports) {
        engines[report.engine] = { status: 'ok', duration_ms: report.duration_ms };
        facts[report.engine] = report.facts;
      }
      for (const failure of failures) {
        engines[failure.engine] = {
          status: 'failed',
          duration_ms: 0,
          error: { reason: failure.reason, message: failure.message },
        };
      }
      const token = reports.map((report) => report.facts.token).find((value) => value !== undefined) as
        TokenFacts | undefined;
      const skipped = new Set([...degraded, ...reports.flatMap((report) => report.degraded ?? [])]);
      const result = ScanResult.parse({
        chain: target.chain,
        address: target.address,
        block_number: target.block,
        scanned_at: new Date().toISOString(),
        ...summary,
        checks,
        token: token ?? EMPTY_TOKEN,
        creation: target.creation ?? null,
        facts,
        engines,
        degraded_providers: [...skipped].sort(),
      });
      await scans.save(jobId, result);
      if (fingerprints && findChain(target.chain)?.kind === ChainKind.evm) {
        await recordFingerprint(chains, fingerprints, jobId, target, result).catch(() => undefined);
      }
      return result;
    },
  };
}

/**
 * The token's code fingerprint with its verdict, for similar-token search. Best effort: a scan is
 * never failed by it (its result is already stored).
 */
async function recordFingerprint(
  chains: ChainClients,
  store: TokenFingerprintStore,
  jobId: string,
  target: ScanTarget,
  result: ScanResult,
): Promise<void> {
  const code = await chains
    .evm(target.chain)
    .getCode({ address: getAddress(target.address), blockNumber: BigInt(target.block) });
  const fingerprint = code ? bytecodeFingerprint(code) : undefined;
  if (!fingerprint) return;
  await store.record({
    chain: target.chain,
    address: target.address,
    block_number: target.block,
    fingerprint,
    verdict: {
      risk_score: result.risk_score,
      tier: result.tier,
      flags: result.flags.map((check) => check.id),
      gates: result.gates,
      scanned_at: result.scanned_at,
      job_id: jobId,
    },
  });
}

export type ScannerActivities = ReturnType<typeof createScannerActivities>;
