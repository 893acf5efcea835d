import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { z } from 'zod';
import { IntEnv, OptionalEnv } from '../core/config/env.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Settings of the retrieval library, shared by the retrieval service and the ingest pool. */
export const RetrievalEnv = z.object({
  VIGIL_DATA_DIR: z.string().optional(),
  /**
   * Where the index lives: a folder (default `<data>/retrieval`), or an object-store URI LanceDB
   * opens (`s3://bucket/prefix`, `gs://…`, `az://…`) so several machines share one index.
   */
  RETRIEVAL_INDEX_URI: OptionalEnv,
  /**
   * How stale a search may be of what ingest workers committed, in seconds: 0 looks for a newer
   * index version on every read (cheap on a local disk); on object storage a few seconds saves
   * a request per query.
   */
  RETRIEVAL_READ_CONSISTENCY_SECONDS: z.coerce.number().min(0).max(3_600).default(0),
  /** An OpenAI-compatible embeddings endpoint (its base URL, e.g. `https://host/v1`); unset = the local model. */
  EMBEDDING_URL: OptionalEnv.pipe(z.url({ protocol: /^https?$/ }).optional()),
  EMBEDDING_API_KEY: OptionalEnv,
  /** The model name sent to EMBEDDING_URL. */
  EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  /** Folder holding the local model's `model.onnx` and `tokenizer.json` (provisioned). */
  EMBEDDING_MODEL_DIR: z.string().default(path.join(REPO_ROOT, '.tools', 'models', 'all-minilm-l6-v2')),
  /** Texts embedded per model call. */
  EMBEDDING_BATCH_SIZE: IntEnv(1, 512).default(32),
  /** CPU threads the local model may use per call (0 = onnxruntime's choice). */
  EMBEDDING_THREADS: IntEnv(0, 64).default(1),
  /** Longest chunk, in characters (the local model reads at most 256 word pieces, about 1,000 characters). */
  RETRIEVAL_CHUNK_CHARS: IntEnv(200, 8_000).default(1_200),
  /** Largest document accepted for ingest, in bytes. */
  RETRIEVAL_MAX_DOCUMENT_BYTES: IntEnv(1_024, 100 * 1024 * 1024).default(5 * 1024 * 1024),
});
export type RetrievalEnv = z.infer<typeof RetrievalEnv>;

export function indexUri(env: RetrievalEnv): string {
  return (
    env.RETRIEVAL_INDEX_URI ?? path.join(env.VIGIL_DATA_DIR ?? path.join(REPO_ROOT, '.data'), 'retrieval')
  );
}
