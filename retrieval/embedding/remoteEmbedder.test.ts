import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteEmbedder } from './remoteEmbedder.ts';

/**
 * An endpoint speaking the OpenAI embeddings shape, answering items out of order (the API allows
 * it) with vectors that are not unit length; `fail` makes it answer 500.
 */
function startEndpoint(): Promise<{
  server: Server;
  url: string;
  seen: IncomingMessage[];
  state: { fail: boolean };
}> {
  const seen: IncomingMessage[] = [];
  const state = { fail: false };
  const server = createServer((request, response) => {
    seen.push(request);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (state.fail || request.url !== '/v1/embeddings') {
        response.writeHead(state.fail ? 500 : 404).end('{}');
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      const data = input
        .map((text, index) => ({ index, embedding: [text.length, 2 * text.length, 0] }))
        .reverse();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, state }),
    ),
  );
}

describe('RemoteEmbedder (OpenAI-compatible endpoint)', () => {
  let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
  beforeAll(async () => {
    endpoint = await startEndpoint();
  });
  afterAll(() => {
    endpoint.server.close();
  });

  it('learns the vector size, batches, keeps input order and normalises', async () => {
    const embedder = await RemoteEmbedder.connect({
      url: endpoint.url,
      apiKey: 'sk-secret',
      model: 'm',
      batchSize: 2,
    });
    expect(embedder.dimensions).toBe(3);
    const before = endpoint.seen.length;
    const vectors = await embedder.embed(['a', 'bbb', 'cc']);
    expect(endpoint.seen.length - before).toBe(2);
    expect(vectors.map((vector) => Array.from(vector).map((value) => Number(value.toFixed(4))))).toEqual([
      [0.4472, 0.8944, 0],
      [0.4472, 0.8944, 0],
      [0.4472, 0.8944, 0],
    ]);
    expect(endpoint.seen.at(-1)?.headers.authorization).toBe('Bearer sk-secret');
  });

  it('fails with the status and never the key or the URL path in the message', async () => {
    const embedder = await RemoteEmbedder.connect({
      url: `${endpoint.url}`,
      apiKey: 'sk-secret',
      model: 'm',
      batchSize: 8,
    });
    endpoint.state.fail = true;
    const error = await embedder.embed(['x']).catch((caught: unknown) => caught as Error);
    endpoint.state.fail = false;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/answered 500/);
    expect((error as Error).message).not.toContain('sk-secret');
    expect(embedder.model).not.toContain('sk-secret');
  });
});
