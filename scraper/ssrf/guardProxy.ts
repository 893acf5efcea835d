import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { type EgressGuard, UrlRefusedError } from './guard.ts';

/** Marks answers the proxy made itself, so a browser tier can tell a refusal from the site's own 403. */
export const EGRESS_HEADER = 'x-vigil-egress';

export interface GuardProxyOptions {
  guard: EgressGuard;
  /** Chain through this upstream proxy (http://user:pass@host:port), after the guard's check. */
  upstream?: string;
  /**
   * Bytes the targets may send through this proxy in all (one browser job's page, subresources,
   * websockets). Past it every connection is cut and new ones are refused.
   */
  maxBytes?: number;
}

/**
 * A forward proxy on loopback that all browser traffic goes through (Chromium is launched with
 * it, and Playwright sends loopback through it too). Every CONNECT tunnel and every plain-HTTP
 * request is resolved and checked by the guard and dialled at the checked address, so redirects,
 * subresources, websockets and DNS rebinding are all covered; route interception in the page
 * only sees URLs, never the addresses they resolve to. With an upstream, the upstream is asked
 * to CONNECT to the checked address (not the name), so it cannot resolve it differently.
 */
export class GuardProxy {
  readonly #server: http.Server;
  readonly #guard: EgressGuard;
  readonly #upstream: URL | undefined;
  readonly #maxBytes: number;
  readonly #sockets = new Set<Duplex>();
  #received = 0;
  #exceeded = false;
  url = '';

  private constructor(options: GuardProxyOptions) {
    this.#guard = options.guard;
    this.#upstream = options.upstream ? new URL(options.upstream) : undefined;
    this.#maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.#server = http.createServer((request, response) => void this.#forward(request, response));
    this.#server.on('connect', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.#tunnel(request, socket, head);
    });
    this.#server.on('connection', (socket: net.Socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(options: GuardProxyOptions): Promise<GuardProxy> {
    const proxy = new GuardProxy(options);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    const address = proxy.#server.address() as net.AddressInfo;
    proxy.url = `http://127.0.0.1:${address.port}`;
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Bytes the targets sent through this proxy so far. */
  get received(): number {
    return this.#received;
  }

  /** True once the targets sent more than maxBytes: every connection was cut. */
  get exceeded(): boolean {
    return this.#exceeded;
  }

  #count(bytes: number): void {
    this.#received += bytes;
    if (this.#exceeded || this.#received <= this.#maxBytes) return;
    this.#exceeded = true;
    for (const socket of this.#sockets) socket.destroy();
  }

  async #tunnel(request: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => undefined);
    const [host = '', portText = '443'] = splitHostPort(request.url ?? '');
    let upstreamSocket: net.Socket;
    try {
      if (this.#exceeded) throw new BudgetError();
      this.#guard.checkPort(Number(portText));
      const resolved = await this.#guard.resolve(host);
      upstreamSocket = await this.#dial(resolved.address, Number(portText));
    } catch (error) {
      client.end(`HTTP/1.1 ${statusOf(error)} Refused\r\n${EGRESS_HEADER}: ${reasonOf(error)}\r\n\r\n`);
      return;
    }
    this.#sockets.add(upstreamSocket);
    upstreamSocket.once('close', () => this.#sockets.delete(upstreamSocket));
    upstreamSocket.on('data', (chunk: Buffer) => this.#count(chunk.length));
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstreamSocket.write(head);
    upstreamSocket.pipe(client);
    client.pipe(upstreamSocket);
    upstreamSocket.on('error', () => client.destroy());
    client.on('close', () => upstreamSocket.destroy());
  }

  async #forward(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
      if (target.protocol !== 'http:') throw new UrlRefusedError('only http is proxied without CONNECT');
    } catch {
      response.writeHead(400, { [EGRESS_HEADER]: 'bad_request' }).end();
      return;
    }
    let address: string;
    try {
      if (this.#exceeded) throw new BudgetError();
      this.#guard.checkPort(Number(target.port || 80));
      address = (await this.#guard.resolve(target.hostname)).address;
    } catch (error) {
      response.writeHead(statusOf(error), { [EGRESS_HEADER]: reasonOf(error), 'content-type': 'text/plain' });
      response.end(`Vigil egress guard: ${error instanceof Error ? error.message : 'refused'}`);
      return;
    }
    const headers = { ...request.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const port = Number(target.port || 80);
    const viaUpstream = this.#upstream;
    // Through an upstream, plain HTTP goes in a CONNECT tunnel to the checked address too: the
    // upstream never gets a name it could resolve differently, and one code path serves both.
    let tunnel: net.Socket | undefined;
    if (viaUpstream) {
      try {
        tunnel = await this.#dial(address, port);
      } catch (error) {
        response.writeHead(statusOf(error), { [EGRESS_HEADER]: reasonOf(error) }).end();
        return;
      }
    }
    const outgoing = http.request({
      ...(tunnel ? { createConnection: () => tunnel } : { host: address, port }),
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: { ...headers, host: target.host },
      setHost: false,
    });
    outgoing.on('socket', (socket: net.Socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
      if (viaUpstream) return;
      const check = () => {
        try {
          if (socket.remoteAddress) this.#guard.checkAddress(socket.remoteAddress);
        } catch {
          socket.destroy();
        }
      };
      // A kept-alive socket was checked when it connected.
      if (socket.connecting) socket.once('connect', check);
    });
    outgoing.on('response', (upstream) => {
      upstream.on('data', (chunk: Buffer) => this.#count(chunk.length));
      response.writeHead(upstream.statusCode ?? 502, upstream.rawHeaders);
      upstream.pipe(response);
    });
    outgoing.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { [EGRESS_HEADER]: 'unreachable' });
      response.end();
    });
    request.pipe(outgoing);
  }

  /** A socket to the checked address, directly or through the upstream proxy's CONNECT. */
  #dial(address: string, port: number): Promise<net.Socket> {
    const upstream = this.#upstream;
    return new Promise((resolve, reject) => {
      if (!upstream) {
        const socket = net.connect({ host: address, port });
        socket.once('connect', () => {
          try {
            if (socket.remoteAddress) this.#guard.checkAddress(socket.remoteAddress);
            resolve(socket);
          } catch (error) {
            socket.destroy();
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        socket.once('error', reject);
        return;
      }
      const target = `${net.isIPv6(address) ? `[${address}]` : address}:${port}`;
      const connect = http.request({
        host: upstream.hostname,
        port: Number(upstream.port || 80),
        method: 'CONNECT',
        path: target,
        headers: { host: target, ...upstreamAuth(upstream) },
      });
      connect.once('connect', (response, socket) => {
        if (response.statusCode === 200) resolve(socket);
        else {
          socket.destroy();
          reject(new Error(`upstream proxy answered ${response.statusCode}`));
        }
      });
      connect.once('error', reject);
      connect.end();
    });
  }
}

function upstreamAuth(upstream: URL): Record<string, string> {
  if (!upstream.username) return {};
  const credentials = `${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function splitHostPort(value: string): [string, string] {
  const bracket = /^\[([^\]]+)\]:(\d+)$/.exec(value);
  if (bracket) return [bracket[1] ?? '', bracket[2] ?? '443'];
  const cut = value.lastIndexOf(':');
  return cut < 0 ? [value, '443'] : [value.slice(0, cut), value.slice(cut + 1)];
}

/** The job's byte budget is spent: nothing more is fetched for it. */
class BudgetError extends Error {
  override readonly name = 'BudgetError';
  constructor() {
    super('the page exceeded its byte budget');
  }
}

function statusOf(error: unknown): number {
  return error instanceof UrlRefusedError ? 403 : 502;
}

function reasonOf(error: unknown): string {
  if (error instanceof UrlRefusedError) return 'refused';
  if (error instanceof BudgetError) return 'budget';
  return 'unreachable';
}
