import { redactUrl } from '../../core/errors/redactUrl.ts';
import { z } from 'zod';
import { type Embedder, normalize } from './embedder.ts';

const EmbeddingsResponse = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

export interface RemoteEmbedderOptions {
  /** Base URL of an OpenAI-compatible API (`…/v1`); `/embeddings` is appended. */
  url: string;
  apiKey?: string | undefined;
  model: string;
  batchSize: number;
  timeoutMs?: number;
}

/** An OpenAI-compatible `POST /embeddings` endpoint (OpenAI, vLLM, Ollama, text-embeddings-inference…). */
export class RemoteEmbedder implements Embedder {
  readonly model: string;
  dimensions = 0;
  readonly #options: RemoteEmbedderOptions;

  private constructor(options: RemoteEmbedderOptions) {
    this.#options = options;
    this.model = `${options.model} @ ${redactUrl(options.url)}`;
  }

  /** Connects and learns the vector size from one probe call. */
  static async connect(options: RemoteEmbedderOptions): Promise<RemoteEmbedder> {
    const embedder = new RemoteEmbedder(options);
    const [probe] = await embedder.embed(['dimension probe']);
    embedder.dimensions = probe?.length ?? 0;
    return embedder;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.#options.batchSize) {
      vectors.push(...(await this.#call(texts.slice(i, i + this.#options.batchSize))));
    }
    return vectors;
  }

  async #call(input: readonly string[]): Promise<Float32Array[]> {
    const endpoint = `${this.#options.url.replace(/\/+$/, '')}/embeddings`;
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.#options.apiKey ? { authorization: `Bearer ${this.#options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.#options.model, input }),
      signal: AbortSignal.timeout(this.#options.timeoutMs ?? 30_000),
    });
    if (!response.ok) {
      throw new Error(`the embedding endpoint ${redactUrl(endpoint)} answered ${response.status}`);
    }
    const parsed = EmbeddingsResponse.safeParse(await response.json());
    if (!parsed.success || parsed.data.data.length !== input.length) {
      throw new Error(`the embedding endpoint ${redactUrl(endpoint)} answered an unexpected body`);
    }
    const ordered = [...parsed.data.data].sort((a, b) => a.index - b.index);
    return ordered.map((item) => normalize(Float32Array.from(item.embedding)));
  }

  async close(): Promise<void> {}
}
