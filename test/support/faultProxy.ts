import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Fault {
  status: number;
  body: string;
  contentType?: string;
}

/**
 * An HTTP proxy in front of a real service that answers chosen paths with an injected fault
 * (a status and a body) instead of forwarding them; everything else reaches the service.
 */
export async function startFaultProxy(target: string) {
  const faults = new Map<string, Fault>();
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = request.url ?? '/';
      seen.push(path);
      const fault = faults.get(path);
      if (fault) {
        await drain(request);
        response.writeHead(fault.status, { 'content-type': fault.contentType ?? 'application/json' });
        response.end(fault.body);
        return;
      }
      const body = await drain(request);
      const upstream = await fetch(`${target}${path}`, {
        method: request.method ?? 'GET',
        headers: {
          'content-type': request.headers['content-type'] ?? 'application/json',
          ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        },
        ...(body.length > 0 ? { body } : {}),
      });
      response.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    })().catch(() => {
      response.writeHead(502);
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Paths requested so far (faulted or forwarded). */
    seen,
    inject(path: string, fault: Fault) {
      faults.set(path, fault);
    },
    clear() {
      faults.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function drain(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
