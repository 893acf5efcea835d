import { defineQuery } from '@temporalio/workflow';

/** Shared by the indexing workflows, the API that reads their progress and the launcher that starts them. */

export interface IndexChainInput {
  chain: string;
  /** Where to start when nothing is indexed yet (0: genesis). */
  startBlock: number;
  /** Blocks behind the head that are re-checked for reorgs on every pass. */
  confirmations: number;
  /** Blocks per indexRange call. */
  chunkBlocks: number;
  /** A gap behind the head wider than this is filled by a child backfill workflow. */
  backfillThresholdBlocks: number;
  /** Pause between passes once caught up. */
  pollMs: number;
  /** Passes before the workflow continues as new (bounds its history). */
  passesPerRun?: number;
  /** Carried across continue-as-new: the last indexed block and the reorgs seen so far. */
  cursor?: number | null;
  reorgs?: number;
}

export interface IndexProgress {
  chain: string;
  stage: 'starting' | 'backfilling' | 'following' | 'rewinding';
  /** Last indexed block (null before the first range). */
  cursor: number | null;
  head: number | null;
  lag_blocks: number | null;
  reorgs: number;
  last_reorg: { fork_block: number; resumed_from: number } | null;
  backfill: { workflow_id: string; from: number; to: number } | null;
}

export const indexProgressQuery = defineQuery<IndexProgress>('indexProgress');

export interface BackfillRangeInput {
  chain: string;
  from: number;
  to: number;
  chunkBlocks: number;
  /** Chunks indexed at once. */
  parallel?: number;
}

export interface BackfillProgress {
  chain: string;
  from: number;
  to: number;
  /** Blocks indexed so far and the total. */
  done_blocks: number;
  total_blocks: number;
  rows: number;
  logs: number;
}

export const backfillProgressQuery = defineQuery<BackfillProgress>('backfillProgress');

export function indexWorkflowId(chain: string): string {
  return `index:${chain}`;
}

/** A follower's backfill child: named after its parent, so separate followers never clash. */
export function backfillWorkflowId(parentWorkflowId: string, from: number, to: number): string {
  return `${parentWorkflowId}:backfill:${from}-${to}`;
}
