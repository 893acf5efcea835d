import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as tokenizers from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { type Embedder, normalize } from './embedder.ts';

/** The part of tokenizers.js used here (its published types do not resolve for the linter). */
interface WordPieceTokenizer {
  encode(text: string): { ids: number[] };
}
type TokenizerConstructor = new (tokenizerJson: object, config: object) => WordPieceTokenizer;
const Tokenizer = (tokenizers as unknown as { Tokenizer: TokenizerConstructor }).Tokenizer;

/** all-MiniLM-L6-v2 was trained on sequences of at most 256 word pieces; longer input is cut there. */
const MAX_TOKENS = 256;

export interface OnnxEmbedderOptions {
  modelDir: string;
  batchSize: number;
  /** Intra-op threads per call; 0 lets onnxruntime decide. */
  threads: number;
}

/**
 * A sentence-embedding model run in-process with onnxruntime: tokenized by the model's own
 * tokenizer.json, mean-pooled over the attention mask and scaled to unit length, as
 * sentence-transformers does for all-MiniLM-L6-v2 (the ONNX file holds only the transformer, so
 * the pooling is written here).
 */
export class OnnxEmbedder implements Embedder {
  readonly model: string;
  dimensions = 0;
  readonly #session: ort.InferenceSession;
  readonly #tokenizer: WordPieceTokenizer;
  readonly #batchSize: number;
  readonly #needsTokenTypes: boolean;

  private constructor(
    session: ort.InferenceSession,
    tokenizer: WordPieceTokenizer,
    options: { model: string; batchSize: number },
  ) {
    this.#session = session;
    this.#tokenizer = tokenizer;
    this.model = options.model;
    this.#batchSize = options.batchSize;
    this.#needsTokenTypes = session.inputNames.includes('token_type_ids');
  }

  static async load(options: OnnxEmbedderOptions): Promise<OnnxEmbedder> {
    const modelFile = path.join(options.modelDir, 'model.onnx');
    const tokenizerFile = path.join(options.modelDir, 'tokenizer.json');
    let tokenizerJson: unknown;
    try {
      tokenizerJson = JSON.parse(await readFile(tokenizerFile, 'utf8'));
    } catch (error) {
      throw new Error(
        `The embedding model is not in ${options.modelDir} (run infra/provision.sh, or set EMBEDDING_URL)`,
        { cause: error },
      );
    }
    const tokenizer = new Tokenizer(tokenizerJson as object, { do_lower_case: true });
    const session = await ort.InferenceSession.create(modelFile, {
      ...(options.threads > 0 ? { intraOpNumThreads: options.threads } : {}),
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const version = await readFile(path.join(options.modelDir, '.version'), 'utf8').catch(() => '');
    const embedder = new OnnxEmbedder(session, tokenizer, {
      model: `all-MiniLM-L6-v2${version.trim() ? ` (${version.trim()})` : ''}`,
      batchSize: options.batchSize,
    });
    const [probe] = await embedder.embed(['dimension probe']);
    embedder.dimensions = probe?.length ?? 0;
    return embedder;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.#batchSize) {
      vectors.push(...(await this.#embedBatch(texts.slice(i, i + this.#batchSize))));
    }
    return vectors;
  }

  async #embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const encoded: number[][] = texts.map((text) => {
      const ids = this.#tokenizer.encode(text).ids;
      // Keep [CLS] … and close with the final [SEP] when the text is cut.
      return ids.length <= MAX_TOKENS ? ids : [...ids.slice(0, MAX_TOKENS - 1), ids[ids.length - 1] ?? 0];
    });
    const width = Math.max(1, ...encoded.map((ids) => ids.length));
    const size = texts.length * width;
    const inputIds = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    encoded.forEach((ids, row) => {
      ids.forEach((id, column) => {
        inputIds[row * width + column] = BigInt(id);
        mask[row * width + column] = 1n;
      });
    });
    const dims = [texts.length, width];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', inputIds, dims),
      attention_mask: new ort.Tensor('int64', mask, dims),
      ...(this.#needsTokenTypes
        ? { token_type_ids: new ort.Tensor('int64', new BigInt64Array(size), dims) }
        : {}),
    };
    const outputs = await this.#session.run(feeds);
    const hidden = outputs[this.#session.outputNames[0] ?? 'last_hidden_state'];
    if (!hidden) throw new Error('the embedding model returned no hidden state');
    const data = hidden.data as Float32Array;
    const dimensions = hidden.dims[2] ?? 0;
    return encoded.map((ids, row) => {
      const pooled = new Float32Array(dimensions);
      for (let column = 0; column < ids.length; column++) {
        const offset = (row * width + column) * dimensions;
        for (let d = 0; d < dimensions; d++) pooled[d] = (pooled[d] ?? 0) + (data[offset + d] ?? 0);
      }
      for (let d = 0; d < dimensions; d++) pooled[d] = (pooled[d] ?? 0) / Math.max(1, ids.length);
      return normalize(pooled);
    });
  }

  async close(): Promise<void> {
    await this.#session.release();
  }
}
