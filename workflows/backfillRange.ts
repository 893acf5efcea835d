import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { ChaindataActivities } from '../activities/chaindata/index.ts';
import {
  type BackfillProgress,
  type BackfillRangeInput,
  backfillProgressQuery,
} from '../chaindata/core/messages.ts';

const { indexRange } = proxyActivities<ChaindataActivities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 20 },
});

const DEFAULT_PARALLEL = 2;

/**
 * Indexes a block range in chunks, a few at once, with its progress as a query. Each chunk is its
 * own activity, so a worker lost mid-range costs one chunk, and re-running the workflow rewrites
 * the same chunk files (rows written once).
 */
export async function backfillRange(input: BackfillRangeInput): Promise<BackfillProgress> {
  const total = input.to - input.from + 1;
  const progress: BackfillProgress = {
    chain: input.chain,
    from: input.from,
    to: input.to,
    done_blocks: 0,
    total_blocks: total,
    rows: 0,
    logs: 0,
  };
  setHandler(backfillProgressQuery, () => progress);
  const chunks: { from: number; to: number }[] = [];
  for (let from = input.from; from <= input.to; from += input.chunkBlocks)
    chunks.push({ from, to: Math.min(input.to, from + input.chunkBlocks - 1) });
  let next = 0;
  const lane = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++];
      if (!chunk) return;
      const summary = await indexRange({ chain: input.chain, ...chunk });
      progress.done_blocks += chunk.to - chunk.from + 1;
      progress.logs += summary.logs;
      progress.rows += Object.values(summary.rows).reduce((sum, count) => sum + count, 0);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.parallel ?? DEFAULT_PARALLEL) }, lane));
  return progress;
}
