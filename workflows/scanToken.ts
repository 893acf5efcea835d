import {
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  patched,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ScannerActivities } from '../activities/scanner/index.ts';
import { Reason } from '../core/errors/reasons.ts';
import type { Engine } from '../scanner/core/engines.ts';
import { SCAN_REFUSALS } from '../scanner/core/refusals.ts';
import type { ScanResult } from '../scanner/core/result.ts';
import type { EngineReport, ScanTarget } from '../scanner/core/schema.ts';
import type { EngineFailure, PreparedScan } from '../scanner/core/steps.ts';
import { SearchAttr } from '../core/temporal/searchAttributes.ts';
import { formatJobId } from '../core/temporal/jobIds.ts';
import {
  EngineState,
  type ScanProgress,
  scanProgressQuery,
  ScanStage,
  type ScanTokenInput,
} from '../scanner/core/messages.ts';

// Pinning the block is two quick chain reads: a local activity (no scheduling round trip, the
// result is recorded in the workflow task). A few attempts, so an unreachable chain fails the job
// with a clear reason within seconds instead of hanging.
const CHAIN_READ_RETRY = {
  initialInterval: '250ms',
  backoffCoefficient: 2,
  maximumInterval: '2s',
  maximumAttempts: 4,
  nonRetryableErrorTypes: [...SCAN_REFUSALS],
};
const { prepareScan } = proxyLocalActivities<ScannerActivities>({
  startToCloseTimeout: '10s',
  retry: CHAIN_READ_RETRY,
});

// Engines are read-only and idempotent: retry transient RPC failures a few times, then report the
// engine as failed (its checks become unknown) rather than failing the whole scan.
// They run as local activities, in the worker that holds the workflow task: a scan is then one
// workflow task (pin, six engines in parallel, store) instead of three plus six dispatched
// activity tasks, which measured 2–3× faster through the API (docs/benchmarks.md). What it
// costs: an engine's progress shows when the task completes rather than live, and a worker that
// dies mid-scan loses the engines it finished (another worker runs the task again; reads are
// idempotent). Engines stay well under the timeout: their reads are bounded (SCAN_* limits).
const engines = proxyLocalActivities<ScannerActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '250ms',
    backoffCoefficient: 2,
    maximumInterval: '2s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: [...SCAN_REFUSALS],
  },
});

// Storing is an upsert keyed by job id, done locally like the block pin: safe to retry for as
// long as a store needs to come back.
const { finalizeScan } = proxyLocalActivities<ScannerActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 20 },
});

// The whole scan as one local activity (runScan): one marker in the history instead of eight,
// measured at about 40 ms off every scan through the API on the embedded dev server
// (docs/benchmarks.md). The engines still run side by side, each retried in the activity as the
// per-engine policy above retried it; storing is retried inside the step, and a step that still
// fails is retried whole by this policy (the reads are idempotent, the store an upsert by job
// id). Scans started before the patch replay on the per-step path below.
const SINGLE_STEP_PATCH = 'scan-single-step';
const { runScan } = proxyLocalActivities<ScannerActivities>({
  // Engines are bounded (SCAN_* limits); storing retries inside for about half a minute. Power
  // discovery is bounded in calls, not time: a token whose probe steps are heavy (vigil-risk/53)
  // took 90 s of discovery on the wild set's bench, four scans at once on one devnet, so an attempt
  // has twice that before it is retried.
  startToCloseTimeout: '180s',
  // As the block pin's: an unreachable chain fails the job within seconds.
  retry: CHAIN_READ_RETRY,
});

const ENGINE_ACTIVITIES: Record<Engine, (target: ScanTarget) => Promise<EngineReport>> = {
  contract_safety: engines.scanContractSafety,
  honeypot: engines.scanHoneypot,
  liquidity: engines.scanLiquidity,
  holders: engines.scanHolders,
  deployer: engines.scanDeployer,
  trading: engines.scanTrading,
  solana_mint: engines.scanSolanaMint,
  solana_holders: engines.scanSolanaHolders,
};

/** A token risk scan: pin a block, run the engines in parallel, score, store. */
export async function scanToken(input: ScanTokenInput): Promise<ScanResult> {
  const progress: ScanProgress = { stage: ScanStage.preparing, engines: {} };
  setHandler(scanProgressQuery, () => progress);

  if (patched(SINGLE_STEP_PATCH)) {
    progress.stage = ScanStage.scanning;
    let result: ScanResult;
    try {
      result = await runScan({ request: input, jobId: formatJobId(workflowInfo()) });
    } catch (error) {
      throw asJobFailure(error);
    }
    progress.block = result.block_number;
    for (const [engine, outcome] of Object.entries(result.engines))
      progress.engines[engine as Engine] =
        outcome.status === 'ok'
          ? { status: EngineState.completed, duration_ms: outcome.duration_ms }
          : {
              status: EngineState.failed,
              ...(outcome.error ? { error: outcome.error } : {}),
            };
    upsertSearchAttributes([{ key: SearchAttr.RiskTier, value: result.tier }]);
    progress.stage = ScanStage.done;
    return result;
  }

  let prepared: PreparedScan;
  try {
    prepared = await prepareScan(input);
  } catch (error) {
    throw asJobFailure(error);
  }
  const { target } = prepared;
  progress.block = target.block;
  progress.stage = ScanStage.scanning;
  for (const engine of prepared.engines) progress.engines[engine] = { status: EngineState.pending };

  const failures: EngineFailure[] = [];
  const outcomes = await Promise.all(
    prepared.engines.map(async (engine) => {
      progress.engines[engine] = { status: EngineState.running };
      try {
        const report = await ENGINE_ACTIVITIES[engine](target);
        progress.engines[engine] = { status: EngineState.completed, duration_ms: report.duration_ms };
        return report;
      } catch (error) {
        if (isCancellation(error)) throw error;
        const failure = { engine, ...reasonOf(error) };
        failures.push(failure);
        progress.engines[engine] = {
          status: EngineState.failed,
          error: { reason: failure.reason, message: failure.message },
        };
        return undefined;
      }
    }),
  );
  const reports = outcomes.filter((report): report is EngineReport => report !== undefined);
  if (reports.length === 0) {
    const first = failures[0];
    throw ApplicationFailure.create({
      type: first?.reason ?? Reason.allEnginesFailed,
      message: `Every engine failed. ${first ? first.message : ''}`.trim(),
      nonRetryable: true,
    });
  }

  progress.stage = ScanStage.scoring;
  const info = workflowInfo();
  const result = await finalizeScan({ jobId: formatJobId(info), target, reports, failures });
  upsertSearchAttributes([{ key: SearchAttr.RiskTier, value: result.tier }]);
  progress.stage = ScanStage.done;
  return result;
}

function reasonOf(error: unknown): { reason: string; message: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) {
    return { reason: cause.type ?? Reason.engineError, message: cause.message };
  }
  if (cause instanceof Error) return { reason: Reason.engineError, message: cause.message };
  return { reason: Reason.engineError, message: String(cause) };
}

/** The job fails with the activity's own reason as its type, so callers see why. */
function asJobFailure(error: unknown): unknown {
  if (isCancellation(error)) return error;
  const { reason, message } = reasonOf(error);
  return ApplicationFailure.create({ type: reason, message, nonRetryable: true });
}
