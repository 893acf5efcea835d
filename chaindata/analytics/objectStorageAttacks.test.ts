import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/config/env.ts';
import { startObjectStorage } from '../../test/support/objectStorage.ts';
import { chaindataLocation } from '../config.ts';
import { asProblem } from '../errors.ts';
import { IndexStore } from '../storage/indexStore.ts';
import type { ChaindataLocation } from '../storage/location.ts';
import type { RangeRows } from '../tables.ts';
import { QueryFailed } from './engine.ts';
import { LOCATION_ENV, SandboxedAnalytics } from './sandbox.ts';

// Adversarial review of the chain data on S3-compatible object storage: user SQL (what
// analytics_query runs) against a sandbox reading a bucket prefix through httpfs, with canaries
// planted beside the prefix, in another bucket and inside the prefix (not in any view). Every
// attack must end in a refusal that shows no canary, credential, endpoint or bucket. The storage is
// reached through a proxy that can fail the way a real service does (a rejected key, an outage).

const BUCKET = 'vigil-attacked';
const OTHER_BUCKET = 'vigil-other-bucket';
const PREFIX = 'data';
const CANARY = 'VIGIL-S3-CANARY-5d1e';
const CANARY_CSV = `token,n\n${CANARY},1\n`;
/** Objects user SQL must never read: beside the prefix, elsewhere in the bucket, in another bucket, and inside the prefix but in no view. */
const PLANTED: [string, string][] = [
  [BUCKET, `${PREFIX}-other/secret.csv`],
  [BUCKET, 'elsewhere/secret.csv'],
  [BUCKET, `${PREFIX}/secret.csv`],
  [OTHER_BUCKET, 'secret.csv'],
];
const ROOT = `s3://${BUCKET}/${PREFIX}`;
/** Paths that leave the prefix by their text (DuckDB's allowed_directories compares text; the HTTP layer resolves `..`). */
const ESCAPES = [
  `${ROOT}/../${PREFIX}-other/secret.csv`,
  `${ROOT}/../elsewhere/secret.csv`,
  `${ROOT}/v1/../../elsewhere/secret.csv`,
  `${ROOT}/../../${OTHER_BUCKET}/secret.csv`,
];

type Mode = 'pass' | 'rejected_key' | 'down';

/** A proxy in front of the S3 server that passes requests through, or fails them as a service can. */
async function storageProxy(target: string) {
  const upstream = new URL(target);
  let mode: Mode = 'pass';
  const server: Server = createServer((request, response) => {
    if (mode === 'down') {
      request.socket.destroy();
      return;
    }
    if (mode === 'rejected_key') {
      // What S3 answers a key it does not know (or no longer knows): the key id, echoed.
      const keyId = /Credential=([^/]+)/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      request.resume();
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code>' +
          '<Message>The AWS Access Key Id you provided does not exist in our records.</Message>' +
          `<AWSAccessKeyId>${keyId}</AWSAccessKeyId><RequestId>1</RequestId></Error>`,
      );
      return;
    }
    const onward = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    onward.on('error', () => response.destroy());
    request.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (next: Mode) => {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('attacks on the chain data in object storage', () => {
  let s3: Awaited<ReturnType<typeof startObjectStorage>>;
  let proxy: Awaited<ReturnType<typeof storageProxy>>;
  let location: ChaindataLocation;
  let analytics: SandboxedAnalytics;
  let keysBefore: string[];
  /** Nothing any answer or refusal may contain. */
  let never: string[];

  const keys = async () => {
    const found: string[] = [];
    for (const bucket of [BUCKET, OTHER_BUCKET]) {
      const page = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }));
      found.push(...(page.Contents ?? []).map((entry) => `${bucket}/${entry.Key ?? ''}`));
    }
    return found.sort();
  };
  /** Everything a caller sees of a query: its rows, or the problem it is answered with. */
  const seen = (sql: string) =>
    asProblem(() => analytics.query(sql)).then(
      (result) => ({ ok: true as const, text: JSON.stringify(result) }),
      (error: unknown) => ({
        ok: false as const,
        error,
        text: `${(error as Error).name} ${(error as Error).message} ${JSON.stringify(error)}`,
      }),
    );
  const expectNothingShown = (text: string, sql: string) => {
    for (const word of never) expect(text, `${sql} showed ${word}`).not.toContain(word);
  };
  const expectRefused = async (sql: string) => {
    const outcome = await seen(sql);
    expectNothingShown(outcome.text, sql);
    expect(outcome.ok, `${sql} answered ${outcome.text.slice(0, 300)}`).toBe(false);
    return outcome;
  };
  const expectRejected = async (sql: string, reason?: string) => {
    const outcome = await expectRefused(sql);
    const error = outcome.ok ? undefined : (outcome.error as { code?: string; extensions?: unknown });
    expect(error?.code, `${sql}: ${outcome.text.slice(0, 300)}`).toBe('sql_rejected');
    if (reason) expect(error?.extensions, sql).toEqual({ reason });
  };

  beforeAll(async () => {
    s3 = await startObjectStorage(BUCKET);
    await s3.client.send(new CreateBucketCommand({ Bucket: OTHER_BUCKET }));
    for (const [bucket, key] of PLANTED)
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: CANARY_CSV }));
    proxy = await storageProxy(s3.storage.endpoint ?? '');
    location = chaindataLocation({
      ...s3.env,
      CHAINDATA_S3_ENDPOINT: proxy.endpoint,
      CHAINDATA_DIR: ROOT,
      VIGIL_DATA_DIR: await mkdtemp(path.join(tmpdir(), 'vigil-s3-attacks-')),
    });
    never = [
      CANARY,
      s3.storage.accessKeyId,
      s3.storage.secretAccessKey,
      new URL(proxy.endpoint).host,
      new URL(s3.storage.endpoint ?? '').host,
      BUCKET,
      OTHER_BUCKET,
      location.localRoot,
    ];
    analytics = new SandboxedAnalytics(location, { timeoutMs: 5_000, concurrency: 1 });
    await Promise.all([analytics.query('SELECT 1 AS one'), analytics.internal('SELECT 1 AS one')]);
    keysBefore = await keys();
  }, 60_000);

  afterAll(async () => {
    analytics?.close();
    await proxy?.close();
    await s3?.close();
  });

  it('answers user SQL over the views (the attacks below are refused, not everything)', async () => {
    const answer = await analytics.query(
      'SELECT (SELECT count(*) FROM transfers) + (SELECT count(*) FROM swaps) AS n',
    );
    expect(answer.rows).toEqual([{ n: '0' }]);
    const recursive = await analytics.query(
      'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT sum(n) AS s FROM t',
    );
    expect(recursive.rows).toEqual([{ s: '6' }]);
    // A recursive CTE named like a path: its recursive part reads the CTE, never the file.
    const named = await seen(
      `WITH RECURSIVE "${ESCAPES[0]}"(a, b) AS (SELECT 7, 7 UNION SELECT * FROM (SELECT * FROM "${ESCAPES[0]}")) ` +
        `SELECT * FROM "${ESCAPES[0]}"`,
    );
    expectNothingShown(named.text, 'a recursive CTE named like a path');
    expect(named.ok).toBe(true);
  });

  it('never shows the credentials: secrets, settings, catalog views, indirection', async () => {
    for (const sql of [
      'SELECT * FROM duckdb_secrets()',
      'SELECT * FROM duckdb_secrets(redact = false)',
      `SELECT * FROM which_secret('${ROOT}/x.parquet', 's3')`,
      "SELECT current_setting('s3_secret_access_key') AS s",
      "SELECT 's3_access_key_id'.current_setting() AS s",
      "SELECT {'k': current_setting('s3_access_key_id')} AS s",
      "SELECT list_transform([1], x -> current_setting('s3_secret_access_key')) AS s",
      "SELECT getvariable('s3_secret_access_key') AS s",
      "SELECT * FROM duckdb_settings() WHERE name LIKE 's3%'",
      'SELECT * FROM duckdb_settings',
      'SELECT * FROM duckdb_secrets',
      'SELECT * FROM sqlite_master',
      'SELECT * FROM main.duckdb_views',
      'SELECT * FROM information_schema.tables',
      'SELECT * FROM pg_catalog.pg_settings',
      'SELECT pg_get_viewdef(1) AS d',
      "SELECT * FROM query('SELECT * FROM duckdb_secrets()')",
      "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT * FROM duckdb_secrets()'))",
      'SELECT * FROM (DESCRIBE transfers)',
      'EXPLAIN SELECT * FROM transfers',
      'PRAGMA show_secrets',
      'FROM duckdb_secrets()',
      // A CTE's body naming the CTE itself: DuckDB reads that name as the table or file it is.
      'WITH duckdb_secrets AS (SELECT * FROM duckdb_secrets) SELECT * FROM duckdb_secrets',
      'WITH duckdb_views AS (SELECT * FROM duckdb_views) SELECT sql FROM duckdb_views',
      'WITH duckdb_settings AS (SELECT * FROM duckdb_settings) SELECT * FROM duckdb_settings',
    ])
      await expectRejected(sql);
    // Names the answer may show, read in ways the guard lets through: none is a credential.
    for (const sql of ['SELECT current_user AS u, current_role AS r', 'SELECT filename FROM transfers']) {
      const outcome = await seen(sql);
      expectNothingShown(outcome.text, sql);
    }
  });

  it('reads nothing outside the views: other prefixes, other buckets, local files', async () => {
    const local = path.join(location.localRoot, 'labels');
    for (const file of [...ESCAPES, `${ROOT}/secret.csv`, `${ROOT}-other/secret.csv`]) {
      await expectRejected(`SELECT * FROM '${file}'`, 'unknown_table');
      await expectRejected(`SELECT * FROM read_csv('${file}')`, 'table_function');
      // The CTE self-reference that used to get past the guard (and, with `..`, past DuckDB's
      // allowed_directories: the canary of another prefix or bucket came back).
      await expectRejected(
        `WITH "${file}" AS (SELECT * FROM "${file}") SELECT * FROM "${file}"`,
        'unknown_table',
      );
      await expectRejected(
        `WITH "${file}" AS MATERIALIZED (SELECT * FROM "${file}") SELECT * FROM "${file}"`,
        'unknown_table',
      );
      await expectRejected(
        `WITH RECURSIVE "${file}" AS (SELECT * FROM "${file}") SELECT * FROM "${file}"`,
        'unknown_table',
      );
      await expectRejected(
        `WITH RECURSIVE "${file}" AS (SELECT * FROM "${file}" UNION ALL SELECT 'x', 1) SELECT * FROM "${file}" LIMIT 2`,
        'unknown_table',
      );
      await expectRejected(
        `WITH a AS (SELECT 1), "${file}" AS (WITH q AS (SELECT * FROM "${file}") SELECT * FROM q) SELECT * FROM "${file}"`,
        'unknown_table',
      );
      await expectRejected(
        `SELECT (WITH "${file}" AS (SELECT * FROM "${file}") SELECT count(*) FROM "${file}") AS n`,
        'unknown_table',
      );
    }
    for (const sql of [
      `SELECT * FROM glob('s3://${BUCKET}/**')`,
      `SELECT * FROM read_text('${ROOT}/v1/transfers/_empty.parquet')`,
      `SELECT * FROM parquet_metadata('${ROOT}/v1/transfers/_empty.parquet')`,
      `SELECT * FROM 's3://${BUCKET}/**/*.csv'`,
      `SELECT * FROM 's3a://${BUCKET}/elsewhere/secret.csv'`,
      `SELECT * FROM '${proxy.endpoint}/${BUCKET}/elsewhere/secret.csv'`,
      `WITH "${local}/../../../../proc/self/environ" AS (SELECT * FROM "${local}/../../../../proc/self/environ") SELECT 1`,
      `WITH "/proc/self/environ" AS (SELECT * FROM "/proc/self/environ") SELECT * FROM "/proc/self/environ"`,
    ])
      await expectRejected(sql);
  });

  it('writes and deletes nothing, and changes neither the views nor the configuration', async () => {
    for (const sql of [
      `COPY (SELECT 1 AS x) TO '${ROOT}/v1/transfers/chain=devnet/pwn.parquet'`,
      `COPY (SELECT 1 AS x) TO '${ROOT}/../elsewhere/pwn.csv'`,
      `EXPORT DATABASE '${ROOT}/export'`,
      `ATTACH '${ROOT}/x.duckdb' AS side`,
      'DETACH memory',
      'USE system',
      'SET enable_external_access = true',
      "SET allowed_directories = ['s3://']",
      'RESET lock_configuration',
      "SET GLOBAL s3_endpoint = 'example.com'",
      "CREATE OR REPLACE SECRET vigil_chaindata (TYPE s3, KEY_ID 'a', SECRET 'b', SCOPE 's3://')",
      "CREATE SECRET side (TYPE s3, KEY_ID 'a', SECRET 'b')",
      'DROP SECRET vigil_chaindata',
      'CREATE OR REPLACE VIEW transfers AS SELECT 1 AS x',
      'LOAD httpfs',
      'INSTALL aws',
      'CALL pragma_version()',
    ])
      await expectRejected(sql);
    expect(await keys()).toEqual(keysBefore);
    const answer = await analytics.query('SELECT count(*) AS n FROM transfers');
    expect(answer.columns).toEqual([{ name: 'n', type: 'BIGINT' }]);
  });

  it('lends the credentials to the prefix only, and DuckDB refuses another prefix (Vigil’s own SQL)', async () => {
    // Vigil's own queries skip the guard: this is the second wall, DuckDB's own settings.
    const secrets = await analytics.internal('SELECT name, scope FROM duckdb_secrets()');
    expect(secrets.rows).toEqual([{ name: 'vigil_chaindata', scope: [`${ROOT}/`] }]);
    const sibling = await analytics.internal(
      `SELECT name FROM which_secret('${ROOT}-other/secret.csv', 's3')`,
    );
    expect(sibling.rows).toEqual([]);
    await expect(analytics.internal(`SELECT * FROM read_csv('${ROOT}-other/secret.csv')`)).rejects.toThrow(
      /Permission Error/,
    );
    const redacted = await analytics.internal('SELECT secret_string FROM duckdb_secrets()');
    expect(JSON.stringify(redacted.rows)).not.toContain(s3.storage.secretAccessKey);
  });

  it('keeps the credentials off the processes’ command lines', () => {
    const pids = analytics.processes().map((entry) => entry.pid);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    for (const pid of pids) {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      expect(commandLine).not.toContain(s3.storage.secretAccessKey);
      expect(commandLine).not.toContain(s3.storage.accessKeyId);
    }
  });

  it('logs no credential when an analytics process cannot start (the service echoes the key id)', async () => {
    const storage = {
      ...s3.storage,
      accessKeyId: 'KEYID-LOGGED-9b2c',
      secretAccessKey: 'SECRET-LOGGED-77ad',
    };
    // HEAD finds nothing, so the process writes the schema files: the PUT is refused, echoing the key.
    const refusing = createServer((request, response) => {
      request.resume();
      if (request.method === 'HEAD') {
        response.writeHead(404).end();
        return;
      }
      const keyId = /Credential=([^/]+)/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>no</Message>' +
          `<AWSAccessKeyId>${keyId}</AWSAccessKeyId><StringToSign>x</StringToSign><RequestId>1</RequestId></Error>`,
      );
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const child = fork(fileURLToPath(new URL('./sandboxChild.ts', import.meta.url)), ['{}'], {
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        env: {
          ...process.env,
          [LOCATION_ENV]: JSON.stringify({
            ...location,
            objectStorage: {
              ...storage,
              endpoint: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`,
            },
          }),
        },
      });
      let printed = '';
      child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).not.toBe(0);
      expect(printed).toContain('could not start');
      expect(printed).not.toContain(storage.accessKeyId);
      expect(printed).not.toContain(storage.secretAccessKey);
    } finally {
      refusing.closeAllConnections();
      refusing.close();
    }
  });

  it('keeps the indexer inside the prefix: a chain that is no slug is refused before any object is touched', async () => {
    const store = new IndexStore(location);
    const rows = {} as RangeRows;
    try {
      for (const chain of [
        '../escape',
        'devnet/../../elsewhere',
        'devnet/x',
        '',
        'DEVNET',
        'a b',
        'x'.repeat(33),
      ]) {
        await expect(store.writeRange(chain, { from: 0, to: 1 }, rows, []), chain).rejects.toThrow(
          /not a chain slug/,
        );
        await expect(store.rewind(chain, 0), chain).rejects.toThrow(/not a chain slug/);
        await expect(store.ranges(chain), chain).rejects.toThrow(/not a chain slug/);
        await expect(store.blockHashes(chain, 0, 1), chain).rejects.toThrow(/not a chain slug/);
      }
    } finally {
      await store.close();
    }
    expect(await keys()).toEqual(keysBefore);
  });

  it('refuses a malformed CHAINDATA_DIR or endpoint as configuration, without repeating a credential', () => {
    const base = {
      CHAINDATA_DIR: ROOT,
      CHAINDATA_S3_ENDPOINT: 'http://127.0.0.1:9000',
      CHAINDATA_S3_ACCESS_KEY_ID: 'config-key-id',
      CHAINDATA_S3_SECRET_ACCESS_KEY: 'config-secret',
    };
    expect(chaindataLocation(base).root).toBe(ROOT);
    expect(chaindataLocation({ ...base, CHAINDATA_DIR: `${ROOT}/` }).root).toBe(ROOT);
    for (const wrong of [
      { CHAINDATA_DIR: `s3://${BUCKET}/../${OTHER_BUCKET}` },
      { CHAINDATA_DIR: `${ROOT}/..` },
      { CHAINDATA_DIR: `${ROOT}/./v1` },
      { CHAINDATA_DIR: `s3://${BUCKET}//${PREFIX}` },
      { CHAINDATA_DIR: 's3://Upper_Case/data' },
      { CHAINDATA_DIR: `s3://config-key-id:config-secret@${BUCKET}/${PREFIX}` },
      { CHAINDATA_DIR: `${ROOT}?versionId=1` },
      { CHAINDATA_S3_SECRET_ACCESS_KEY: undefined },
      { CHAINDATA_S3_ENDPOINT: 'http://127.0.0.1:9000/other-path' },
      { CHAINDATA_S3_ENDPOINT: 'http://config-key-id:config-secret@127.0.0.1:9000' },
      { CHAINDATA_S3_ENDPOINT: 'ftp://127.0.0.1:9000' },
      { CHAINDATA_S3_ENDPOINT: 'http://127.0.0.1:9000?x=1' },
      { CHAINDATA_S3_ENDPOINT: 'not a url' },
      { CHAINDATA_S3_REGION: "us-east-1', SCOPE 's3://" },
    ]) {
      let thrown: unknown;
      try {
        chaindataLocation({ ...base, ...wrong });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(wrong)).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).not.toContain('config-secret');
      expect((thrown as Error).message).not.toContain('config-key-id');
    }
  });

  it('shows no credential, endpoint or bucket when the storage fails: a rejected key, an outage', async () => {
    try {
      for (const mode of ['rejected_key', 'down'] as const) {
        proxy.set(mode);
        for (const sql of ['SELECT count(*) AS n FROM transfers', 'SELECT count(*) AS n FROM swaps']) {
          const outcome = await expectRefused(sql);
          const error = outcome.ok ? undefined : (outcome.error as { code?: string });
          expect(error?.code, `${mode}: ${outcome.text}`).toBe('query_failed');
        }
        // Vigil's own queries (the data routes answer their failures too).
        const internal = await analytics.internal('SELECT count(*) AS n FROM blocks').then(
          () => 'answered',
          (error: unknown) => (error instanceof QueryFailed ? error.message : String(error)),
        );
        expectNothingShown(internal, `${mode}: internal`);
      }
    } finally {
      proxy.set('pass');
    }
    expect((await analytics.query('SELECT count(*) AS n FROM transfers')).rows).toEqual([{ n: '0' }]);
  }, 30_000);
});
