import {
  continueAsNew,
  executeChild,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { ChaindataActivities } from '../activities/chaindata/index.ts';
import {
  backfillWorkflowId,
  type IndexChainInput,
  type IndexProgress,
  indexProgressQuery,
} from '../chaindata/core/messages.ts';
import { backfillRange } from './backfillRange.ts';

// Reads of the head, the stored hashes and the cursor are quick: local activities. An RPC that is
// down is retried with backoff for as long as it takes: a follower waits for its chain.
const reads = proxyLocalActivities<ChaindataActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});
// Writing a range fetches and writes many blocks: a regular activity with a longer budget.
const writes = proxyActivities<ChaindataActivities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

const DEFAULT_PASSES_PER_RUN = 200;

/**
 * Follows one chain's head for ever: each pass re-checks the last `confirmations` indexed blocks
 * against the chain (a changed hash rewinds to the fork and re-indexes), then indexes what is new,
 * handing a wide gap (the first run from genesis, a long outage) to a child backfill workflow.
 * It continues as new every few hundred passes, carrying its cursor.
 */
export async function indexChain(input: IndexChainInput): Promise<void> {
  const progress: IndexProgress = {
    chain: input.chain,
    stage: 'starting',
    cursor: input.cursor ?? null,
    head: null,
    lag_blocks: null,
    reorgs: input.reorgs ?? 0,
    last_reorg: null,
    backfill: null,
  };
  setHandler(indexProgressQuery, () => progress);
  const chain = { chain: input.chain };
  let cursor = input.cursor ?? (await reads.lastIndexed(chain)) ?? input.startBlock - 1;
  progress.cursor = cursor < input.startBlock ? null : cursor;

  const passes = input.passesPerRun ?? DEFAULT_PASSES_PER_RUN;
  for (let pass = 0; pass < passes; pass++) {
    const head = await reads.chainHead(chain);
    progress.head = head;
    const fork = await reads.findFork({ ...chain, depth: input.confirmations });
    if (fork !== null) {
      progress.stage = 'rewinding';
      const resumeFrom = await writes.rewind({ ...chain, block: fork });
      cursor = resumeFrom - 1;
      progress.reorgs += 1;
      progress.last_reorg = { fork_block: fork, resumed_from: resumeFrom };
    }
    if (head - cursor > input.backfillThresholdBlocks) {
      progress.stage = 'backfilling';
      const from = cursor + 1;
      const workflowId = backfillWorkflowId(workflowInfo().workflowId, from, head);
      progress.backfill = { workflow_id: workflowId, from, to: head };
      await executeChild(backfillRange, {
        workflowId,
        taskQueue: workflowInfo().taskQueue,
        args: [{ chain: input.chain, from, to: head, chunkBlocks: input.chunkBlocks }],
      });
      cursor = head;
      progress.backfill = null;
    } else {
      while (cursor < head) {
        const to = Math.min(head, cursor + input.chunkBlocks);
        const summary = await writes.indexRange({ ...chain, from: cursor + 1, to });
        cursor = Math.max(to, summary.to);
        progress.cursor = cursor;
      }
    }
    progress.stage = 'following';
    progress.cursor = cursor;
    progress.lag_blocks = Math.max(0, head - cursor);
    await sleep(input.pollMs);
  }
  await continueAsNew<typeof indexChain>({ ...input, cursor, reorgs: progress.reorgs });
}
