import type { Engine } from './engines.ts';
import type { EngineReport, ScanTarget } from './schema.ts';

/** The scan's first step: the target as checked, pinned at a block, and the engines to run. */
export interface PreparedScan {
  target: ScanTarget;
  /** Decided here, recorded in history: replaying an old scan never runs a newer engine list. */
  engines: Engine[];
}

/** An engine that failed after its retries: its checks are reported as unknown. */
export interface EngineFailure {
  engine: Engine;
  reason: string;
  message: string;
}

/** The scan's last step: score what the engines found and store it. */
export interface FinalizeScanInput {
  jobId: string;
  target: ScanTarget;
  reports: EngineReport[];
  failures: EngineFailure[];
  /** Providers skipped while preparing. */
  degraded?: string[];
}
