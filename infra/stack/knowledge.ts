import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CHECK_CATALOG_PATH, checkCatalogDocument } from '../../retrieval/catalog/checkCatalog.ts';
import { REPO_ROOT } from './processes.ts';

interface Job {
  job_id: string;
  status: string;
  outcome: string | null;
  chunks: number | null;
  error: { reason: string; message: string } | null;
}

interface KnowledgeOptions {
  retrieval: string;
  say: (line: string) => void;
  /** Asked once everything is in, and its best hits printed. */
  question?: string;
}

/** Vigil's own documentation, as `npm start` puts it in the index: the README and every docs/ page. */
export function knowledgeDocuments(): { path: string; body: string; category: string }[] {
  const docs = readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return [
    ...['README.md', ...docs].map((file) => ({
      path: file,
      body: readFileSync(path.join(REPO_ROOT, file), 'utf8'),
      category: 'docs',
    })),
    { path: CHECK_CATALOG_PATH, body: checkCatalogDocument(), category: 'risk' },
  ];
}

/**
 * Ingests Vigil's docs and the check catalog through the retrieval service (the durable ingest
 * workflow, like any client's document; unchanged ones are left as they are), then asks a
 * question so the demo shows an answer with its sources.
 */
export async function ingestKnowledge(options: KnowledgeOptions): Promise<void> {
  const { retrieval, say } = options;
  const documents = knowledgeDocuments();
  say(`knowledge: ingesting ${documents.length} documents through POST /v1/ingest ...`);
  const jobs = await Promise.all(
    documents.map(async (document) => {
      const query = new URLSearchParams({
        doc_id: document.path,
        source: document.path,
        ecosystem: 'vigil',
        category: document.category,
      });
      const response = await fetch(`${retrieval}/v1/ingest?${query.toString()}`, {
        method: 'POST',
        headers: { 'content-type': 'text/markdown' },
        body: document.body,
      });
      return { document, job: (await response.json()) as Job };
    }),
  );
  const deadline = Date.now() + 180_000;
  for (const { document, job } of jobs) {
    let view = job;
    while (view.status === 'running' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      view = (await (await fetch(`${retrieval}/v1/ingest/${job.job_id}`)).json()) as Job;
    }
    const detail = view.error
      ? `${view.error.reason}: ${view.error.message}`
      : `${view.outcome ?? view.status}, ${view.chunks ?? 0} chunks`;
    say(`  ${document.path.padEnd(24)} ${detail}`);
  }
  const question = options.question ?? 'what does lp_unlocked mean?';
  const response = await fetch(`${retrieval}/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: question, top_k: 3 }),
  });
  const { hits } = (await response.json()) as { hits: { source: string; text: string }[] };
  say(`knowledge: "${question}"`);
  for (const hit of hits) say(`  ${hit.source.padEnd(36)} ${hit.text.replace(/\s+/g, ' ').slice(0, 90)}`);
}
