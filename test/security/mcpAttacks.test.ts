import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMcpApp } from '../../api/mcp/app.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';

// The adversarial pass on the MCP door: every way found to get a paid tool's answer without
// paying, or to take the host down, kept as a test. The backend believes the MCP host's
// X-Forwarded-For (TRUST_PROXY), as deployed; the free tier is made small (2 calls a day per
// tool, 2 clients per network) so its edges are reached in a few calls.

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
};

let backend: TestBackend;
let api = '';
let mcp: VigilApp;
let url = '';
const clients: Client[] = [];

beforeAll(async () => {
  backend = await startTestBackend(
    isolatedEnv({
      MCP_FREE_CALLS_PER_DAY: '2',
      RATE_LIMIT_CLIENTS_PER_NETWORK: '2',
      TRUST_PROXY: '127.0.0.1',
    }),
  );
  api = await listenOnLoopback(backend.app);
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
  const client = new Client({ name: 'attacker', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
};
const args = () => ({ chain: 'devnet', address: testStack().scenario.deployers.clean });
const reputation = async (
  client: Client,
  meta?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) =>
  (await client.callTool({
    name: 'get_deployer_reputation',
    arguments: { ...args(), ...extra },
    ...(meta ? { _meta: meta } : {}),
  })) as ToolResult;
const outcome = (result: ToolResult) =>
  result.isError ? String(result.structuredContent?.code ?? result.content[0]?.text).slice(0, 40) : 'data';

describe('the MCP free tier under attack', () => {
  it('mints no calls past the network’s share by rotating X-Client-ID or forging X-Forwarded-For at the host', async () => {
    const suffix = Date.now();
    const seen: string[] = [];
    // 2 calls a day per caller, 4 per network (2 clients' worth): five identities, two calls each.
    for (const [index, id] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      const client = await connect({
        'x-client-id': `rotate-${id}-${suffix}`,
        // The host believes no proxy: this is the agent's own claim, and must change nothing.
        'x-forwarded-for': `203.0.113.${index + 1}`,
      });
      seen.push(outcome(await reputation(client)), outcome(await reputation(client)));
    }
    expect(seen.filter((entry) => entry === 'data')).toHaveLength(4);
    // Past the share: no data (this backend takes no payments, so the refusal says that).
    expect(seen.slice(4).filter((entry) => entry === 'data')).toEqual([]);
  });
});

describe('the MCP door’s header and payment handling under attack', () => {
  // The free tier of the loopback network is spent by the test above when run in order; these
  // tests make their own claims about payment refusals, which hold either way.

  it('keeps the door header its own: an agent’s x-vigil-door does not reach the backend’s REST trials', async () => {
    const client = await connect({ 'x-client-id': `door-${Date.now()}`, 'x-vigil-door': 'rest' });
    const result = await reputation(client);
    // Whatever the network has left, the limit reported is the MCP tier's, never REST's 3.
    const limit = result.isError ? undefined : result.structuredContent?.trial?.limit;
    if (limit !== undefined) expect(limit).toBe(2);
    else expect(['payment_required', 'payments_not_configured']).toContain(result.structuredContent?.code);
  });

  it('shares the MCP tier’s counters with a REST caller who claims the MCP door, so claiming it mints nothing', async () => {
    const clientId = `claims-mcp-${Date.now()}`;
    const post = () =>
      fetch(`${api}/api/v1/x402-tools/deployer_reputation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client-id': clientId, 'x-vigil-door': 'mcp' },
        body: JSON.stringify(args()),
      });
    const statuses = [(await post()).status, (await post()).status, (await post()).status];
    // At most the MCP tier's 2 (fewer when this network's MCP share is already spent), then no
    // data (402, or 503 from this backend, which takes no payments).
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(2);
    expect([402, 503]).toContain(statuses.at(-1));
    // ... and the same caller's REST trials are their own: the claim did not spend them.
    const rest = await fetch(`${api}/api/v1/x402-tools/deployer_reputation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-id': clientId },
      body: JSON.stringify(args()),
    });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('x-trial-limit')).toBe('3');
  });

  it('answers forged, malformed and oversized payments in _meta with a payment problem, never data or a crash', async () => {
    const client = await connect();
    const forged = {
      x402Version: 2,
      accepted: { scheme: 'exact', network: 'eip155:31337', amount: '1', asset: '0x0', payTo: '0x0' },
      payload: { signature: '0xdead', authorization: {} },
    };
    for (const payment of [
      'not an object',
      forged,
      { x402Version: 2, payload: { blob: 'x'.repeat(200_000) } },
      { __proto__: { polluted: true }, x402Version: 2 },
    ]) {
      const result = await reputation(client, { 'x402/payment': payment });
      expect(result.isError, JSON.stringify(payment).slice(0, 60)).toBe(true);
      expect(result.structuredContent?.data).toBeUndefined();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The host still answers.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('refuses a forged wallet proof rather than falling back to a free identity', async () => {
    const client = await connect({ 'x-wallet-proof': 'forged-token-0000000000000000' });
    const result = await reputation(client);
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.code).toBe('wallet_proof_invalid');
  });

  it('reaches only catalog tools: no path tricks through tools/call or /mcp/call', async () => {
    const client = await connect();
    for (const name of ['../x402-tools/token_risk', 'token_risk/../status_check', 'token_risk%2F..', '']) {
      await expect(client.callTool({ name, arguments: args() })).rejects.toBeInstanceOf(McpError);
    }
    for (const path of ['..%2Fx402-tools%2Ftoken_risk', 'token_risk%2F..%2F..%2Fhealth', '%00']) {
      const response = await fetch(`${url}/mcp/call/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status, path).toBe(404);
    }
  });

  it('names the field for hostile arguments and runs nothing', async () => {
    const client = await connect();
    const cases: Record<string, unknown>[] = [
      { address: '0x' + 'f'.repeat(10_000) },
      { chain: 'devnet"; DROP TABLE labels; --' },
      { chain: { $ne: null } },
    ];
    for (const extra of cases) {
      const result = await reputation(client, undefined, extra);
      expect(result.isError, JSON.stringify(extra).slice(0, 60)).toBe(true);
      expect(result.structuredContent?.data).toBeUndefined();
      expect(result.content[0]?.text).toMatch(/chain|address/);
    }
  });
});
