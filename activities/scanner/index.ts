import { getAddress } from 'viem';
import type { ChainClients } from '../../core/chains/chainClients.ts';
import { findChain } from '../../core/chains/registry.ts';
import { unknownCheck } from '../../core/scan/checks.ts';
import { type Engine, ENGINE_CHECKS, enginesFor } from '../../core/scan/engines.ts';
import { assertContract, checkScanRequest } from '../../core/scan/resolveTarget.ts';
import { ScanResult, type TokenFacts } from '../../core/scan/result.ts';
import type { EngineReport, ScanTarget } from '../../core/scan/schema.ts';
import { scoreToken } from '../../core/risk/score.ts';
import type { ScanStore } from '../../core/stores/scans.ts';
import { contractSafety, type EngineOutput } from './engines/contractSafety.ts';
import { honeypot } from './engines/honeypot.ts';
import { toActivityFailure } from './failures.ts';

export interface ScannerDeps {
  chains: ChainClients;
  scans: ScanStore;
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
}

const EMPTY_TOKEN: TokenFacts = { name: null, symbol: null, decimals: null, total_supply: null };

/** The scanner pool's activities, built once per worker with its dependencies. */
export function createScannerActivities({ chains, scans }: ScannerDeps) {
  async function runEngine(
    engine: Engine,
    target: ScanTarget,
    run: (input: { address: `0x${string}`; blockNumber: bigint }) => Promise<EngineOutput>,
  ): Promise<EngineReport> {
    const started = performance.now();
    try {
      const output = await run({ address: getAddress(target.address), blockNumber: BigInt(target.block) });
      return {
        engine,
        status: 'ok',
        block: target.block,
        duration_ms: Math.round(performance.now() - started),
        checks: output.checks,
        facts: output.facts,
      };
    } catch (error) {
      throw toActivityFailure(error, chains.rpcUrls(target.chain));
    }
  }

  return {
    /** Validates the target, pins the block every engine reads, and picks the engines. */
    async prepareScan(input: PrepareScanInput): Promise<PreparedScan> {
      try {
        const checked = checkScanRequest(chains, input);
        const block = await checked.client.getBlockNumber({ cacheTime: 0 });
        await assertContract(checked, block);
        return {
          target: { chain: checked.chain.id, address: checked.address, block: block.toString() },
          engines: [...enginesFor(checked.chain.kind)],
        };
      } catch (error) {
        throw toActivityFailure(error, chains.rpcUrls(input.chain));
      }
    },

    async scanContractSafety(target: ScanTarget): Promise<EngineReport> {
      return runEngine('contract_safety', target, (input) => contractSafety(chains.evm(target.chain), input));
    },

    async scanHoneypot(target: ScanTarget): Promise<EngineReport> {
      const chain = findChain(target.chain);
      return runEngine('honeypot', target, (input) =>
        honeypot(chains.evm(target.chain), chain?.dexes ?? [], input),
      );
    },

    /** Scores the checks, stores the result (MongoDB + Redis cache) and returns it. */
    async finalizeScan({ jobId, target, reports, failures }: FinalizeScanInput): Promise<ScanResult> {
      const checks = [
        ...reports.flatMap((report) => report.checks),
        ...failures.flatMap((failure) =>
          ENGINE_CHECKS[failure.engine].map((id) =>
            unknownCheck(id, `The ${failure.engine} engine failed: ${failure.message}`),
          ),
        ),
      ];
      const summary = scoreToken(checks);
      const engines: ScanResult['engines'] = {};
      for (const report of reports)
        engines[report.engine] = { status: 'ok', duration_ms: report.duration_ms };
      for (const failure of failures) {
        engines[failure.engine] = {
          status: 'failed',
          duration_ms: 0,
          error: { reason: failure.reason, message: failure.message },
        };
      }
      const token = reports.map((report) => report.facts.token).find((value) => value !== undefined) as
        TokenFacts | undefined;
      const result = ScanResult.parse({
        chain: target.chain,
        address: target.address,
        block_number: target.block,
        scanned_at: new Date().toISOString(),
        ...summary,
        checks,
        token: token ?? EMPTY_TOKEN,
        engines,
      });
      await scans.save(jobId, result);
      return result;
    },
  };
}

export type ScannerActivities = ReturnType<typeof createScannerActivities>;
