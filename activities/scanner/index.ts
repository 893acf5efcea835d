import { SpanStatusCode, trace } from '@opentelemetry/api';
import { ApplicationFailure } from '@temporalio/common';
import { Reason } from '../../core/errors/reasons.ts';
import { Engine } from '../../scanner/core/engines.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import type { EngineReport, ScanTarget } from '../../scanner/core/schema.ts';
import type { EngineFailure, FinalizeScanInput, PreparedScan } from '../../scanner/core/steps.ts';
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
    /**
     * The whole scan as one step (the scan workflow's path since the `scan-single-step` patch):
     * pin the block, run the engines side by side (each retried twice when its failure is
     * transient; one that still fails is reported, its checks unknown), score and store. One local
     * activity costs one marker instead of eight, about 40 ms off every scan through the API
     * (docs/benchmarks.md); the engines' outcomes are in the result.
     */
    runScan: async ({ request, jobId }: RunScanInput): Promise<ScanResult> => {
      const { target, engines } = await step('scan.prepare', () =>
        adapt(request.chain, () => scanner.prepare(request)),
      );
      const failures: EngineFailure[] = [];
      const outcomes = await Promise.all(
        engines.map(async (name) => {
          try {
            return await step(`scan.engine:${name}`, () =>
              retrying(() => engine(name)(target), ENGINE_RETRY),
            );
          } catch (error) {
            const failure = toActivityFailure(error, deps.chains.rpcUrls(target.chain));
            failures.push({
              engine: name,
              reason: failure.type ?? Reason.engineError,
              message: failure.message,
            });
            return undefined;
          }
        }),
      );
      const reports = outcomes.filter((report): report is EngineReport => report !== undefined);
      const first = failures[0];
      if (reports.length === 0)
        throw ApplicationFailure.create({
          type: first?.reason ?? Reason.allEnginesFailed,
          message: `Every engine failed. ${first ? first.message : ''}`.trim(),
          nonRetryable: true,
        });
      return step('scan.finalize', () =>
        retrying(() => scanner.finalize({ jobId, target, reports, failures }), STORE_RETRY),
      );
    },
  };
}

export interface RunScanInput {
  request: ScanRequestTarget;
  /** The job id results are stored under (the workflow's). */
  jobId: string;
}

/** Engine attempts in one step: three, 250 ms and 500 ms apart, as the per-engine policy had. */
const ENGINE_RETRY: Retry = { attempts: 3, firstDelayMs: 250, maxDelayMs: 500, permanent: isPermanent };
/** Storing is retried here for about half a minute (a store restarting), then fails the step. */
const STORE_RETRY: Retry = { attempts: 8, firstDelayMs: 500, maxDelayMs: 5_000, permanent: () => false };

interface Retry {
  attempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
  permanent: (error: unknown) => boolean;
}

function isPermanent(error: unknown): boolean {
  return error instanceof ApplicationFailure && error.nonRetryable === true;
}

/** Tries `work` until it succeeds, fails permanently or runs out of attempts, backing off ×2. */
async function retrying<T>(work: () => Promise<T>, retry: Retry): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (retry.permanent(error) || attempt >= retry.attempts) throw error;
      await sleep(Math.min(retry.firstDelayMs * 2 ** (attempt - 1), retry.maxDelayMs));
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tracer = trace.getTracer('vigil');

/** A span for one part of the single-step scan, so the trace still shows each engine. */
function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

export type ScannerActivities = ReturnType<typeof createScannerActivities>;
