import { readFileSync } from 'node:fs';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxedAnalytics } from '../../chaindata/analytics/sandbox.ts';
import { chaindataLocation } from '../../chaindata/config.ts';
import { ChainIndexer } from '../../chaindata/indexer.ts';
import { IndexStore } from '../../chaindata/storage/indexStore.ts';
import type { ChaindataLocation } from '../../chaindata/storage/location.ts';
import { TABLE_NAMES } from '../../chaindata/tables.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { chaindataDir, followDevnet } from '../support/chaindata.ts';
import { isolatedEnv, startTestWorkers, testStack } from '../support/fixtures.ts';
import { startObjectStorage } from '../support/objectStorage.ts';

// The chain data on S3-compatible object storage: the ingest pool's durable follower writes the
// devnet into a bucket prefix (CHAINDATA_DIR=s3://…), the analytics engine reads it there through
// DuckDB's httpfs, and nothing else in the bucket, nor its credentials, is within user SQL's reach.

const BUCKET = 'vigil-chaindata';

describe('the chain data on object storage', () => {
  const rpc = createPublicClient({ transport: http(testStack().rpcUrl) });
  let s3: Awaited<ReturnType<typeof startObjectStorage>>;
  let workers: RunningWorkers;
  let follower: Awaited<ReturnType<typeof followDevnet>>;
  let location: ChaindataLocation;
  let analytics: SandboxedAnalytics;
  const prefix = `run-${Date.now()}`;

  const keys = async (under: string) => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.client.send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${under}/`, ContinuationToken: token }),
      );
      found.push(...(page.Contents ?? []).map((entry) => entry.Key ?? ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  };
  const counts = async (reader: SandboxedAnalytics, to: number) => {
    const found: Record<string, number> = {};
    for (const table of TABLE_NAMES)
      found[table] = Number(
        (await reader.internal(`SELECT count(*) AS n FROM ${table} WHERE block_number <= ${to}`, {})).rows[0]
          ?.n,
      );
    return found;
  };

  beforeAll(async () => {
    s3 = await startObjectStorage(BUCKET);
    const env = isolatedEnv({
      ...s3.env,
      CHAINDATA_DIR: `s3://${BUCKET}/${prefix}`,
      VIGIL_DATA_DIR: await chaindataDir(),
    });
    location = chaindataLocation(env);
    workers = await startTestWorkers(env, { queues: [TaskQueue.ingest] });
    const head = Number(await rpc.getBlockNumber());
    follower = await followDevnet(env, { chunkBlocks: 100, backfillThresholdBlocks: 200 });
    await follower.reached(head, 120_000);
    await follower.close();
    analytics = new SandboxedAnalytics(location, { timeoutMs: 10_000 });
  }, 180_000);

  afterAll(async () => {
    analytics?.close();
    await follower?.close();
    await workers?.shutdown();
    await s3?.close();
  });

  it('indexes the devnet into the bucket prefix, in the folder layout and with the folder’s rows', async () => {
    const written = await keys(prefix);
    expect(written).toContain(`${prefix}/v1/transfers/_empty.parquet`);
    expect(
      written.filter((key) =>
        /\/v1\/blocks\/chain=devnet\/date=\d{4}-\d{2}-\d{2}\/b\d{12}-\d{12}\.parquet$/.test(key),
      ).length,
    ).toBeGreaterThan(0);
    // The same blocks indexed into a local folder: every table has the same rows.
    const indexed = Number(
      (await analytics.internal('SELECT max(block_number) AS n FROM blocks', {})).rows[0]?.n,
    );
    const folder = await chaindataDir();
    const store = new IndexStore(folder);
    const indexer = new ChainIndexer({ store, clientOf: () => rpc });
    for (let from = 0; from <= indexed; from += 250)
      await indexer.indexRange('devnet', from, Math.min(indexed, from + 249));
    await store.close();
    const local = new SandboxedAnalytics(folder);
    try {
      const [inBucket, inFolder] = [await counts(analytics, indexed), await counts(local, indexed)];
      expect(inBucket).toEqual(inFolder);
      expect(inBucket.blocks).toBe(indexed + 1);
      expect(inBucket.transfers).toBeGreaterThan(100);
    } finally {
      local.close();
    }
  });

  it('writes objects a second, independent Parquet reader reads', async () => {
    const [key] = (await keys(`${prefix}/v1/transfers/chain=devnet`)).filter((name) =>
      name.endsWith('.parquet'),
    );
    if (!key) throw new Error('no transfers object');
    const object = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    const bytes = await object.Body?.transformToByteArray();
    if (!bytes) throw new Error('empty object');
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const metadata = await parquetMetadataAsync(file);
    expect(metadata.key_value_metadata?.find((entry) => entry.key === 'vigil_table')?.value).toBe(
      'transfers',
    );
    const rows = await parquetReadObjects({ file, compressors, columns: ['chain', 'block_number'] });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.chain).toBe('devnet');
  });

  it('rewinds a reorged range by removing its objects, and writes it again once', async () => {
    const store = new IndexStore(location);
    const indexer = new ChainIndexer({ store, clientOf: () => rpc });
    try {
      const ranges = await store.ranges('devnet');
      const last = ranges.at(-1);
      if (!last) throw new Error('nothing indexed');
      const before = await counts(analytics, last.to);
      const from = await store.rewind('devnet', last.from);
      expect(from).toBe(last.from);
      expect(await store.ranges('devnet')).toEqual(ranges.slice(0, -1));
      expect(
        (await keys(prefix)).filter((key) => key.includes(`/b${String(last.from).padStart(12, '0')}-`)),
      ).toEqual([]);
      await indexer.indexRange('devnet', last.from, last.to);
      await indexer.indexRange('devnet', last.from, last.to);
      expect(await counts(analytics, last.to)).toEqual(before);
    } finally {
      await store.close();
    }
  });

  it('answers user SQL over the views, and nothing else in the bucket nor its credentials', async () => {
    const answer = await analytics.query('SELECT count(*) AS n FROM transfers');
    expect(Number(answer.rows[0]?.n)).toBeGreaterThan(0);
    // Another prefix of the same bucket: the secret is scoped to the data's, and reads are confined to it.
    for (const sql of [
      `SELECT * FROM read_parquet('s3://${BUCKET}/elsewhere/x.parquet')`,
      `SELECT * FROM 's3://${BUCKET}/${prefix}/v1/transfers/_empty.parquet'`,
      'SELECT * FROM duckdb_secrets()',
      "SELECT which_secret('s3://x/y', 's3') AS s",
    ])
      await expect(analytics.query(sql), sql).rejects.toThrow();
    for (const sql of [
      "SELECT current_setting('s3_secret_access_key') AS s",
      "SELECT current_setting('s3_access_key_id') AS s",
    ]) {
      const read = await analytics.query(sql).then(
        (result) => JSON.stringify(result.rows),
        (error: unknown) => String(error),
      );
      expect(read).not.toContain(s3.storage.secretAccessKey);
      expect(read).not.toContain(s3.storage.accessKeyId);
    }
    // The analytics processes get the location in their environment, never on their command line
    // (which every local user may read).
    for (const { pid } of analytics.processes()) {
      if (pid === undefined) continue;
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      expect(commandLine).not.toContain(s3.storage.secretAccessKey);
    }
  });
});
