import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { createPublicClient, http, keccak256, parseAbi, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsEngine } from '../../chaindata/analytics/engine.ts';
import { ChainIndexer } from '../../chaindata/indexer.ts';
import { ensureLabelsFile } from '../../chaindata/labels/labelFile.ts';
import { IndexStore } from '../../chaindata/storage/indexStore.ts';
import { ParquetWriter } from '../../chaindata/storage/parquetWriter.ts';
import { tableRoot } from '../../chaindata/storage/layout.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { chaindataDir, followDevnet } from '../support/chaindata.ts';
import { isolatedEnv, startTestWorkers, testStack } from '../support/fixtures.ts';

const erc20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const pair = parseAbi([
  'event Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
]);
const factory = parseAbi([
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint allPairsLength)',
]);

describe('the chain indexer on the devnet scenario', () => {
  const { rpcUrl, scenario } = testStack();
  const rpc = createPublicClient({ transport: http(rpcUrl) });
  let root: string;
  let workers: RunningWorkers;
  let follower: Awaited<ReturnType<typeof followDevnet>>;
  let engine: AnalyticsEngine;
  let head: number;

  beforeAll(async () => {
    root = await chaindataDir();
    const env = isolatedEnv({ CHAINDATA_DIR: root });
    workers = await startTestWorkers(env, { queues: [TaskQueue.ingest] });
    head = Number(await rpc.getBlockNumber());
    // The test settings' small chunk and threshold hand genesis..head to a child backfill.
    follower = await followDevnet(env);
    await follower.reached(head, 120_000);
    await ensureLabelsFile(root, new ParquetWriter());
    engine = await AnalyticsEngine.open(root);
  }, 180_000);

  afterAll(async () => {
    engine?.close();
    await follower?.close();
    await workers?.shutdown();
  });

  const count = async (sql: string, values: Record<string, string> = {}) =>
    Number((await engine.internal(sql, values)).rows[0]?.n);

  it('indexes every block from genesis to the head once, through a backfill child', async () => {
    expect(
      await count(`SELECT count(*) AS n FROM blocks WHERE chain = 'devnet' AND block_number <= ${head}`),
    ).toBe(head + 1);
    expect(
      await count(`SELECT count(DISTINCT block_number) AS n FROM blocks WHERE block_number <= ${head}`),
    ).toBe(head + 1);
  });

  it("holds every scenario token's deployment, with its deployer and bytecode hash", async () => {
    for (const [key, token] of Object.entries(scenario.tokens)) {
      const rows = (
        await engine.internal(
          'SELECT deployer, bytecode_hash, code_size FROM deployments WHERE contract_address = $a',
          {
            a: token.address.toLowerCase(),
          },
        )
      ).rows;
      expect(rows, key).toHaveLength(1);
      expect(rows[0]?.deployer, key).toBe(scenario.deployers[key]?.toLowerCase());
      const code = await rpc.getCode({ address: token.address });
      expect(Number(rows[0]?.code_size), key).toBe(((code?.length ?? 2) - 2) / 2);
    }
  });

  it('matches viem’s own decoding of every pool creation, swap, sync and token transfer', async () => {
    const toBlock = BigInt(head);
    const created = parseEventLogs({
      abi: factory,
      logs: await rpc.getLogs({ address: scenario.dex.factory, fromBlock: 0n, toBlock }),
    });
    const pools = await engine.internal(
      'SELECT pool, token0, token1 FROM pools WHERE chain = $c ORDER BY pool',
      { c: 'devnet' },
    );
    expect(pools.rows).toEqual(
      created
        .map((log) => ({
          pool: log.args.pair.toLowerCase(),
          token0: log.args.token0.toLowerCase(),
          token1: log.args.token1.toLowerCase(),
        }))
        .sort((a, b) => a.pool.localeCompare(b.pool)),
    );
    for (const [key, token] of Object.entries(scenario.tokens)) {
      const events = parseEventLogs({
        abi: pair,
        logs: await rpc.getLogs({ address: token.pair, fromBlock: 0n, toBlock }),
      });
      const swaps = events.filter((log) => log.eventName === 'Swap');
      expect(
        await count('SELECT count(*) AS n FROM swaps WHERE pool = $p', { p: token.pair.toLowerCase() }),
        key,
      ).toBe(swaps.length);
      const syncs = events.filter((log) => log.eventName === 'Sync');
      expect(
        await count(`SELECT count(*) AS n FROM pool_events WHERE pool = $p AND kind = 'sync'`, {
          p: token.pair.toLowerCase(),
        }),
        key,
      ).toBe(syncs.length);
      const transfers = parseEventLogs({
        abi: erc20,
        logs: await rpc.getLogs({ address: token.address, fromBlock: 0n, toBlock }),
      });
      const sum = transfers.reduce((total, log) => total + log.args.value, 0n);
      const indexed = (
        await engine.internal(
          `SELECT count(*) AS n, sum(value_raw::HUGEINT)::VARCHAR AS total FROM transfers WHERE token = $t AND kind = 'erc20'`,
          {
            t: token.address.toLowerCase(),
          },
        )
      ).rows[0];
      expect(Number(indexed?.n), key).toBe(transfers.length);
      expect(indexed?.total ?? '0', key).toBe(sum.toString());
    }
    // Every traded token has swaps indexed: the scenario's trades are all there.
    expect(await count('SELECT count(DISTINCT pool) AS n FROM swaps')).toBeGreaterThan(20);
  });

  it('records the contracts factories created, from the node’s traces: every pair, with its factory and sender', async () => {
    const pools = await engine.internal('SELECT pool, factory FROM pools', {});
    expect(pools.rows.length).toBeGreaterThan(20);
    const created = await engine.internal(
      'SELECT contract_address, factory, deployer, bytecode_hash, code_size FROM deployments WHERE factory IS NOT NULL',
      {},
    );
    const byAddress = new Map(created.rows.map((row) => [String(row.contract_address), row]));
    for (const { pool, factory } of pools.rows) {
      const deployment = byAddress.get(String(pool));
      expect(deployment, String(pool)).toBeDefined();
      expect(deployment?.factory).toBe(factory);
      // The account that sent the creating transaction, not the factory.
      expect(deployment?.deployer).not.toBe(factory);
      expect(Number(deployment?.code_size)).toBeGreaterThan(0);
    }
    // The same code hash the chain answers for one of them.
    const [first] = pools.rows;
    const code = await rpc.getCode({ address: String(first?.pool) as `0x${string}` });
    expect(byAddress.get(String(first?.pool))?.bytecode_hash).toBe(keccak256(code ?? '0x'));
  });

  it('records the funder’s native transfers to the deployer wallets', async () => {
    const funded = await engine.internal(
      `SELECT DISTINCT to_address FROM transfers WHERE kind = 'native' AND from_address = $f`,
      { f: scenario.deployer.toLowerCase() },
    );
    const recipients = new Set(funded.rows.map((row) => row.to_address));
    for (const deployer of Object.values(scenario.deployers))
      expect(recipients).toContain(deployer.toLowerCase());
  });

  it('writes a range once however often it is indexed again', async () => {
    const store = new IndexStore(root);
    const indexer = new ChainIndexer({ store, clientOf: () => rpc });
    const ranges = await store.ranges('devnet');
    const middle = ranges[Math.floor(ranges.length / 2)];
    if (!middle) throw new Error('no ranges indexed');
    // Counted up to the last range indexed now: the follower goes on indexing what other test
    // files add to the shared devnet meanwhile.
    const upTo = `SELECT count(*) AS n FROM transfers WHERE block_number <= ${ranges.at(-1)?.to ?? 0}`;
    const before = await count(upTo);
    // The same range, a range inside it and one straddling two: each replaces what it overlaps.
    await indexer.indexRange('devnet', middle.from, middle.to);
    await indexer.indexRange('devnet', middle.from + 1, middle.to - 1);
    await indexer.indexRange('devnet', Math.max(0, middle.from - 3), middle.from + 3);
    expect(await count(upTo)).toBe(before);
    expect(
      await count('SELECT count(*) - count(DISTINCT (tx_hash, log_index, kind)) AS n FROM transfers'),
    ).toBe(0);
    await store.close();
  });

  it('writes files a second, independent Parquet reader reads with the same rows', async () => {
    const dir = tableRoot(root, 'transfers');
    const files = (await readdir(dir, { recursive: true })).filter(
      (name) => name.endsWith('.parquet') && !name.endsWith('_empty.parquet'),
    );
    expect(files.length).toBeGreaterThan(0);
    let total = 0;
    for (const name of files) {
      const file = await asyncBufferFromFile(path.join(dir, name));
      const metadata = await parquetMetadataAsync(file);
      expect(metadata.key_value_metadata?.find((entry) => entry.key === 'vigil_schema_version')?.value).toBe(
        '1',
      );
      const rows = await parquetReadObjects({
        file,
        compressors,
        columns: ['chain', 'block_number', 'kind', 'value_raw', 'date'],
      });
      for (const row of rows) {
        expect(row.chain).toBe('devnet');
        expect(name).toContain(`date=${new Date(row.date as Date).toISOString().slice(0, 10)}`);
      }
      total += rows.length;
    }
    expect(total).toBe(await count('SELECT count(*) AS n FROM transfers'));
  });
});
