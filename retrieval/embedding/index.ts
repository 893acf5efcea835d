import type { RetrievalEnv } from '../config.ts';
import type { Embedder } from './embedder.ts';
import { OnnxEmbedder } from './onnxEmbedder.ts';
import { RemoteEmbedder } from './remoteEmbedder.ts';

export type { Embedder } from './embedder.ts';

/** The configured embedder: the OpenAI-compatible endpoint when EMBEDDING_URL is set, else the local model. */
export function createEmbedder(env: RetrievalEnv): Promise<Embedder> {
  if (env.EMBEDDING_URL) {
    return RemoteEmbedder.connect({
      url: env.EMBEDDING_URL,
      apiKey: env.EMBEDDING_API_KEY,
      model: env.EMBEDDING_MODEL,
      batchSize: env.EMBEDDING_BATCH_SIZE,
    });
  }
  return OnnxEmbedder.load({
    modelDir: env.EMBEDDING_MODEL_DIR,
    batchSize: env.EMBEDDING_BATCH_SIZE,
    threads: env.EMBEDDING_THREADS,
  });
}
