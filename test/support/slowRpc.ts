import { createServer, type Server } from 'node:http';

/** A request the proxy received: when (performance.now()), and what. */
export interface SeenRequest {
  at: number;
  method: string;
  params: unknown[];
}

/** A node's error to answer a request with instead of passing it on; undefined passes it on. */
export type RpcFault = (request: {
  method: string;
  params: unknown[];
}) => { code: number; message: string } | undefined;

/**
 * A JSON-RPC proxy that answers every request `delayMs` late: latency injected in front of a real
 * node, so a test can catch work in flight without touching the code under test. Each request's
 * arrival is noted (`seen`; a batch's requests each), and `fault` may answer a single request with
 * a node's error instead (what a slow or rate-limited node answers).
 */
export async function startSlowRpc(
  upstream: string,
  delayMs: number,
  { fault }: { fault?: RpcFault } = {},
): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const parsed = parse(body);
      for (const each of Array.isArray(parsed) ? parsed : [parsed])
        seen.push({ at: performance.now(), method: each.method, params: each.params ?? [] });
      setTimeout(() => {
        // A batch passes on whole; a single request may be answered with the fault's error.
        const single = Array.isArray(parsed) ? undefined : parsed;
        const error = single && fault?.({ method: single.method, params: single.params ?? [] });
        if (single && error) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: single.id, error }));
          return;
        }
        fetch(upstream, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
          .then(async (answer) => {
            response.writeHead(answer.status, { 'content-type': 'application/json' });
            response.end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch(() => {
            response.writeHead(502);
            response.end();
          });
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface JsonRpcRequest {
  id: unknown;
  method: string;
  params?: unknown[];
}

function parse(body: Buffer): JsonRpcRequest | JsonRpcRequest[] {
  try {
    return JSON.parse(body.toString()) as JsonRpcRequest | JsonRpcRequest[];
  } catch {
    return { id: null, method: '(not JSON)' };
  }
}
