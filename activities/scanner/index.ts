import { Engine } from '../../scanner/core/engines.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import type { EngineReport, ScanTarget } from '../../scanner/core/schema.ts';
import type { FinalizeScanInput, PreparedScan } from '../../scanner/core/steps.ts';
import { type ScannerDeps, TokenScanner } from '../../scanner/scanner.ts';
import type { ScanRequestTarget } from '../../scanner/target.ts';
import { toActivityFailure } from './failures.ts';

/**
 * The scanner pool's activities, built once per worker: each step of the token scanner, with
 * what it throws turned into an ApplicationFailure whose type is the reason (permanent refusals
 * non-retryable). The names are recorded in workflow histories: never rename one.
 */
export function createScannerActivities(deps: ScannerDeps) {
  const scanner = new TokenScanner(deps);
  const adapt = async <T>(chain: string, step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      throw toActivityFailure(error, deps.chains.rpcUrls(chain));
    }
  };
  const engine =
    (name: Engine) =>
    (target: ScanTarget): Promise<EngineReport> =>
      adapt(target.chain, () => scanner.runEngine(name, target));
  return {
    prepareScan: (input: ScanRequestTarget): Promise<PreparedScan> =>
      adapt(input.chain, () => scanner.prepare(input)),
    scanContractSafety: engine(Engine.contractSafety),
    scanHoneypot: engine(Engine.honeypot),
    scanLiquidity: engine(Engine.liquidity),
    scanHolders: engine(Engine.holders),
    scanDeployer: engine(Engine.deployer),
    scanTrading: engine(Engine.trading),
    scanSolanaMint: engine(Engine.solanaMint),
    scanSolanaHolders: engine(Engine.solanaHolders),
    // Storing is retried by its own policy; its failures carry no chain reason.
    finalizeScan: (input: FinalizeScanInput): Promise<ScanResult> => scanner.finalize(input),
  };
}

export type ScannerActivities = ReturnType<typeof createScannerActivities>;
