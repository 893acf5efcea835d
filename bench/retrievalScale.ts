// Retrieval speed: ingest throughput of the real pipeline (chunk, embed, stage, commit) and
// query latency of each mode on an index of --chunks chunks (default 100,000), with memory.
//   npm run bench:retrieval -- [--chunks 100000] [--queries 200] [--repeat 3] [--spec <file>] [--write]
// The large index is built from the real chunks of Vigil's docs (and the API specification when
// given) with their real embeddings: each synthetic chunk is a real one with a fifth of its
// words swapped for words of the corpus, and its vector the real vector plus noise, so the
// term statistics and the vector neighbourhoods look like a large documentation corpus without
// embedding 100,000 chunks on the benchmark machine.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseEnv } from '../core/config/env.ts';
import { knowledgeDocuments } from '../infra/stack/knowledge.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { RetrievalEnv } from '../retrieval/config.ts';
import { normalize } from '../retrieval/embedding/embedder.ts';
import { createEmbedder } from '../retrieval/embedding/index.ts';
import { prepareChunks } from '../retrieval/ingest/document.ts';
import { indexNow } from '../retrieval/ingest/indexNow.ts';
import { embeddingText, Retriever, SearchMode } from '../retrieval/search/retriever.ts';
import type { ChunkRow } from '../retrieval/store/chunkStore.ts';
import { LanceChunkStore, VECTOR_INDEX_MIN_ROWS } from '../retrieval/store/lanceChunkStore.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '3' },
    spec: { type: 'string' },
    write: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const target = Number(values.chunks);
const queryCount = Number(values.queries);
const repeat = Number(values.repeat);
const loadBefore = loadavg()[0] ?? 0;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const round = (value: number) => Math.round(value * 100) / 100;

const env = parseEnv(RetrievalEnv, process.env);
const rssStart = process.memoryUsage().rss;
const embedder = await createEmbedder(env);
const rssModel = process.memoryUsage().rss;
const documents = [
  ...knowledgeDocuments(),
  ...(values.spec
    ? [{ path: 'api-specification', body: readFileSync(values.spec, 'utf8'), category: 'spec' }]
    : []),
];

// 1. Ingest throughput: the real pipeline over the real documents, into a fresh index, `repeat` times.
const ingestRuns: { chunks: number; seconds: number; chunks_per_second: number }[] = [];
for (let run = 0; run < repeat; run++) {
  const dir = await mkdtemp(path.join(tmpdir(), 'vigil-ingest-'));
  const store = await LanceChunkStore.open(dir);
  const started = performance.now();
  let chunks = 0;
  for (const document of documents) {
    await indexNow(
      store,
      embedder,
      {
        docId: document.path,
        path: document.path,
        ecosystem: 'vigil',
        category: document.category,
        markdown: document.body,
      },
      env.RETRIEVAL_CHUNK_CHARS,
    );
    chunks += prepareChunks(document.body, env.RETRIEVAL_CHUNK_CHARS).length;
  }
  const seconds = (performance.now() - started) / 1000;
  ingestRuns.push({ chunks, seconds: round(seconds), chunks_per_second: round(chunks / seconds) });
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
const medianIngest = [...ingestRuns].sort((a, b) => a.chunks_per_second - b.chunks_per_second)[
  Math.floor(repeat / 2)
];

// 2. The large index.
const base = documents.flatMap((document) =>
  prepareChunks(document.body, env.RETRIEVAL_CHUNK_CHARS).map((chunk) => ({ document, chunk })),
);
const baseVectors = await embedder.embed(base.map(({ chunk }) => embeddingText(chunk.headings, chunk.text)));
const vocabulary = [
  ...new Set(
    base.flatMap(({ chunk }) => chunk.text.split(/\s+/).filter((word) => /^[a-z]{3,}$/i.test(word))),
  ),
];
let seed = 42;
const random = () => {
  // xorshift32: a seeded generator, so every run builds the same index.
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
};
const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
const dir = await mkdtemp(path.join(tmpdir(), 'vigil-scale-'));
const store = await LanceChunkStore.open(dir);
const perDocument = 10_000;
const buildStarted = performance.now();
for (let doc = 0; doc * perDocument < target; doc++) {
  const rows: ChunkRow[] = [];
  for (let i = 0; i < perDocument && doc * perDocument + i < target; i++) {
    const n = doc * perDocument + i;
    const source = base[n % base.length];
    const vector = baseVectors[n % base.length];
    if (!source || !vector) continue;
    const words = source.chunk.text.split(/(\s+)/);
    for (let w = 0; w < words.length; w += 2)
      if (random() < 0.2) words[w] = vocabulary[Math.floor(random() * vocabulary.length)] ?? '';
    const noisy = Float32Array.from(vector, (value) => value + gaussian() * 0.03);
    rows.push({
      id: `synthetic-${doc}:v1:${i}`,
      doc_id: `synthetic-${doc}`,
      version: 'v1',
      received_at: 1,
      chunk_index: i,
      text: words.join(''),
      headings: source.chunk.headings.join(' > '),
      path: `synthetic/${doc}/${source.document.path}`,
      start_line: source.chunk.startLine,
      end_line: source.chunk.endLine,
      ecosystem: 'vigil',
      category: source.document.category,
      vector: normalize(noisy),
    });
  }
  await store.stage(`build-${doc}`, rows);
  await store.commit(`build-${doc}`, `synthetic-${doc}`, 1);
}
const buildSeconds = (performance.now() - buildStarted) / 1000;
await store.close();
// What a service holds while it serves this index: a fresh connection, the build's memory freed.
(globalThis as { gc?: () => void }).gc?.();
const served = await LanceChunkStore.open(dir);
const stats = await served.stats();
const rssIndex = process.memoryUsage().rss;

// 3. Query latency, one query at a time, each mode `repeat` times; the median run is reported.
const Questions = z.object({ questions: z.array(z.object({ question: z.string() })) });
const questionTexts = Questions.parse(
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'retrieval', 'questions.json'), 'utf8')),
).questions.map((entry) => entry.question);
const retriever = new Retriever(served, embedder);
const modes = [SearchMode.lexical, SearchMode.vector, SearchMode.hybrid] as const;
const latency: Record<
  string,
  { runs: { p50_ms: number; p95_ms: number }[]; p50_ms: number; p95_ms: number }
> = {};
for (const mode of modes) {
  const runs: { p50_ms: number; p95_ms: number }[] = [];
  for (let run = 0; run < repeat; run++) {
    const times: number[] = [];
    for (let q = 0; q < queryCount; q++) {
      const started = performance.now();
      await retriever.search({
        query: questionTexts[q % questionTexts.length] ?? 'liquidity',
        topK: 10,
        mode,
      });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    runs.push({ p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)) });
  }
  const median = [...runs].sort((a, b) => a.p50_ms - b.p50_ms)[Math.floor(repeat / 2)] ?? {
    p50_ms: 0,
    p95_ms: 0,
  };
  latency[mode] = { runs, ...median };
}
const rssEnd = process.memoryUsage().rss;

// 4. The ANN index against an exact scan: share of the exact top 10 it returns.
const overlaps: number[] = [];
for (const question of questionTexts.slice(0, 50)) {
  const [vector] = await embedder.embed([question]);
  if (!vector) continue;
  const [approximate, exact] = await Promise.all([
    served.vector(vector, 10, {}),
    served.vector(vector, 10, {}, { exact: true }),
  ]);
  const found = new Set(approximate.map((hit) => hit.row.id));
  overlaps.push(exact.filter((hit) => found.has(hit.row.id)).length / Math.max(1, exact.length));
}
const annRecall = round(overlaps.reduce((sum, value) => sum + value, 0) / Math.max(1, overlaps.length));
const loadAfter = loadavg()[0] ?? 0;

const result = {
  date: new Date().toISOString(),
  model: embedder.model,
  load_average: { before: round(loadBefore), after: round(loadAfter) },
  ingest: {
    runs: ingestRuns,
    median_chunks_per_second: medianIngest?.chunks_per_second ?? 0,
    documents: documents.length,
  },
  index: { chunks: stats.chunks, build_seconds: round(buildSeconds), ann_recall_at_10_vs_exact: annRecall },
  embedding_threads: env.EMBEDDING_THREADS,
  query: { queries_per_run: queryCount, repeat, ...latency },
  memory_mb: {
    start: mb(rssStart),
    model_loaded: mb(rssModel),
    index_built: mb(rssIndex),
    after_queries: mb(rssEnd),
  },
};
const markdown = [
  `Retrieval speed, ${result.date.slice(0, 10)} (${result.model}; load average ${result.load_average.before} → ${result.load_average.after}):`,
  '',
  `- ingest (chunk, embed, stage, commit), ${documents.length} documents, median of ${repeat}: **${result.ingest.median_chunks_per_second} chunks/s** on one worker (runs: ${ingestRuns.map((run) => run.chunks_per_second).join(', ')})`,
  `- index of ${stats.chunks} chunks built in ${result.index.build_seconds} s (full-text index and, from ${VECTOR_INDEX_MIN_ROWS} chunks, an HNSW vector index); the vector index returns ${annRecall * 100} % of the exact top 10`,
  '',
  `| mode | p50 ms | p95 ms | runs (p50) |`,
  '|---|---|---|---|',
  ...modes.map(
    (mode) =>
      `| ${mode} | ${latency[mode]?.p50_ms} | ${latency[mode]?.p95_ms} | ${latency[mode]?.runs.map((run) => run.p50_ms).join(', ')} |`,
  ),
  '',
  `Memory (RSS of the process): ${result.memory_mb.start} MB at start, ${result.memory_mb.model_loaded} MB with the model loaded, ${result.memory_mb.index_built} MB with the built index opened afresh, ${result.memory_mb.after_queries} MB after the queries.`,
  '',
].join('\n');
console.log(markdown);
if (values.write) {
  await writeFile(path.join(values.out, 'retrieval-speed.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(values.out, 'retrieval-speed.md'), markdown);
}
await served.close();
await embedder.close();
await rm(dir, { recursive: true, force: true });
