import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { IndexProgress } from '../../chaindata/core/messages.ts';
import { indexProgressQuery, indexWorkflowId } from '../../chaindata/core/messages.ts';
import type { LocationLike } from '../../chaindata/storage/location.ts';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';
import { startIndexers } from '../../infra/stack/indexers.ts';
import { until } from './until.ts';

/** A fresh chain-data root for one test. */
export function chaindataDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'vigil-chaindata-'));
}

/**
 * The follower's settings in tests: a small chunk and threshold so a first pass from genesis hands
 * its range to a child backfill, and a short poll.
 */
const FOLLOWER_SETTINGS = { confirmations: 6, chunkBlocks: 50, backfillThresholdBlocks: 100, pollMs: 200 };

/** Starts the devnet follower on the test's ingest queue and returns a way to read its progress. */
export async function followDevnet(
  env: Record<string, string>,
  overrides: Partial<typeof FOLLOWER_SETTINGS> = {},
) {
  const settings = { ...FOLLOWER_SETTINGS, ...overrides };
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS ?? '' });
  const client = new Client({ connection });
  const taskQueue = taskQueueName(TaskQueue.ingest, env.TASK_QUEUE_PREFIX);
  // Each test has its own task queue but the same workflow id would clash across tests: prefix it.
  await startIndexers(
    client,
    taskQueue,
    [{ chain: 'devnet', startBlock: 0, ...settings }],
    env.TASK_QUEUE_PREFIX,
  );
  const handle = client.workflow.getHandle(`${env.TASK_QUEUE_PREFIX ?? ''}${indexWorkflowId('devnet')}`);
  return {
    progress: (): Promise<IndexProgress> => handle.query(indexProgressQuery),
    /** Polls until the follower's cursor reaches `block`. */
    reached: (block: number, timeoutMs = 60_000) =>
      until(
        async () => {
          const progress = await handle.query(indexProgressQuery);
          return progress.cursor !== null && progress.cursor >= block ? progress : undefined;
        },
        { timeoutMs, intervalMs: 100 },
      ),
    async close() {
      await handle.terminate('test over').catch(() => undefined);
      await connection.close();
    },
  };
}

/** Indexes the shared devnet from genesis to its current head straight into `root` (no workflow). */
export async function indexDevnet(root: LocationLike, rpcUrl: string): Promise<number> {
  const { createPublicClient, http } = await import('viem');
  const { ChainIndexer } = await import('../../chaindata/indexer.ts');
  const { IndexStore } = await import('../../chaindata/storage/indexStore.ts');
  const client = createPublicClient({ transport: http(rpcUrl, { batch: { batchSize: 64, wait: 0 } }) });
  const store = new IndexStore(root);
  const indexer = new ChainIndexer({ store, clientOf: () => client });
  const head = Number(await client.getBlockNumber());
  const chunk = 250;
  for (let from = 0; from <= head; from += chunk)
    await indexer.indexRange('devnet', from, Math.min(head, from + chunk - 1));
  await store.close();
  return head;
}
