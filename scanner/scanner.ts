import { getAddress } from 'viem';
import type { ChainClients } from '../clients/chains/chainClients.ts';
import { isHistoricalStateError } from '../clients/chains/rpcErrors.ts';
import { ChainKind, type ChainId, findChain, getChain } from '../core/chains/registry.ts';
import { allowlistEntry, readScanConfig, type ScanConfig } from './config.ts';
import { Engine, enginesFor, failedEngineChecks } from './core/engines.ts';
import { ScanResult, type TokenFacts } from './core/result.ts';
import { HARM_GATES } from './core/risk/harm.ts';
import { scoreToken } from './core/risk/score.ts';
import type { Creation, EngineReport, ScanTarget } from './core/schema.ts';
import type { FinalizeScanInput, PreparedScan } from './core/steps.ts';
import type { EngineOutput, EvmEngineInput, SolanaEngineInput } from './engines/context.ts';
import { contractSafety } from './engines/contractSafety.ts';
import { DeployerCache, deployer } from './engines/deployer.ts';
import { holders } from './engines/holders.ts';
import { honeypot } from './engines/honeypot.ts';
import { liquidity } from './engines/liquidity.ts';
import { trading } from './engines/trading.ts';
import { findCreation } from './evm/findCreation.ts';
import { bytecodeFingerprint } from './fingerprint/bytecodeFingerprint.ts';
import type { TokenFingerprintStore } from './fingerprint/fingerprintStore.ts';
import type { ScanStore } from './scanStore.ts';
import { solanaHolders } from './solana/holdersEngine.ts';
import { solanaMint } from './solana/mintEngine.ts';
import { assertScannable, checkScanRequest, type ScanRequestTarget } from './target.ts';

export interface ScannerDeps {
  chains: ChainClients;
  scans: ScanStore;
  /** Where each EVM scan's bytecode fingerprint is kept with its verdict (similar-token search). */
  fingerprints?: TokenFingerprintStore | undefined;
  /** Allowlist, LP lockers and log-scan bounds; read from the environment when absent. */
  config?: ScanConfig;
}

const EMPTY_TOKEN: TokenFacts = { name: null, symbol: null, decimals: null, total_supply: null };
const CREATION_CACHE_LIMIT = 50_000;

/**
 * The token scanner of one process: the scan's steps (prepare, each engine, finalize) over the
 * chain clients and the scan store, with the caches that outlive a scan (deployer reputations,
 * contract creations). Framework-free: the scanner activities adapt it to Temporal; benchmarks
 * and engine tests call it directly.
 */
export class TokenScanner {
  readonly #chains: ChainClients;
  readonly #scans: ScanStore;
  readonly #fingerprints: TokenFingerprintStore | undefined;
  readonly #config: ScanConfig;
  readonly #deployerCache: DeployerCache;
  /** A contract's creation never changes: found once per process, reused by every later scan. */
  readonly #creations = new Map<string, Creation | null>();

  constructor({ chains, scans, fingerprints, config = readScanConfig() }: ScannerDeps) {
    this.#chains = chains;
    this.#scans = scans;
    this.#fingerprints = fingerprints;
    this.#config = config;
    this.#deployerCache = new DeployerCache(config.limits.SCAN_DEPLOYER_CACHE_SECONDS);
  }

  /** Checks the target, pins the block (slot) every engine reads, finds its creation, picks the engines. */
  async prepare(request: ScanRequestTarget): Promise<PreparedScan> {
    const checked = checkScanRequest(this.#chains, request);
    const solana = checked.chain.kind === ChainKind.solana;
    const block = solana
      ? BigInt(await this.#chains.solana(checked.chain.id).getSlot('confirmed'))
      : await this.#chains.evm(checked.chain.id).getBlockNumber({ cacheTime: 0 });
    await assertScannable(this.#chains, checked, block);
    const target: ScanTarget = { chain: checked.chain.id, address: checked.address, block: block.toString() };
    if (!solana) target.creation = await this.#creationOf(target);
    return { target, engines: [...enginesFor(checked.chain.kind)] };
  }

  /** Runs one engine against the pinned target; failures are thrown as they come. */
  async runEngine(engine: Engine, target: ScanTarget): Promise<EngineReport> {
    const started = performance.now();
    const output = await this.#run(engine, target);
    return {
      engine,
      status: 'ok',
      block: target.block,
      duration_ms: Math.round(performance.now() - started),
      checks: output.checks,
      facts: output.facts,
      degraded: this.#chains.degraded(target.chain),
    };
  }

  /** Scores the checks, stores the result (MongoDB + Redis cache) and returns it. */
  async finalize({
    jobId,
    target,
    reports,
    failures,
    degraded = [],
  }: FinalizeScanInput): Promise<ScanResult> {
    const raw = [
      ...reports.flatMap((report) => report.checks),
      ...failures.flatMap((failure) => failedEngineChecks(failure.engine, failure.message)),
    ];
    const allowlist = findChain(target.chain)
      ? allowlistEntry(this.#config, target.chain, target.address)
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
    // The code fingerprint is recorded beside the result, not after it (one round of writes on
    // the scan's critical path). Best effort: a fingerprint that cannot be read never fails it.
    const fingerprints = this.#fingerprints;
    await Promise.all([
      this.#scans.save(jobId, result),
      fingerprints && findChain(target.chain)?.kind === ChainKind.evm
        ? this.#recordFingerprint(fingerprints, jobId, target, result).catch(() => undefined)
        : undefined,
    ]);
    return result;
  }

  /** The token's code fingerprint with its verdict, for similar-token search and clone evidence. */
  async #recordFingerprint(
    store: TokenFingerprintStore,
    jobId: string,
    target: ScanTarget,
    result: ScanResult,
  ): Promise<void> {
    const code = await this.#chains
      .evm(target.chain)
      .getCode({ address: getAddress(target.address), blockNumber: BigInt(target.block) });
    const fingerprint = code ? bytecodeFingerprint(code) : undefined;
    if (!fingerprint) return;
    await store.record(
      {
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
      },
      result.gates.some((gate) => (HARM_GATES as readonly string[]).includes(gate)),
    );
  }

  #run(engine: Engine, target: ScanTarget): Promise<EngineOutput> {
    switch (engine) {
      case Engine.contractSafety:
        return contractSafety(this.#evmInput(target));
      case Engine.honeypot:
        return honeypot(this.#evmInput(target));
      case Engine.liquidity:
        return liquidity(this.#evmInput(target));
      case Engine.holders:
        return holders(this.#evmInput(target));
      case Engine.deployer:
        return deployer(this.#evmInput(target), this.#deployerCache);
      case Engine.trading:
        return trading(this.#evmInput(target));
      case Engine.solanaMint:
        return solanaMint(this.#solanaInput(target));
      case Engine.solanaHolders:
        return solanaHolders(this.#solanaInput(target));
    }
  }

  #evmInput(target: ScanTarget): EvmEngineInput {
    const fingerprints = this.#fingerprints;
    return {
      client: this.#chains.evm(target.chain),
      chain: getChain(target.chain as ChainId),
      address: getAddress(target.address),
      blockNumber: BigInt(target.block),
      creation: target.creation ?? null,
      config: this.#config,
      harmfulTwins: fingerprints
        ? async (codeHash) =>
            (
              await fingerprints.harmfulTwins(codeHash, {
                chain: target.chain,
                address: target.address,
              })
            ).map((record) => ({ ...record }))
        : undefined,
    };
  }

  #solanaInput(target: ScanTarget): SolanaEngineInput {
    return {
      connection: this.#chains.solana(target.chain),
      mint: target.address,
      slot: BigInt(target.block),
    };
  }

  async #creationOf(target: ScanTarget): Promise<Creation | null> {
    const key = `${target.chain}:${target.address}`;
    const known = this.#creations.get(key);
    if (known !== undefined) return known;
    const found =
      (await findCreation(this.#chains.evm(target.chain), {
        address: getAddress(target.address),
        blockNumber: BigInt(target.block),
        logWindow: BigInt(this.#config.limits.SCAN_LOG_WINDOW_BLOCKS),
      }).catch((error: unknown) => {
        // A provider without past state cannot answer: the deployer engine, which needs the
        // creation, reports its checks unknown; the scan goes on.
        if (isHistoricalStateError(error)) return undefined;
        throw error;
      })) ?? null;
    if (this.#creations.size >= CREATION_CACHE_LIMIT) this.#creations.clear();
    this.#creations.set(key, found);
    return found;
  }
}
