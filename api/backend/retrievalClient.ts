import { VigilError } from '../../core/errors/vigilError.ts';
import type { BytecodeFingerprint } from '../../scanner/fingerprint/bytecodeFingerprint.ts';

const TIMEOUT_MS = 10_000;

/**
 * The backend's door to the retrieval service ({brain_url}): the catalog's RAG search and
 * code-similar tokens. An unreachable or failing service is a 503 for the caller, never a 500.
 */
export class RetrievalClient {
  readonly #baseUrl: string;

  /** Where the retrieval service listens (its health is probed there). */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
  }

  searchCatalog(query: string, topK: number): Promise<{ tools: unknown[] }> {
    return this.#post('/v1/catalog/search', { query, top_k: topK });
  }

  similarTokens(input: {
    chain: string;
    address: string;
    fingerprint: BytecodeFingerprint;
    top_k: number;
    cross_chain: boolean;
  }): Promise<{ tokens: unknown[]; indexed_tokens: number }> {
    return this.#post('/v1/tokens/similar', input);
  }

  async #post<T>(path: string, body: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.#baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new VigilError('index_unavailable', 'The retrieval service did not answer; retry shortly.', {
        headers: { 'retry-after': '5' },
        cause: error,
      });
    }
    if (!response.ok) {
      throw new VigilError(
        'index_unavailable',
        `The retrieval service answered ${response.status}; retry shortly.`,
        {
          headers: { 'retry-after': '5' },
        },
      );
    }
    return (await response.json()) as T;
  }
}
