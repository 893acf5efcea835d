import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryFailed } from './engine.ts';
import { SandboxedAnalytics } from './sandbox.ts';
import { SqlRejected } from './sqlGuard.ts';

/** Planted inside the data root (an allowed directory): no query may ever show it. */
const CANARY = 'VIGIL-CANARY-7f3a';

type Expect =
  { rejected: string } | { failed: QueryFailed['reason'] | QueryFailed['reason'][] } | { answers: true };

// Written as an attacker would: each tries to write, read a file or URL, load code, change the
// engine's settings, learn its paths, or exhaust it, hidden behind comments, quoting, case, unicode,
// CTEs and subqueries. Every one must end in a clear refusal or a bounded failure.
const attacks = (root: string): [string, string, Expect][] => [
  // Writes
  ['copy into the data folder', `COPY (SELECT 1) TO '${root}/evil.csv'`, { rejected: 'not_select' }],
  ['copy over a Parquet file', `COPY labels TO '${root}/labels/x.parquet'`, { rejected: 'not_select' }],
  ['create table', 'CREATE TABLE t AS SELECT 1', { rejected: 'not_select' }],
  ['create temp table', 'CREATE TEMP TABLE t(a INT)', { rejected: 'not_select' }],
  ['insert', "INSERT INTO labels VALUES ('0x', 'x', 1, 'x', 'x', 'x', 'x')", { rejected: 'not_select' }],
  ['update', "UPDATE labels SET name_tag = 'pwned'", { rejected: 'not_select' }],
  ['delete', 'DELETE FROM labels', { rejected: 'not_select' }],
  ['drop a view', 'DROP VIEW transfers', { rejected: 'not_select' }],
  ['replace a view', 'CREATE OR REPLACE VIEW transfers AS SELECT 1', { rejected: 'not_select' }],
  ['create a macro', 'CREATE MACRO m(a) AS a', { rejected: 'not_select' }],
  ['export the database', `EXPORT DATABASE '${root}/out'`, { rejected: 'not_select' }],
  ['checkpoint', 'CHECKPOINT', { rejected: 'not_select' }],
  // Extensions and settings
  ['install an extension', 'INSTALL httpfs', { rejected: 'not_select' }],
  ['load an extension', 'LOAD httpfs', { rejected: 'not_select' }],
  ['enable external access', 'SET enable_external_access = true', { rejected: 'not_select' }],
  ['unlock the configuration', 'RESET lock_configuration', { rejected: 'not_select' }],
  ['pragma', 'PRAGMA database_list', { rejected: 'not_select' }],
  ['call', 'CALL pragma_version()', { rejected: 'not_select' }],
  ['attach a database', "ATTACH ':memory:' AS side", { rejected: 'not_select' }],
  ['attach a file', "ATTACH '/tmp/side.duckdb'", { rejected: 'not_select' }],
  ['set a variable', 'SET VARIABLE x = 1', { rejected: 'not_select' }],
  ['explain', 'EXPLAIN ANALYZE SELECT * FROM transfers', { rejected: 'not_select' }],
  // Files and URLs
  ['read a system file', "SELECT * FROM read_csv('/etc/passwd')", { rejected: 'table_function' }],
  ['read text', "SELECT * FROM read_text('/etc/passwd')", { rejected: 'table_function' }],
  [
    'read a planted file as a blob',
    `SELECT * FROM read_blob('${root}/secret.csv')`,
    { rejected: 'table_function' },
  ],
  ['replacement scan of a path', "SELECT * FROM '/etc/passwd'", { rejected: 'unknown_table' }],
  [
    'replacement scan inside the data root',
    `SELECT * FROM '${root}/secret.csv'`,
    { rejected: 'unknown_table' },
  ],
  [
    'a glob over the data itself',
    `SELECT * FROM read_parquet('${root}/**/*.parquet')`,
    { rejected: 'table_function' },
  ],
  ['list files', "SELECT * FROM glob('/*')", { rejected: 'table_function' }],
  ['a URL', "SELECT * FROM read_parquet('https://example.com/x.parquet')", { rejected: 'table_function' }],
  [
    'process environment',
    "SELECT * FROM read_json_auto('/proc/self/environ')",
    { rejected: 'table_function' },
  ],
  [
    'parquet metadata',
    `SELECT * FROM parquet_metadata('${root}/labels/x.parquet')`,
    { rejected: 'table_function' },
  ],
  ['sniff a file', "SELECT * FROM sniff_csv('/etc/passwd')", { rejected: 'table_function' }],
  [
    'query() indirection',
    "SELECT * FROM query('SELECT * FROM read_csv(''/etc/passwd'')')",
    { rejected: 'table_function' },
  ],
  // The engine's catalog, settings and paths
  ['settings table', 'SELECT * FROM duckdb_settings()', { rejected: 'table_function' }],
  ['a setting', "SELECT current_setting('allowed_directories')", { rejected: 'function' }],
  ['environment variable', "SELECT getenv('HOME')", { rejected: 'function' }],
  ['view definitions', 'SELECT sql FROM duckdb_views()', { rejected: 'table_function' }],
  ['information schema', 'SELECT * FROM information_schema.views', { rejected: 'unknown_table' }],
  ['pg catalog', 'SELECT * FROM pg_catalog.pg_class', { rejected: 'unknown_table' }],
  ['the system catalog', 'SELECT * FROM system.main.transfers', { rejected: 'unknown_table' }],
  ['show tables', 'SHOW TABLES', { rejected: 'table_ref' }],
  ['describe', 'DESCRIBE transfers', { rejected: 'table_ref' }],
  ['summarize', 'SUMMARIZE labels', { rejected: 'table_ref' }],
  // Comment, quoting, case and unicode tricks
  ['a second statement', 'SELECT 1; DROP VIEW transfers', { rejected: 'statement_count' }],
  [
    'a statement after a comment',
    "SELECT 1 /* ; */ ; COPY labels TO '/tmp/x.csv'",
    { rejected: 'statement_count' },
  ],
  [
    'a statement after a line comment',
    'SELECT 1 -- harmless\n; INSTALL httpfs',
    { rejected: 'statement_count' },
  ],
  ['a hint comment', '/*+ */ INSTALL httpfs', { rejected: 'not_select' }],
  ['quoted function name', `SELECT * FROM "read_csv"('/etc/passwd')`, { rejected: 'table_function' }],
  ['mixed case', "SELECT * FROM Read_Csv('/etc/passwd')", { rejected: 'table_function' }],
  ['schema-qualified function', "SELECT * FROM main.read_csv('/etc/passwd')", { rejected: 'table_function' }],
  ['fullwidth letters', "SELECT * FROM ＲＥＡＤ_ＣＳＶ('/etc/passwd')", { rejected: 'table_function' }],
  ['NUL byte', 'SELECT 1\u0000; INSTALL httpfs', { rejected: 'control_characters' }],
  [
    'a CTE named like a view',
    "WITH labels AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM labels",
    { rejected: 'table_function' },
  ],
  [
    'a file read in a scalar subquery',
    "SELECT (SELECT count(*) FROM read_text('/etc/passwd'))",
    { rejected: 'table_function' },
  ],
  [
    'a lateral file read',
    "SELECT * FROM labels, LATERAL read_csv('/etc/passwd')",
    { rejected: 'table_function' },
  ],
  [
    'a file read in IN (...)',
    "SELECT * FROM labels WHERE address IN (SELECT content FROM read_text('/etc/passwd'))",
    { rejected: 'table_function' },
  ],
  [
    'a file read in a UNION',
    "SELECT name_tag FROM labels UNION ALL SELECT content FROM read_text('/etc/passwd')",
    { rejected: 'table_function' },
  ],
  ['an oversized query', `SELECT ${'1+'.repeat(10_001)}1`, { rejected: 'too_long' }],
  ['an empty query', '   ', { rejected: 'empty' }],
  [
    'expression depth',
    `SELECT ${Array.from({ length: 3_000 }, () => '1').join('+')}`,
    { rejected: 'parse_error' },
  ],
  // Adversarial pass: a CTE name is only a CTE where it is in scope; elsewhere it is a file path.
  [
    'a file named by a CTE in a sibling subquery',
    `SELECT * FROM (WITH "<root>/secret.csv" AS (SELECT 1) SELECT 1) a, '<root>/secret.csv' b`,
    { rejected: 'unknown_table' },
  ],
  [
    'a file named by a CTE on the other side of a UNION',
    `SELECT * FROM (WITH "<root>/secret.csv" AS (SELECT 1) SELECT 1) UNION ALL SELECT * FROM '<root>/secret.csv'`,
    { rejected: 'unknown_table' },
  ],
  [
    'a file named by a CTE in another scalar subquery',
    `SELECT (WITH "<root>/secret.csv" AS (SELECT 1) SELECT 1), (SELECT secret FROM '<root>/secret.csv')`,
    { rejected: 'unknown_table' },
  ],
  [
    'a file named by a later CTE of the same WITH',
    `WITH a AS (SELECT * FROM '<root>/secret.csv'), "<root>/secret.csv" AS (SELECT 1) SELECT * FROM a`,
    { rejected: 'unknown_table' },
  ],
  ['the engine version', 'SELECT version()', { rejected: 'function' }],
  // Exhaustion
  [
    'infinite recursion',
    'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r',
    { failed: 'timeout' },
  ],
  ['a huge range', 'SELECT count(*) FROM range(10000000000000)', { failed: 'timeout' }],
  [
    'a string doubled by recursion',
    "WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM r WHERE len(s) < 2000000000) SELECT max(len(s)) FROM r",
    // The time limit, DuckDB's memory limit or the process's memory bound, whichever comes first.
    { failed: ['timeout', 'failed', 'memory'] },
  ],
  ['a huge cross join', 'SELECT count(*) FROM labels a, labels b, labels c', { failed: 'timeout' }],
  // Past DuckDB's memory limit or the process's memory bound (the list's process grows past 1 GB
  // under a 256 MB limit), or past the time limit first on a busy machine: bounded either way.
  [
    'a list past the memory limit',
    'SELECT list(r) FROM range(1000000000) t(r)',
    { failed: ['failed', 'timeout', 'memory'] },
  ],
  ['a string built in one call', "SELECT repeat('x', 2000000000)", { rejected: 'function' }],
  ['padding amplifier', "SELECT lpad('x', 1500000000, 'y')", { rejected: 'function' }],
  ['printf amplifier', "SELECT printf('%01500000000d', 1)", { rejected: 'function' }],
  ['a scalar list generator', 'SELECT len(range(1000000000))', { rejected: 'function' }],
  [
    'replace() nested as an amplifier',
    "SELECT length(replace(replace(replace('x', 'x', 'xxxxxxxxxx'), 'x', 'xxxxxxxxxx'), 'x', 'xxxxxxxxxx'))",
    { rejected: 'function' },
  ],
  [
    'regexp_replace() as an amplifier',
    "SELECT length(regexp_replace('xxxx', 'x', 'yyyyyyyyyy', 'g'))",
    { rejected: 'function' },
  ],
  [
    'a string doubled by a chain of CTEs',
    `WITH a0 AS (SELECT 'xxxxxxxx' AS s), ${Array.from({ length: 27 }, (_, i) => `a${i + 1} AS (SELECT s || s AS s FROM a${i})`).join(', ')} SELECT length(s) FROM a27`,
    // DuckDB's memory limit refuses the last doublings (the process peaked near twice the limit),
    // or the process's memory bound ends it first.
    { failed: ['failed', 'timeout', 'memory'] },
  ],
  ['ten million rows', 'SELECT * FROM range(10000000)', { answers: true }],
];

describe('analytics_query against hostile SQL', () => {
  let root: string;
  let analytics: SandboxedAnalytics;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'vigil-hostile-'));
    await writeFile(path.join(root, 'secret.csv'), `secret\n${CANARY}\n`);
    analytics = new SandboxedAnalytics(root, { timeoutMs: 1_000, memoryLimit: '256MB', maxRows: 1_000 });
    await analytics.query('SELECT count(*) AS n FROM labels');
  }, 60_000);

  afterAll(() => analytics?.close());

  it('has at least 40 attempts', () => {
    expect(attacks('/x').length).toBeGreaterThanOrEqual(40);
  });

  for (const [name, sql, expected] of attacks('<root>')) {
    it(`refuses or bounds: ${name}`, async () => {
      const attempt = analytics.query(sql.replaceAll('<root>', root));
      if ('rejected' in expected) {
        const error = await attempt.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(SqlRejected);
        expect((error as SqlRejected).reason).toBe(expected.rejected);
        expect((error as Error).message).not.toContain(root);
      } else if ('failed' in expected) {
        const error = await attempt.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(QueryFailed);
        expect([expected.failed].flat()).toContain((error as QueryFailed).reason);
        expect((error as Error).message).not.toContain(root);
      } else {
        const result = await attempt;
        expect(result.row_count).toBe(1_000);
        expect(result.truncated).toBe(true);
        expect(JSON.stringify(result)).not.toContain(CANARY);
      }
    });
  }

  it('still answers CTEs in scope: chained and recursive', async () => {
    const result = await analytics.query(
      'WITH a AS (SELECT 1 AS n), b AS (SELECT n + 1 AS n FROM a), ' +
        'r AS (WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3) SELECT i FROM r) ' +
        'SELECT (SELECT n FROM b) AS b, (SELECT sum(i) FROM r) AS r',
    );
    expect(result.rows[0]).toEqual({ b: 2, r: '6' });
  });

  it('still answers after every attack, and the planted file was never written over or shown', async () => {
    const result = await analytics.query("SELECT count(*) AS n FROM labels WHERE category = 'exchange'");
    expect(Number(result.rows[0]?.n)).toBeGreaterThan(0);
  });
});
