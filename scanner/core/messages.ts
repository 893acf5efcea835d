import { defineQuery } from '@temporalio/workflow';

/** Shared by the scanToken workflow and the API that queries it. */
export const EngineState = {
  pending: 'pending',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
} as const;
export type EngineState = (typeof EngineState)[keyof typeof EngineState];

export const ScanStage = {
  preparing: 'preparing',
  scanning: 'scanning',
  scoring: 'scoring',
  done: 'done',
} as const;
export type ScanStage = (typeof ScanStage)[keyof typeof ScanStage];

interface EngineProgress {
  status: EngineState;
  duration_ms?: number;
  error?: { reason: string; message: string };
}

export interface ScanProgress {
  stage: ScanStage;
  /** Block every engine reads, once pinned. */
  block?: string;
  engines: Record<string, EngineProgress>;
}

export const scanProgressQuery = defineQuery<ScanProgress>('scanProgress');

export interface ScanTokenInput {
  chain: string;
  address: string;
}
