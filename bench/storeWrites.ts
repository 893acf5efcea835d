// What a scan's permanent records cost the store: the CPU the MongoDB-protocol server (the
// embedded stack's FerretDB, or mongod where installed) spends per write, for the scan record and
// the code fingerprint, as they were written before and as ScanStore and TokenFingerprintStore
// write them now. Read from the server process's own CPU time (Linux /proc), concurrency 8.
//   npm run bench:store-writes -- [--n 200]
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createMongo } from '../clients/mongo.ts';
import { createRedis } from '../clients/redis.ts';
import { freePort, REPO_ROOT } from '../infra/stack/processes.ts';
import { startMongo, startRedis } from '../infra/stack/services.ts';
import { MINHASH_SIZE, VECTOR_SIZE } from '../scanner/fingerprint/bytecodeFingerprint.ts';
import {
  type TokenFingerprintRecord,
  TokenFingerprintStore,
} from '../scanner/fingerprint/fingerprintStore.ts';
import { ScanStore } from '../scanner/scanStore.ts';
import { recordedScanResult } from '../test/support/recordHistory.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const n = Number(values.n);
const CONCURRENCY = 8;

/** User plus system CPU seconds of a process so far. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// A real result: the one in the recorded scan history (a worker's, about 30 KB of JSON).
const result = recordedScanResult();
const fingerprintOf = (i: number): TokenFingerprintRecord => ({
  chain: 'devnet',
  address: `0x${i.toString(16).padStart(40, '0')}`,
  block_number: '1',
  fingerprint: {
    version: 'bcfp/1',
    code_hash: 'ab'.repeat(32),
    code_size: 9_000,
    opcode_count: 4_000,
    selectors: ['0xa9059cbb', '0x095ea7b3', '0x23b872dd', '0x70a08231'],
    minhash: Array.from({ length: MINHASH_SIZE }, () => Math.floor(Math.random() * 2 ** 32)),
    vector: Array.from({ length: VECTOR_SIZE }, () => Math.random() - 0.5),
  },
  verdict: {
    risk_score: 10,
    tier: 'low',
    flags: [],
    gates: [],
    scanned_at: result.scanned_at,
    job_id: `j${i}`,
  },
  stored_at: Date.now(),
});

const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-store-'));
const [mongo, redis] = await Promise.all([
  freePort().then((port) => startMongo({ port, dir: path.join(dir, 'mongo') })),
  freePort().then((port) => startRedis({ port })),
]);
const client = createMongo(mongo.address, 'vigil_bench_store');
const redisClient = createRedis(redis.address, { keyPrefix: 'bench:' });
const scans = new ScanStore({ db: client.db, redis: redisClient, ttlSeconds: 60 });
await scans.ensureIndexes();
const fingerprints = new TokenFingerprintStore(client.db, redisClient);
const pid = mongo.process.child.pid as number;
const rows: {
  write: string;
  form: string;
  n: number;
  writes_per_s: number;
  store_cpu_ms_per_write: number;
}[] = [];
try {
  const measure = async (write: string, form: string, op: (i: number) => Promise<unknown>) => {
    const cpu = await cpuSeconds(pid);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < n) await op(next++);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    rows.push({
      write,
      form,
      n,
      writes_per_s: Math.round(n / seconds),
      store_cpu_ms_per_write: Math.round((((await cpuSeconds(pid)) - cpu) / n) * 10_000) / 10,
    });
  };
  // Each phase writes its own collection or ids, so none finds the previous one's documents.
  await measure('scan record', 'result as a document (before)', (i) =>
    client.db.collection<{ _id: string }>('scans_before').insertOne({
      _id: `scan:devnet:${i}/run`,
      job_id: `scan:devnet:${i}/run`,
      chain: result.chain,
      address: result.address,
      result,
      stored_at: new Date().toISOString(),
    } as never),
  );
  await measure('scan record', 'ScanStore.save (gzipped result beside its fields)', (i) =>
    scans.save(`scan:devnet:${i}/run`, result),
  );
  await measure('code fingerprint', 'arrays (before)', (i) => {
    const record = fingerprintOf(i);
    return client.db
      .collection<{ _id: string }>('fingerprints_before')
      .replaceOne({ _id: `devnet:${record.address}` }, record, { upsert: true });
  });
  await measure('code fingerprint', 'TokenFingerprintStore.record (packed)', (i) => {
    const { stored_at: _, ...record } = fingerprintOf(i);
    return fingerprints.record(record);
  });
} finally {
  await Promise.allSettled([client.close(), redisClient.quit()]);
  await Promise.allSettled([mongo.process.stop(), redis.process.stop()]);
  await rm(dir, { recursive: true, force: true });
}

const table = [
  '| write | form | n | writes/s | store CPU ms per write |',
  '|---|---|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${row.write} | ${row.form} | ${row.n} | ${row.writes_per_s} | ${row.store_cpu_ms_per_write} |`,
  ),
].join('\n');
const header = `# Store writes per scan (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${mongo.process.name}, concurrency ${CONCURRENCY})`;
await writeFile(path.join(values.out, 'store-writes.md'), `${header}\n\n${table}\n`);
await writeFile(path.join(values.out, 'store-writes.json'), `${JSON.stringify({ n, rows }, null, 2)}\n`);
console.log(table);
