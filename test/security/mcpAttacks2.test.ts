import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMcpApp } from '../../api/mcp/app.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';

// The second adversarial pass on the MCP door: races on the last free call, JSON-RPC batches and
// notifications, method/content-type tricks, hostile bodies and Host/Origin guard bypasses. Each
// test asserts the safe behaviour. The free tier is 2 calls a day per tool, with room for many
// clients per network so each test's client id is metered on its own.

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
};

let backend: TestBackend;
let mcp: VigilApp;
let url = '';
const clients: Client[] = [];

beforeAll(async () => {
  backend = await startTestBackend(
    isolatedEnv({
      MCP_FREE_CALLS_PER_DAY: '2',
      RATE_LIMIT_CLIENTS_PER_NETWORK: '100',
      TRUST_PROXY: '127.0.0.1',
    }),
  );
  const api = await listenOnLoopback(backend.app);
  mcp = await buildMcpApp({
    publicUrl: 'http://mcp.test',
    logger: false,
    backendUrl: api,
    toolTimeoutMs: 30_000,
  });
  url = await listenOnLoopback(mcp);
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await mcp?.close();
  await backend?.close();
});

const connect = async (headers: Record<string, string> = {}) => {
  const client = new Client({ name: 'attacker2', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
};
const args = () => ({ chain: 'devnet', address: testStack().scenario.deployers.clean });
const call = (id: number | string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_deployer_reputation', arguments: args() },
});
const rpc = (body: unknown, headers: Record<string, string> = {}, path = '/mcp') =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
/** How many JSON-RPC responses in a body carry a tool's data. */
const dataIn = (text: string) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 0;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.filter(
    (entry: any) => entry?.result && entry.result.isError !== true && entry.result.structuredContent,
  ).length;
};
const alive = async () => expect((await fetch(`${url}/healthz`)).status).toBe(200);

describe('the MCP free tier under races and batches', () => {
  it('gives at most the day’s free calls to 20 concurrent calls at the last free call', async () => {
    const client = await connect({ 'x-client-id': `race-${Date.now()}` });
    const first = (await client.callTool({
      name: 'get_deployer_reputation',
      arguments: args(),
    })) as ToolResult;
    expect(first.isError).not.toBe(true);
    const results = (await Promise.all(
      Array.from({ length: 20 }, () =>
        client.callTool({ name: 'get_deployer_reputation', arguments: args() }),
      ),
    )) as ToolResult[];
    expect(results.filter((result) => result.isError !== true)).toHaveLength(1);
  });

  it('gives at most the day’s free calls to 20 concurrent plain-HTTP calls on /mcp/call', async () => {
    const clientId = `race-http-${Date.now()}`;
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${url}/mcp/call/get_deployer_reputation`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client-id': clientId },
          body: JSON.stringify(args()),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.every((status) => status < 500 || status === 503)).toBe(true);
  });

  it('gives a JSON-RPC batch of tool calls no more than the free tier, and no 500', async () => {
    const clientId = `batch-${Date.now()}`;
    const response = await rpc(
      Array.from({ length: 10 }, (_, index) => call(index + 1)),
      { 'x-client-id': clientId },
    );
    expect(response.status).toBeLessThan(500);
    expect(dataIn(await response.text())).toBeLessThanOrEqual(2);
    // Whatever the batch did, the caller has at most what remains of its 2.
    let data = 0;
    for (let index = 0; index < 3; index += 1)
      data += dataIn(await (await rpc(call(100 + index), { 'x-client-id': clientId })).text());
    expect(data).toBeLessThanOrEqual(2);
  });

  it('runs no tool for a tools/call sent as a notification, and duplicate ids mint nothing', async () => {
    const clientId = `notify-${Date.now()}`;
    const notification = { jsonrpc: '2.0', method: 'tools/call', params: call(0).params };
    for (let index = 0; index < 5; index += 1) {
      const response = await rpc(notification, { 'x-client-id': clientId });
      expect(response.status).toBeLessThan(500);
      expect(dataIn(await response.text())).toBe(0);
    }
    const duplicates = await rpc([call(7), call(7), call(7), call(7)], { 'x-client-id': clientId });
    expect(duplicates.status).toBeLessThan(500);
    const seen = dataIn(await duplicates.text());
    expect(seen).toBeLessThanOrEqual(2);
  });
});

describe('the MCP endpoints under HTTP tricks', () => {
  it('answers other methods on /mcp, /mcp/x402 and /mcp/call/* without a 500 or data', async () => {
    for (const path of ['/mcp', '/mcp/x402', '/mcp/call/get_deployer_reputation', '/mcp/call/token_risk']) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) {
        const response = await fetch(`${url}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
        expect(response.status, `${method} ${path}`).not.toBe(200);
      }
    }
  });

  it('answers content-type and accept tricks with a client error, never a 500', async () => {
    const body = JSON.stringify(call(1));
    const variants: Record<string, string>[] = [
      { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      { 'content-type': 'application/json; charset=utf-16', accept: 'application/json, text/event-stream' },
      { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json, text/event-stream' },
      { 'content-type': 'application/json', accept: 'text/html' },
      { 'content-type': 'application/json', accept: '' },
      { 'content-type': 'application/json', accept: 'text/event-stream' },
    ];
    for (const headers of variants) {
      for (const path of ['/mcp', '/mcp/x402']) {
        const response = await fetch(`${url}${path}`, { method: 'POST', headers, body });
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBeLessThan(500);
      }
    }
    await alive();
  });

  it('survives deeply nested and huge params without a 500 or a hang', async () => {
    const depth = 50_000;
    const nested = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_deployer_reputation","arguments":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const deep = await rpc(nested);
    expect(deep.status).toBeLessThan(500);
    const deepMeta = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_deployer_reputation","arguments":{},"_meta":{"x402/payment":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}`;
    expect((await rpc(deepMeta)).status).toBeLessThan(500);
    const huge = await rpc({
      ...call(1),
      params: { ...call(1).params, arguments: { ...args(), pad: 'x'.repeat(2_000_000) } },
    });
    expect(huge.status).toBe(413);
    const deepCall = await fetch(`${url}/mcp/call/token_risk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    });
    expect(deepCall.status).toBe(400);
    await alive();
  });

  it('answers non-object bodies and prototype names on /mcp/call without a 500', async () => {
    for (const body of ['[]', '"x"', '1', 'null', 'true', '{"__proto__":{"polluted":1}}']) {
      const response = await fetch(`${url}/mcp/call/token_risk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body).toBeLessThan(500);
      expect(response.status, body).not.toBe(200);
    }
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const response = await fetch(`${url}/mcp/call/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status, name).toBe(404);
    }
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const response = await rpc({ ...call(1), params: { name, arguments: {} } });
      expect(response.status).toBeLessThan(500);
      expect(dataIn(await response.text())).toBe(0);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses foreign Host and Origin headers on every MCP endpoint', async () => {
    const hostile: Record<string, string>[] = [
      { host: 'evil.example' },
      { host: 'mcp.test.evil.example' },
      { host: 'localhost.evil.example' },
      { host: '127.0.0.1.nip.io' },
      { origin: 'http://evil.example' },
      { origin: 'http://mcp.test.evil.example' },
      { origin: 'null' },
    ];
    for (const headers of hostile) {
      for (const path of ['/mcp', '/mcp/x402', '/mcp/call/token_risk']) {
        const response = await new Promise<number>((resolve, reject) => {
          // fetch forbids setting Host; node:http does not.
          import('node:http').then(({ request }) => {
            const target = new URL(`${url}${path}`);
            const body = JSON.stringify(path.startsWith('/mcp/call') ? args() : call(1));
            const req = request(
              {
                host: target.hostname,
                port: target.port,
                path: target.pathname,
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  accept: 'application/json, text/event-stream',
                  'content-length': Buffer.byteLength(body),
                  ...headers,
                },
              },
              (res) => {
                res.resume();
                resolve(res.statusCode ?? 0);
              },
            );
            req.on('error', reject);
            req.end(body);
          }, reject);
        });
        expect(response, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
  });
});
