import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VigilApp } from '../plugins/service.ts';
import { buildMcpApp } from './app.ts';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

describe('the MCP host’s DNS-rebinding guard', () => {
  let app: VigilApp;
  beforeAll(async () => {
    app = await buildMcpApp({
      publicUrl: 'https://mcp.vigil.example',
      logger: false,
      backendUrl: 'http://127.0.0.1:9',
      toolTimeoutMs: 2_000,
      allowedHosts: ['mcp.internal'],
    });
  });
  afterAll(() => app.close());

  const post = (url: string, headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      payload: JSON.stringify(initialize),
    });

  it('answers its public name, a configured one and loopback names on any port, with or without Origin', async () => {
    for (const headers of [
      { host: 'mcp.vigil.example' },
      { host: 'MCP.Vigil.Example:443', origin: 'https://mcp.vigil.example' },
      { host: 'mcp.internal:3006' },
      { host: 'localhost:3006', origin: 'http://localhost:5173' },
      { host: '127.0.0.1:3006' },
      { host: '[::1]:3006', origin: 'http://[::1]:3006' },
    ]) {
      const response = await post('/mcp', headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(200);
    }
  });

  it('refuses any other Host or Origin with 403 before the protocol server or a tool runs', async () => {
    for (const [url, headers, what] of [
      ['/mcp', { host: 'evil.example.com' }, 'Host'],
      ['/mcp', { host: 'localhost.evil.example.com' }, 'Host'],
      ['/mcp/x402', { host: 'evil.example.com:3006' }, 'Host'],
      ['/mcp', { host: 'localhost:3006', origin: 'http://evil.example.com' }, 'Origin'],
      ['/mcp', { host: 'localhost:3006', origin: 'null' }, 'Origin'],
      ['/mcp', { host: 'localhost:3006', origin: 'http://127.0.0.1.evil.example.com' }, 'Origin'],
      ['/mcp/call/get_token_risk', { host: 'evil.example.com' }, 'Host'],
    ] as const) {
      const response = await post(url, headers);
      expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
      expect(response.json().error.message).toContain(what);
    }
  });

  it('leaves the health and description routes open, which a load balancer calls by address', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/mcp/info',
      headers: { host: '10.0.0.7:3006' },
    });
    expect(response.statusCode).toBe(200);
  });
});
