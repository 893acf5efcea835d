import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';

/** Where the proxy's own connections come from, so a target can tell them from direct ones. */
export const PROXY_EGRESS_ADDRESS = '127.0.0.2';

export interface ConnectProxy {
  /** http://user:pass@127.0.0.1:port */
  url: string;
  /** CONNECT targets it tunnelled, in order. */
  tunnels: string[];
  /** Requests refused for missing or wrong credentials. */
  refused: number;
  close(): Promise<void>;
}

/**
 * An authenticated forward proxy that only speaks CONNECT (as commercial proxies do for
 * scraping), dialling out from its own loopback address: a stand-in for a residential proxy
 * whose exit IP the target treats differently.
 */
export async function startConnectProxy(user: string, password: string): Promise<ConnectProxy> {
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const sockets = new Set<Duplex>();
  const state = { tunnels: [] as string[], refused: 0 };
  const server = http.createServer((_request, response) => {
    // Plain forwarding is not offered: only tunnels.
    response.writeHead(405).end();
  });
  server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.once('close', () => sockets.delete(client));
    if (request.headers['proxy-authorization'] !== expected) {
      state.refused++;
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    const target = request.url ?? '';
    const cut = target.lastIndexOf(':');
    const upstream = net.connect({
      host: target.slice(0, cut).replace(/^\[|\]$/g, ''),
      port: Number(target.slice(cut + 1)),
      localAddress: PROXY_EGRESS_ADDRESS,
    });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      state.tunnels.push(target);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    get tunnels() {
      return state.tunnels;
    },
    get refused() {
      return state.refused;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
