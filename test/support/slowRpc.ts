import { createServer, type Server } from 'node:http';

/**
 * A JSON-RPC proxy that answers every request `delayMs` late: latency injected in front of a real
 * node, so a test can catch work in flight without touching the code under test.
 */
export async function startSlowRpc(
  upstream: string,
  delayMs: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      setTimeout(() => {
        fetch(upstream, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
