import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchFailedError, fetchPage } from '../http/fetchPage.ts';
import { createGuardedAgent } from '../http/guardedAgent.ts';
import { plainHeaders } from '../http/headers.ts';
import { parseAllowlist, parsePortPolicy } from './addressPolicy.ts';
import { startConnectProxy } from '../../test/support/connectProxy.ts';
import { EgressGuard, UrlRefusedError } from './guard.ts';
import { EGRESS_HEADER, GuardProxy } from './guardProxy.ts';

// Real sockets against a local server: what reaches the server is what the guard let through.
let server: http.Server;
let origin: string;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response): void => {
    hits.push(request.url ?? '');
    const url = request.url ?? '/';
    if (url === '/to-metadata') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end();
      return;
    }
    if (url === '/to-other-loopback') {
      response.writeHead(302, { location: `http://127.0.0.2:${port}/` }).end();
      return;
    }
    if (url.startsWith('/loop/')) {
      response.writeHead(302, { location: `/loop/${Number(url.slice(6)) + 1}` }).end();
      return;
    }
    if (url === '/bomb') {
      response
        .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
        .end(zlib.gzipSync(Buffer.alloc(2 * 1024 * 1024)));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>hello from loopback</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function fetchWith(guard: EgressGuard, url: string, limits = { maxBytes: 1024 * 1024, maxRedirects: 5 }) {
  return fetchPage({
    url,
    headers: plainHeaders(),
    dispatcher: createGuardedAgent(guard),
    guard,
    signal: AbortSignal.timeout(5_000),
    ...limits,
  });
}

describe('the egress guard on real connections', () => {
  // The local site listens on a high port: both guards allow it, so only addresses decide.
  const ports = parsePortPolicy('1024-65535');
  const open = new EgressGuard({ allow: parseAllowlist('127.0.0.1/32'), ports });
  const strict = new EgressGuard({ ports });

  it('refuses loopback without an allowlist, by literal, by name and in its IPv4-mapped form, before connecting', async () => {
    const before = hits.length;
    for (const url of [
      origin,
      `http://localhost:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://0x7f000001:${port}/`,
    ]) {
      await expect(fetchWith(strict, url), url).rejects.toBeInstanceOf(UrlRefusedError);
    }
    expect(hits.length).toBe(before);
  });

  it('fetches an allowlisted address', async () => {
    const page = await fetchWith(open, `${origin}/`);
    expect(page.status).toBe(200);
    expect(page.body).toBe('<p>hello from loopback</p>');
  });

  it('re-checks every redirect hop: the metadata address and a loopback address outside the allowlist are refused', async () => {
    await expect(fetchWith(open, `${origin}/to-metadata`)).rejects.toThrow(/linkLocal/);
    await expect(fetchWith(open, `${origin}/to-other-loopback`)).rejects.toThrow(/loopback/);
  });

  it('refuses a host when any of its DNS records is private', async () => {
    const mixed = new EgressGuard({
      lookup: () =>
        Promise.resolve([
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ]),
    });
    // Named the same way as a name that does not resolve: answers never tell internal names apart.
    await expect(mixed.resolve('mixed.example')).rejects.toThrow(
      'host mixed.example does not resolve to a public address',
    );
  });

  it('refuses schemes other than http(s) and credentials in URLs', () => {
    expect(() => open.checkUrl('file:///etc/passwd')).toThrow(UrlRefusedError);
    expect(() => open.checkUrl('gopher://example.com/')).toThrow(UrlRefusedError);
    expect(() => open.checkUrl('http://user:pass@example.com/')).toThrow(UrlRefusedError);
  });

  it('bounds redirects and decompressed body size', async () => {
    await expect(
      fetchWith(open, `${origin}/loop/0`, { maxBytes: 1024, maxRedirects: 3 }),
    ).rejects.toMatchObject({
      reason: 'too_many_redirects',
    });
    const bomb = fetchWith(open, `${origin}/bomb`, { maxBytes: 100 * 1024, maxRedirects: 3 });
    await expect(bomb).rejects.toBeInstanceOf(FetchFailedError);
    await expect(bomb).rejects.toMatchObject({ reason: 'body_too_large' });
  });
});

describe('the browser egress proxy', () => {
  it('forwards to allowlisted addresses and refuses others, for plain requests and CONNECT tunnels', async () => {
    const proxy = await GuardProxy.start({
      guard: new EgressGuard({ allow: parseAllowlist('127.0.0.1/32'), ports: parsePortPolicy('1024-65535') }),
    });
    const proxyPort = Number(new URL(proxy.url).port);
    try {
      const viaProxy = (target: string) =>
        new Promise<http.IncomingMessage>((resolve, reject) => {
          http
            .get(
              { host: '127.0.0.1', port: proxyPort, path: target, headers: { host: new URL(target).host } },
              resolve,
            )
            .on('error', reject);
        });
      const allowed = await viaProxy(`${origin}/`);
      expect(allowed.statusCode).toBe(200);
      allowed.resume();
      const refused = await viaProxy('http://169.254.169.254/latest/');
      expect(refused.statusCode).toBe(403);
      expect(refused.headers[EGRESS_HEADER]).toBe('refused');
      refused.resume();

      const tunnel = (target: string) =>
        new Promise<number>((resolve, reject) => {
          const request = http.request({
            host: '127.0.0.1',
            port: proxyPort,
            method: 'CONNECT',
            path: target,
          });
          request.on('connect', (response, socket) => {
            socket.destroy();
            resolve(response.statusCode ?? 0);
          });
          request.on('error', reject);
          request.end();
        });
      expect(await tunnel(`127.0.0.1:${port}`)).toBe(200);
      expect(await tunnel(`127.0.0.2:${port}`)).toBe(403);
      expect(await tunnel('[::ffff:a9fe:a9fe]:80')).toBe(403);
      // The IPv4-compatible form of loopback, and a port outside the policy.
      expect(await tunnel(`[::7f00:1]:${port}`)).toBe(403);
      expect(await tunnel('127.0.0.1:22')).toBe(403);
    } finally {
      await proxy.close();
    }
  });

  it('chains through an upstream proxy, asking it to CONNECT to the checked address rather than the name', async () => {
    const allow = { allow: parseAllowlist('127.0.0.1/32'), ports: parsePortPolicy('1024-65535') };
    const upstream = await startConnectProxy('user', 'secret');
    const via = async (upstreamUrl: string) => {
      const proxy = await GuardProxy.start({ guard: new EgressGuard(allow), upstream: upstreamUrl });
      try {
        const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
          http
            .get(
              {
                host: '127.0.0.1',
                port: Number(new URL(proxy.url).port),
                path: `http://localhost:${port}/`,
                headers: { host: `localhost:${port}` },
              },
              resolve,
            )
            .on('error', reject);
        });
        answer.resume();
        return answer.statusCode;
      } finally {
        await proxy.close();
      }
    };
    try {
      expect(await via(upstream.url)).toBe(200);
      expect(upstream.tunnels).toEqual([`127.0.0.1:${port}`]);
      expect(upstream.refused).toBe(0);
      // Wrong credentials: the upstream refuses the tunnel and the page is not fetched.
      expect(await via(upstream.url.replace('secret', 'guess'))).toBe(502);
      expect(upstream.refused).toBe(1);
    } finally {
      await upstream.close();
    }
  });
});
