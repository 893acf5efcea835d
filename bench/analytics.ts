// Aggregations over 1M indexed transfers: query latency through the analytics engine in its own
// process (as the API runs it) and in-process.
//   npm run bench:analytics -- [--rows 1000000] [--runs 30]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { AnalyticsEngine } from '../chaindata/analytics/engine.ts';
import { SandboxedAnalytics } from '../chaindata/analytics/sandbox.ts';
import { ensureLabelsFile } from '../chaindata/labels/labelFile.ts';
import { rangeFile } from '../chaindata/storage/layout.ts';
import { IndexStore } from '../chaindata/storage/indexStore.ts';
import { ParquetWriter } from '../chaindata/storage/parquetWriter.ts';
import { quote } from '../chaindata/storage/sql.ts';
import { SCHEMA_VERSION } from '../chaindata/tables.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '30' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const total = Number(values.rows);
const runs = Number(values.runs);
const loadBefore = loadavg()[0] ?? 0;
const FILES = 10;

const root = await mkdtemp(path.join(tmpdir(), 'vigil-bench-analytics-'));
const store = new IndexStore(root);
await store.ensureSchema();
await ensureLabelsFile(root, new ParquetWriter());
// Synthetic transfers in the indexer's own layout and column order, written by DuckDB: 2,000
// tokens with a skewed popularity, 200,000 wallets, ten files over ten days.
const generator = await (await DuckDBInstance.create(':memory:')).connect();
const perFile = Math.ceil(total / FILES);
for (let file = 0; file < FILES; file++) {
  const first = file * perFile;
  const date = `2026-01-${String(file + 1).padStart(2, '0')}`;
  const target = rangeFile(root, 'transfers', 'bench', date, { from: first, to: first + perFile - 1 });
  await (await import('node:fs/promises')).mkdir(path.dirname(target), { recursive: true });
  await generator.run(`COPY (
    SELECT 'bench' AS chain, 1 AS chain_id, i AS block_number, TIMESTAMP '${date}' + to_seconds(i % 86400) AS block_time,
           '0x' || lpad(to_hex(i), 64, '0') AS tx_hash, 0 AS log_index, 0 AS tx_index, 'erc20' AS kind,
           '0x' || lpad(to_hex(floor(pow(random(), 3) * 2000)::BIGINT), 40, '0') AS token,
           '0x' || lpad(to_hex(floor(random() * 200000)::BIGINT), 40, 'a') AS from_address,
           '0x' || lpad(to_hex(floor(random() * 200000)::BIGINT), 40, 'b') AS to_address,
           (floor(random() * 1e6)::BIGINT * 1000000000000)::VARCHAR AS value_raw,
           floor(random() * 1e6) * 1e12 AS value, NULL::VARCHAR AS token_id, DATE '${date}' AS date
    FROM range(${first}, ${first + perFile}) t(i)
  ) TO ${quote(target)} (FORMAT parquet, COMPRESSION zstd, KV_METADATA {vigil_schema_version: '${SCHEMA_VERSION}'})`);
}
await store.close();

const QUERIES = {
  volume_by_token: `SELECT token, count(*) AS transfers, sum(value) AS volume FROM transfers WHERE chain = 'bench'
                    GROUP BY token ORDER BY volume DESC LIMIT 20`,
  daily_active_senders: `SELECT date, count(DISTINCT from_address) AS senders, count(*) AS transfers FROM transfers
                         WHERE chain = 'bench' GROUP BY date ORDER BY date`,
  top_receivers_of_a_token: `SELECT to_address, sum(value) AS received FROM transfers
                             WHERE chain = 'bench' AND token = '0x${'0'.repeat(40)}' GROUP BY to_address ORDER BY received DESC LIMIT 20`,
};

const limits = { timeoutMs: 30_000, threads: 2, memoryLimit: '1GB' };
const inProcess = await AnalyticsEngine.open(root, limits);
const sandboxed = new SandboxedAnalytics(root, limits);
const counted = await inProcess.query(`SELECT count(*) AS n FROM transfers WHERE chain = 'bench'`);

async function measure(run: (sql: string) => Promise<unknown>) {
  const out: Record<string, { p50_ms: number; p95_ms: number; min_ms: number }> = {};
  for (const [name, sql] of Object.entries(QUERIES)) {
    for (let warm = 0; warm < 3; warm++) await run(sql);
    const times: number[] = [];
    for (let index = 0; index < runs; index++) {
      const started = performance.now();
      await run(sql);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    out[name] = {
      p50_ms: round(percentile(times, 50)),
      p95_ms: round(percentile(times, 95)),
      min_ms: round(times[0] ?? 0),
    };
  }
  return out;
}
const sandbox = await measure((sql) => sandboxed.query(sql));
const direct = await measure((sql) => inProcess.query(sql));
inProcess.close();
sandboxed.close();
await rm(root, { recursive: true, force: true });

const result = {
  benchmark: 'analytics',
  measured_at: new Date().toISOString(),
  machine: { cpus: cpus().length, load_before: round(loadBefore) },
  setup: {
    transfers: Number(counted.rows[0]?.n),
    files: FILES,
    runs,
    threads: limits.threads,
    memory_limit: limits.memoryLimit,
  },
  queries: QUERIES,
  sandboxed_process: sandbox,
  in_process: direct,
  target_p50_ms: 200,
};
await writeFile(path.join(values.out, 'analytics.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ setup: result.setup, sandboxed_process: sandbox, in_process: direct }, null, 2));

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
