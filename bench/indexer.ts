// Indexer throughput against a local node: decoded logs per second in one process.
//   npm run bench:indexer -- [--txs 50] [--per-tx 1500] [--chunk 10] [--repeat 3]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPublicClient, createWalletClient, encodeDeployData, encodeFunctionData, http } from 'viem';
import { decodeRange } from '../chaindata/decode.ts';
import { fetchRange } from '../chaindata/fetchRange.ts';
import { ChainIndexer } from '../chaindata/indexer.ts';
import { IndexStore } from '../chaindata/storage/indexStore.ts';
import { startAnvil } from '../infra/devnet/anvil.ts';
import { compileContracts } from '../infra/devnet/compile.ts';
import { createDevnetClient } from '../infra/devnet/client.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '50' },
    'per-tx': { type: 'string', default: '1500' },
    chunk: { type: 'string', default: '10' },
    repeat: { type: 'string', default: '3' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const txs = Number(values.txs);
const perTx = Number(values['per-tx']);
const chunk = Number(values.chunk);
const repeat = Number(values.repeat);
const loadBefore = loadavg()[0] ?? 0;

const anvil = await startAnvil({ chainId: 31337 });
const artifacts = await compileContracts({
  sourceDir: path.join(REPO_ROOT, 'bench', 'contracts'),
  cacheDir: path.join(REPO_ROOT, '.data', 'cache', 'solc-bench'),
});
const emitter = artifacts.LogEmitter;
if (!emitter) throw new Error('LogEmitter did not compile');
const client = createPublicClient({ transport: http(anvil.url, { batch: { batchSize: 64, wait: 0 } }) });
const [account] = await createDevnetClient(anvil.url).request({ method: 'eth_accounts' });
if (!account) throw new Error('anvil has no accounts');
const wallet = createWalletClient({ transport: http(anvil.url), account });
const deployHash = await wallet.sendTransaction({
  data: encodeDeployData({ abi: emitter.abi, bytecode: emitter.bytecode }),
  chain: null,
});
const deployed = await client.waitForTransactionReceipt({ hash: deployHash });
const contract = deployed.contractAddress;
if (!contract) throw new Error('LogEmitter was not deployed');
console.log(`emitting ${txs} × ${perTx * 3} logs...`);
for (let index = 0; index < txs; index++) {
  const hash = await wallet.sendTransaction({
    to: contract,
    data: encodeFunctionData({ abi: emitter.abi, functionName: 'emitMany', args: [BigInt(perTx)] }),
    gas: 29_000_000n,
    chain: null,
  });
  await client.waitForTransactionReceipt({ hash });
}
const head = Number(await client.getBlockNumber());

interface Run {
  logs: number;
  rows: number;
  seconds: number;
  logs_per_second: number;
  seconds_fetching: number;
  seconds_decoding: number;
  seconds_writing: number;
}
const runs: Run[] = [];
const decodeRuns: number[] = [];
for (let attempt = 0; attempt < repeat; attempt++) {
  const root = await mkdtemp(path.join(tmpdir(), 'vigil-bench-index-'));
  const store = new IndexStore(root);
  await store.ensureSchema();
  const indexer = new ChainIndexer({ store, clientOf: () => client });
  let logs = 0;
  let rows = 0;
  const spent = { fetch: 0, decode: 0, write: 0 };
  const started = performance.now();
  for (let from = 0; from <= head; from += chunk) {
    const summary = await indexer.indexRange('devnet', from, Math.min(head, from + chunk - 1));
    logs += summary.logs;
    rows += Object.values(summary.rows).reduce((sum, count) => sum + count, 0);
    for (const key of ['fetch', 'decode', 'write'] as const) spent[key] += summary.timings_ms[key];
  }
  const seconds = (performance.now() - started) / 1000;
  runs.push({
    logs,
    rows,
    seconds: round(seconds),
    logs_per_second: Math.round(logs / seconds),
    seconds_fetching: round(spent.fetch / 1000),
    seconds_decoding: round(spent.decode / 1000),
    seconds_writing: round(spent.write / 1000),
  });
  await store.close();
  await rm(root, { recursive: true, force: true });
  // Decoding alone, on data already fetched: the share of the pipeline that is Vigil's own code.
  const fetched = await fetchRange(client, 0, head);
  const decodeStarted = performance.now();
  decodeRange({ chain: 'devnet', chainId: 31337 }, fetched.blocks, fetched.logs, fetched.creations);
  decodeRuns.push(Math.round(fetched.logs.length / ((performance.now() - decodeStarted) / 1000)));
}
await anvil.stop();

const sorted = [...runs].sort((a, b) => a.logs_per_second - b.logs_per_second);
const median = sorted[Math.floor(sorted.length / 2)] ?? sorted[0];
const decodeMedian = [...decodeRuns].sort((a, b) => a - b)[Math.floor(decodeRuns.length / 2)] ?? 0;
const result = {
  benchmark: 'indexer',
  measured_at: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, load_before: round(loadBefore) },
  setup: { blocks: head + 1, txs, logs_per_tx: perTx * 3, chunk_blocks: chunk, repeat },
  median_run: median,
  runs,
  decode_only_logs_per_second_median: decodeMedian,
  target_logs_per_second: 10_000,
};
await writeFile(path.join(values.out, 'indexer.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
