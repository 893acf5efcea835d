// The local embedder against an independent reference: Hugging Face's Rust `tokenizers` and
// onnxruntime's Python package on the same model file (bench/embedding/reference.py), over every
// labelled question and a sample of the docs' chunks, including ones longer than 256 word pieces.
//   python3 -m venv /tmp/ref && /tmp/ref/bin/pip install onnxruntime tokenizers numpy
//   npm run bench:embedding-parity -- --python /tmp/ref/bin/python [--write]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseEnv } from '../core/config/env.ts';
import { knowledgeDocuments } from '../infra/stack/knowledge.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { RetrievalEnv } from '../retrieval/config.ts';
import { dot } from '../retrieval/embedding/embedder.ts';
import { OnnxEmbedder } from '../retrieval/embedding/onnxEmbedder.ts';
import { prepareChunks } from '../retrieval/ingest/document.ts';

const { values } = parseArgs({
  options: {
    python: { type: 'string', default: 'python3' },
    write: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const env = parseEnv(RetrievalEnv, process.env);
const questions = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'retrieval', 'questions.json'), 'utf8')) as {
    questions: { question: string }[];
  }
).questions.map((entry) => entry.question);
const chunks = knowledgeDocuments()
  .flatMap((document) => prepareChunks(document.body, env.RETRIEVAL_CHUNK_CHARS))
  .filter((_, index) => index % 4 === 0)
  .map((chunk) => chunk.text);
const texts = [...questions, ...chunks];

const embedder = await OnnxEmbedder.load({ modelDir: env.EMBEDDING_MODEL_DIR, batchSize: 16, threads: 0 });
const ours = await embedder.embed(texts);
await embedder.close();
const reference = JSON.parse(
  execFileSync(
    values.python,
    [path.join(REPO_ROOT, 'bench', 'embedding', 'reference.py'), env.EMBEDDING_MODEL_DIR],
    {
      input: JSON.stringify(texts),
      maxBuffer: 256 * 1024 * 1024,
    },
  ).toString(),
) as { onnxruntime: string; vectors: number[][] };
const cosines = ours.map((vector, i) => dot(vector, reference.vectors[i] ?? []));
const sorted = [...cosines].sort((a, b) => a - b);
const result = {
  date: new Date().toISOString(),
  model: embedder.model,
  reference: `tokenizers (Rust) + onnxruntime ${reference.onnxruntime} (Python)`,
  texts: texts.length,
  questions: questions.length,
  chunks: chunks.length,
  min_cosine: sorted[0] ?? 0,
  mean_cosine: cosines.reduce((sum, value) => sum + value, 0) / Math.max(1, cosines.length),
};
const markdown = `Embedding parity, ${result.date.slice(0, 10)}: ${result.texts} texts (${result.questions} questions, ${result.chunks} chunks); cosine between Vigil's embedder and the reference (${result.reference}): min ${result.min_cosine.toFixed(6)}, mean ${result.mean_cosine.toFixed(6)}.\n`;
console.log(markdown);
if (values.write) {
  await writeFile(path.join(values.out, 'embedding-parity.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(values.out, 'embedding-parity.md'), markdown);
}
