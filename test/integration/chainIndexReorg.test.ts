import { type Address, createWalletClient, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsEngine } from '../../chaindata/analytics/engine.ts';
import { ensureLabelsFile } from '../../chaindata/labels/labelFile.ts';
import { ParquetWriter } from '../../chaindata/storage/parquetWriter.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, type DevnetClient } from '../../infra/devnet/client.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { chaindataDir, followDevnet } from '../support/chaindata.ts';
import { devnetRpcUrls, isolatedEnv, startTestWorkers } from '../support/fixtures.ts';
import { until } from '../support/until.ts';

describe('the chain follower across a reorg', () => {
  let anvil: AnvilInstance;
  let devnet: DevnetClient;
  let workers: RunningWorkers;
  let follower: Awaited<ReturnType<typeof followDevnet>>;
  let root: string;
  let accounts: Address[];

  const send = async (to: Address, ether: string) => {
    const wallet = createWalletClient({
      transport: http(anvil.url),
      account: accounts[0] ?? '0x',
    });
    const hash = await wallet.sendTransaction({ to, value: parseEther(ether), chain: null });
    await devnet.waitForTransactionReceipt({ hash });
    return hash.toLowerCase();
  };
  /** What the index holds now (a fresh engine sees the files as they are). */
  const nativeHashes = async () => {
    const engine = await AnalyticsEngine.open(root);
    try {
      const result = await engine.internal(
        `SELECT tx_hash, block_number FROM transfers WHERE kind = 'native' ORDER BY block_number`,
      );
      return result.rows.map((row) => String(row.tx_hash));
    } finally {
      engine.close();
    }
  };

  beforeAll(async () => {
    // Its own node: a revert on the shared devnet would undo other tests' transactions.
    anvil = await startAnvil();
    devnet = createDevnetClient(anvil.url);
    accounts = await devnet.request({ method: 'eth_accounts' });
    root = await chaindataDir();
    await ensureLabelsFile(root, new ParquetWriter());
    const env = isolatedEnv({ CHAINDATA_DIR: root });
    workers = await startTestWorkers(env, { queues: [TaskQueue.ingest], rpcUrls: devnetRpcUrls(anvil.url) });
    follower = await followDevnet(env, {
      confirmations: 8,
      chunkBlocks: 20,
      backfillThresholdBlocks: 50,
      pollMs: 100,
    });
  }, 120_000);

  afterAll(async () => {
    await follower?.close();
    await workers?.shutdown();
    await anvil?.stop();
  });

  it('rewinds to the fork when a stored block hash no longer matches, and re-indexes the new branch', async () => {
    const [, alice, bob, carol] = accounts;
    if (!alice || !bob || !carol) throw new Error('anvil exposes too few accounts');
    const kept = await send(alice, '1');
    const snapshot = await devnet.snapshot();
    const orphaned = [await send(bob, '2'), await send(bob, '3')];
    await follower.reached(Number(await devnet.getBlockNumber()));
    expect(await nativeHashes()).toEqual([kept, ...orphaned]);

    // The chain reorganises: the two blocks are replaced by a different history, one block longer.
    await devnet.revert({ id: snapshot });
    const replacing = [await send(carol, '4'), await send(carol, '5'), await send(alice, '6')];
    const progress = await until(
      async () => {
        const now = await follower.progress();
        return now.reorgs >= 1 && now.cursor !== null && now.cursor >= Number(await devnet.getBlockNumber())
          ? now
          : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(progress.last_reorg?.fork_block).toBe(
      Number((await devnet.getTransactionReceipt({ hash: replacing[0] as `0x${string}` })).blockNumber),
    );
    expect(await nativeHashes()).toEqual([kept, ...replacing]);
  });
});
