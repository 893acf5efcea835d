import { createServer, type Server } from 'node:http';

export interface RpcCall {
  method: string;
  params: unknown[];
}

/**
 * A JSON-RPC proxy in front of a real node that records every call it forwards (batches
 * included), so a test can count the chain work a request caused.
 */
export async function startRecordingRpc(upstream: string): Promise<{
  url: string;
  calls: RpcCall[];
  /** From now on, answer every call with this HTTP status instead (undefined: forward again). */
  breakWith(status: number | undefined): void;
  /** Answer calls of these methods "method not found", as providers without them do. */
  refuse(methods: readonly string[]): void;
  close(): Promise<void>;
}> {
  const calls: RpcCall[] = [];
  let broken: number | undefined;
  let refused: readonly string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (broken !== undefined) {
        response.writeHead(broken, { 'content-type': 'text/plain' });
        response.end('upstream unavailable');
        return;
      }
      let single: { id?: unknown; method?: unknown } | undefined;
      try {
        const parsed = JSON.parse(body.toString('utf8')) as unknown;
        if (!Array.isArray(parsed)) single = parsed as { id?: unknown; method?: unknown };
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
          const { method, params } = call as { method?: unknown; params?: unknown };
          calls.push({ method: String(method), params: Array.isArray(params) ? params : [] });
        }
      } catch {
        calls.push({ method: '(unparsable)', params: [] });
      }
      if (single && refused.includes(String(single.method))) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: single.id,
            error: { code: -32601, message: 'Method not found' },
          }),
        );
        return;
      }
      fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => {
          response.writeHead(502);
          response.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    calls,
    breakWith(status) {
      broken = status;
    },
    refuse(methods) {
      refused = methods;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
