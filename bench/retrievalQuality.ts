// Retrieval quality on the labelled questions (bench/retrieval/questions.json): nDCG@10 and
// recall@10 of lexical, vector and hybrid search, on the tuning half and the held-out half.
//   npm run bench:retrieval-quality -- --spec <the API specification file> [--write]
// The corpus is what `npm start` indexes (README.md, docs/*.md, the check catalog) plus the API
// specification, indexed in a throwaway folder with the same chunking and model as the service.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseEnv } from '../core/config/env.ts';
import { knowledgeDocuments } from '../infra/stack/knowledge.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { RetrievalEnv } from '../retrieval/config.ts';
import { createEmbedder } from '../retrieval/embedding/index.ts';
import { judge, mean, ndcgAtK, recallAtK } from '../retrieval/eval/metrics.ts';
import { indexNow } from '../retrieval/ingest/indexNow.ts';
import { Retriever, SearchMode } from '../retrieval/search/retriever.ts';
import { LanceChunkStore } from '../retrieval/store/lanceChunkStore.ts';

const { values } = parseArgs({
  options: {
    spec: { type: 'string' },
    write: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
if (!values.spec) {
  console.error('--spec <file>: the API specification is part of the corpus the questions are about');
  process.exit(2);
}
export const SPEC_PATH = 'api-specification';

const Questions = z.object({
  questions: z.array(
    z.object({
      id: z.string(),
      split: z.enum(['tune', 'heldout']),
      question: z.string(),
      relevant: z.array(z.object({ source: z.string(), contains: z.string() })).min(1),
    }),
  ),
});
const { questions } = Questions.parse(
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'retrieval', 'questions.json'), 'utf8')),
);

const env = parseEnv(RetrievalEnv, process.env);
const dir = await mkdtemp(path.join(tmpdir(), 'vigil-quality-'));
const store = await LanceChunkStore.open(dir);
const embedder = await createEmbedder(env);
const documents = [
  ...knowledgeDocuments(),
  { path: SPEC_PATH, body: readFileSync(values.spec, 'utf8'), category: 'spec' },
];
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
}
const chunks = (await store.stats()).chunks;
const retriever = new Retriever(store, embedder);

type Split = 'tune' | 'heldout' | 'all';
const modes = [SearchMode.lexical, SearchMode.vector, SearchMode.hybrid];
const perQuestion: Record<string, Record<string, { ndcg: number; recall: number }>> = {};
for (const question of questions) {
  perQuestion[question.id] = {};
  for (const mode of modes) {
    const hits = await retriever.search({ query: question.question, topK: 10, mode });
    const judgements = judge(
      hits.map((hit) => ({ path: hit.row.path, text: hit.row.text })),
      question.relevant,
    );
    const scores = perQuestion[question.id];
    if (scores)
      scores[mode] = {
        ndcg: ndcgAtK(judgements, question.relevant.length),
        recall: recallAtK(judgements, question.relevant.length),
      };
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const table = (['heldout', 'tune', 'all'] as Split[]).flatMap((split) => {
  const chosen = questions.filter((question) => split === 'all' || question.split === split);
  return modes.map((mode) => ({
    split,
    mode,
    questions: chosen.length,
    ndcg_at_10: round(mean(chosen.map((question) => perQuestion[question.id]?.[mode]?.ndcg ?? 0))),
    recall_at_10: round(mean(chosen.map((question) => perQuestion[question.id]?.[mode]?.recall ?? 0))),
  }));
});

const result = {
  date: new Date().toISOString(),
  model: embedder.model,
  chunk_chars: env.RETRIEVAL_CHUNK_CHARS,
  documents: documents.length,
  chunks,
  table,
  per_question: perQuestion,
};
const markdown = [
  `Retrieval quality, ${result.date.slice(0, 10)}: ${questions.length} labelled questions over ${documents.length} documents (${chunks} chunks), ${embedder.model}.`,
  '',
  '| split | mode | questions | nDCG@10 | recall@10 |',
  '|---|---|---|---|---|',
  ...table.map(
    (row) => `| ${row.split} | ${row.mode} | ${row.questions} | ${row.ndcg_at_10} | ${row.recall_at_10} |`,
  ),
  '',
].join('\n');
console.log(markdown);
if (values.write) {
  await writeFile(path.join(values.out, 'retrieval-quality.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(values.out, 'retrieval-quality.md'), markdown);
}
await store.close();
await embedder.close();
await rm(dir, { recursive: true, force: true });
