// Starts (or joins) the chain followers: `npm run indexer -- devnet ethereum`. `npm start` calls
// startIndexers for INDEXER_CHAINS once the workers are up.
import { Client, Connection } from '@temporalio/client';
import { z } from 'zod';
import { IntEnv, parseEnv } from '../../core/config/env.ts';
import type { IndexChainInput } from '../../chaindata/core/messages.ts';
import { indexWorkflowId } from '../../chaindata/core/messages.ts';
import { JobKind, SearchAttr } from '../../core/temporal/searchAttributes.ts';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';

/** How followers index; one setting for every chain they are started for. */
export const IndexerEnv = z.object({
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TASK_QUEUE_PREFIX: z.string().max(64).default(''),
  /** Chains to follow (registry slugs); `npm start` follows the devnet. */
  INDEXER_CHAINS: z.string().default('devnet'),
  /** First block when nothing is indexed yet (a mainnet follower starts near its head, say). */
  INDEXER_START_BLOCK: IntEnv(0, Number.MAX_SAFE_INTEGER).default(0),
  INDEXER_CONFIRMATIONS: IntEnv(0, 1_000).default(12),
  INDEXER_CHUNK_BLOCKS: IntEnv(1, 100_000).default(500),
  INDEXER_BACKFILL_THRESHOLD_BLOCKS: IntEnv(1, 10_000_000).default(2_000),
  INDEXER_POLL_MS: IntEnv(50, 600_000).default(2_000),
});
export type IndexerEnv = z.infer<typeof IndexerEnv>;

export function followerInput(env: IndexerEnv, chain: string): IndexChainInput {
  return {
    chain,
    startBlock: env.INDEXER_START_BLOCK,
    confirmations: env.INDEXER_CONFIRMATIONS,
    chunkBlocks: env.INDEXER_CHUNK_BLOCKS,
    backfillThresholdBlocks: env.INDEXER_BACKFILL_THRESHOLD_BLOCKS,
    pollMs: env.INDEXER_POLL_MS,
  };
}

/**
 * Starts the follower of each chain; one already running is joined, not doubled. `idPrefix` lets
 * deployments (or tests) that share a namespace follow the same chain separately.
 */
export async function startIndexers(
  client: Client,
  taskQueue: string,
  inputs: IndexChainInput[],
  idPrefix = '',
): Promise<string[]> {
  return Promise.all(
    inputs.map(async (input) => {
      const handle = await client.workflow.start('indexChain', {
        taskQueue,
        workflowId: `${idPrefix}${indexWorkflowId(input.chain)}`,
        workflowIdConflictPolicy: 'USE_EXISTING',
        args: [input],
        typedSearchAttributes: [
          { key: SearchAttr.JobKind, value: JobKind.chainIndex },
          { key: SearchAttr.Chain, value: input.chain },
        ],
      });
      return handle.workflowId;
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = parseEnv(IndexerEnv);
  const chains = process.argv.slice(2).length > 0 ? process.argv.slice(2) : env.INDEXER_CHAINS.split(',');
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS });
  const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
  const ids = await startIndexers(
    client,
    taskQueueName(TaskQueue.ingest, env.TASK_QUEUE_PREFIX),
    chains.map((chain) => followerInput(env, chain.trim())),
    env.TASK_QUEUE_PREFIX,
  );
  console.log(`following: ${ids.join(', ')}`);
  await connection.close();
}
