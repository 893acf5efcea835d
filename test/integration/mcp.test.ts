import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequired } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMcpApp } from '../../api/mcp/app.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import { mcpToolName, TOOLS } from '../../core/catalog/index.ts';
import { paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';
import { testStack } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { fundedPayer, payerClient, type PaymentsStack, startPaymentsStack } from '../support/payments.ts';

// The MCP host with the official SDK client over Streamable HTTP, in front of a paying backend
// (devnet USDC, a real facilitator, the scanner and payments pools): the same trials, payments
// and receipts as the REST door, because every call runs through the backend's tool gateway.

const run = promisify(execFile);
const inspectorCli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build/cli.js',
);

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
  _meta?: Record<string, any>;
};

describe('the MCP server', () => {
  const { scenario, rpcUrl } = testStack();
  let stack: PaymentsStack;
  let mcp: VigilApp;
  let url = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    stack = await startPaymentsStack();
    mcp = await buildMcpApp({
      publicUrl: 'http://mcp.test',
      logger: false,
      backendUrl: stack.api,
      toolTimeoutMs: 60_000,
      progressIntervalMs: 100,
    });
    url = await listenOnLoopback(mcp);
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await mcp?.close();
    await stack?.close();
  });

  const connect = async (headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'vigil-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  };
  const call = async (
    client: Client,
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ) => (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as ToolResult;

  it('initializes and lists every catalog tool with its input schema and price', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'vigil', version: '5.0.0' });
    const { tools } = await client.listTools();
    // Every catalog tool, under the name the specification gives it where it gives one.
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map(mcpToolName).sort());
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['get_token_risk', 'get_deployer_reputation', 'status_check', 'mcp_discover']),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool._meta?.['vigil/version'], tool.name).toMatch(/^\d+\.\d+\.\d+$/);
    }
    const risk = tools.find((tool) => tool.name === 'get_token_risk');
    expect(risk?.inputSchema.required).toEqual(expect.arrayContaining(['chain', 'address']));
    expect(risk?._meta).toMatchObject({ 'vigil/price_usd': 0.05, 'vigil/paid': true });
  });

  it('gives each caller 5 free calls a day per tool, apart from the REST trials, then the x402 PaymentRequired as a tool error', async () => {
    const clientId = `mcp-trial-${Date.now()}`;
    const client = await connect({ 'x-client-id': clientId });
    const args = { chain: 'devnet', address: scenario.tokens.honeypot.address };
    const free: ToolResult[] = [];
    for (let i = 0; i < 5; i++) free.push(await call(client, 'get_token_risk', args));
    expect(free.map((result) => result.isError ?? false)).toEqual([false, false, false, false, false]);
    expect(free[0]?.structuredContent?.data?.tier).toBe('critical');
    expect(free.map((result) => result.structuredContent?.trial?.remaining)).toEqual([4, 3, 2, 1, 0]);
    const unpaid = await call(client, 'get_token_risk', args);
    expect(unpaid.isError).toBe(true);
    expect(unpaid.structuredContent).toMatchObject({ x402Version: 2, code: 'payment_required' });
    expect(unpaid.structuredContent?.detail).toContain('5 per 86400 s');
    expect(unpaid.structuredContent?.accepts[0]).toMatchObject({ network: 'eip155:31337', amount: '50000' });
    // Another tool has its own 5.
    const deployer = await call(client, 'get_deployer_reputation', {
      chain: 'devnet',
      address: scenario.tokens.honeypot.address,
    });
    expect(deployer.isError ?? false, deployer.content[0]?.text).toBe(false);
    expect(deployer.structuredContent?.trial?.remaining).toBe(4);
    // The REST door's trials are the catalog's and untouched: token_risk's three for this caller.
    const rest = await fetch(`${stack.api}/api/v1/x402-tools/token_risk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-id': clientId },
      body: JSON.stringify(args),
    });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('x-trial-limit')).toBe('3');
    expect(rest.headers.get('x-trial-remaining')).toBe('2');
    // The balance route shows both: the MCP tier spent for token_risk, the REST trials not.
    const balances = (await (await fetch(`${stack.api}/api/v1/x402-databus/trials/${clientId}`)).json()) as {
      tools: { tool: string; remaining: number }[];
      mcp: { window_seconds: number; tools: { tool: string; limit: number; remaining: number }[] };
    };
    expect(balances.mcp.window_seconds).toBe(86_400);
    expect(balances.mcp.tools.find((entry) => entry.tool === 'token_risk')).toMatchObject({
      limit: 5,
      remaining: 0,
    });
    expect(balances.mcp.tools.find((entry) => entry.tool === 'deployer_reputation')?.remaining).toBe(4);
    expect(balances.tools.find((entry) => entry.tool === 'token_risk')?.remaining).toBe(2);
  });

  it('is paid in params._meta["x402/payment"]: the payee gets exactly the quote and the receipt comes back in the result', async () => {
    // An agent that sends no header at all is its network: its 5 free calls, then the quote.
    const client = await connect();
    const args = { chain: 'devnet', address: scenario.tokens.clean.address };
    let quote = await call(client, 'get_token_risk', args);
    for (let i = 0; i < 5 && !quote.isError; i++) quote = await call(client, 'get_token_risk', args);
    expect(quote.isError).toBe(true);
    expect(quote.structuredContent).toMatchObject({ x402Version: 2, code: 'payment_required' });
    const payer = await fundedPayer(rpcUrl, stack.token, 1_000_000n);
    const payment = await payerClient(payer.privateKey, stack.token).createPaymentPayload(
      quote.structuredContent as PaymentRequired,
    );
    const before = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    const paid = await call(client, 'get_token_risk', args, { 'x402/payment': payment });
    expect(paid.isError ?? false, paid.content[0]?.text).toBe(false);
    expect(paid.structuredContent?.data?.tier).toBeTruthy();
    expect(paid._meta?.['x402/payment-response']).toMatchObject({
      success: true,
      network: 'eip155:31337',
      payer: payer.account.address,
    });
    const after = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    expect(after - before).toBe(50_000n);
    // The same payment again buys nothing more: the stored answer, no second transfer.
    const again = await call(client, 'get_token_risk', args, { 'x402/payment': payment });
    expect(
      again.structuredContent?.payment?.transaction ?? again._meta?.['x402/payment-response']?.transaction,
    ).toBe(paid._meta?.['x402/payment-response']?.transaction);
    expect(await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo)).toBe(after);
  });

  it('answers status_check and mcp_discover for free, computed from the running system and the catalog', async () => {
    const client = await connect({ 'x-client-id': `mcp-free-${Date.now()}` });
    const status = await call(client, 'status_check', {});
    expect(status.isError ?? false, status.content[0]?.text).toBe(false);
    const subsystems = status.structuredContent?.data?.subsystems as { name: string; status: string }[];
    expect(subsystems.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['redis', 'mongodb', 'temporal', 'facilitator', 'retrieval', 'mcp', 'scraper']),
    );
    expect(subsystems.find((entry) => entry.name === 'redis')?.status).toBe('up');
    expect(subsystems.some((entry) => entry.name.startsWith('rpc:devnet'))).toBe(true);
    const discovered = await call(client, 'mcp_discover', {});
    const data = discovered.structuredContent?.data as {
      server: { version: string; protocol_versions: string[] };
      tools: { name: string; version: string; deprecated: unknown }[];
      counts: { tools: number; deprecated: number };
    };
    expect(data.server.version).toBe('5.0.0');
    expect(data.server.protocol_versions).toContain('2024-11-05');
    expect(data.counts.tools).toBe(TOOLS.length);
    expect(data.tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map(mcpToolName).sort());
    expect(data.counts.deprecated).toBe(data.tools.filter((tool) => tool.deprecated !== null).length);
  });

  it('answers an unknown tool with a JSON-RPC error and bad arguments with a tool error naming the field', async () => {
    const client = await connect({ 'x-client-id': `mcp-errors-${Date.now()}` });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toBeInstanceOf(McpError);
    const invalid = await call(client, 'get_token_risk', { chain: 'devnet' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]?.text).toContain('address');
  });

  it('answers malformed JSON-RPC and other methods with the protocol’s errors, never a 500', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
    const garbage = await post('{not json');
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const notRpc = await post(JSON.stringify({ hello: 'world' }));
    expect(notRpc.status).toBeGreaterThanOrEqual(400);
    expect(notRpc.status).toBeLessThan(500);
    const get = await fetch(`${url}/mcp`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', tools: TOOLS.length, backend: { ok: true } });
  });
  it('streams progress notifications to a client that asked for them, and answers plain JSON to one that did not', async () => {
    const client = await connect({ 'x-client-id': `mcp-progress-${Date.now()}` });
    const progress: { progress: number; total?: number | undefined; message?: string | undefined }[] = [];
    const result = (await client.callTool(
      { name: 'get_token_risk', arguments: { chain: 'devnet', address: scenario.tokens.mintable.address } },
      undefined,
      { onprogress: (update) => progress.push(update), resetTimeoutOnProgress: true },
    )) as ToolResult;
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    expect(result.structuredContent?.data?.tier).toBeTruthy();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]?.message).toBe('get_token_risk: started');
    expect(progress.at(-1)?.message).toMatch(/^get_token_risk: done in [\d.]+ s$/);
    expect(progress.at(-1)?.total).toBe(progress.at(-1)?.progress);
    const values = progress.map((update) => update.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);

    const post = (meta: Record<string, unknown> | undefined) =>
      fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'risk_model', arguments: {}, ...(meta ? { _meta: meta } : {}) },
        }),
      });
    const plain = await post(undefined);
    expect(plain.headers.get('content-type')).toContain('application/json');
    expect(((await plain.json()) as { id: number }).id).toBe(7);
    const streamed = await post({ progressToken: 'p-1' });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const events = await streamed.text();
    expect(events).toContain('"method":"notifications/progress"');
    expect(events).toContain('"progressToken":"p-1"');
    expect(events).toContain('"id":7');
  });

  it('lists and calls tools from the MCP Inspector’s CLI', async () => {
    const inspector = async (...args: string[]) => {
      // inspector-cli 1.0.3 reads its own package.json by a path relative to the working folder.
      const { stdout } = await run(
        process.execPath,
        [inspectorCli, '--cli', `${url}/mcp`, '--transport', 'http', ...args],
        {
          cwd: dirname(inspectorCli),
          timeout: 60_000,
        },
      );
      return JSON.parse(stdout) as Record<string, any>;
    };
    const listed = await inspector('--method', 'tools/list');
    expect((listed.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual(
      TOOLS.map(mcpToolName).sort(),
    );
    const called = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'get_token_risk',
      '--tool-arg',
      'chain=devnet',
      `address=${scenario.tokens.honeypot.address}`,
      '--header',
      `X-Client-ID: mcp-inspector-${Date.now()}`,
    );
    expect(called.isError ?? false, JSON.stringify(called).slice(0, 300)).toBe(false);
    expect(called.structuredContent?.data?.tier).toBe('critical');
    expect(called.structuredContent?.trial).toMatchObject({ limit: 5, remaining: 4 });
  });
});

describe('the MCP host’s plain HTTP routes', () => {
  let stack: PaymentsStack;
  let mcp: VigilApp;
  let url = '';
  beforeAll(async () => {
    stack = await startPaymentsStack();
    mcp = await buildMcpApp({
      publicUrl: 'http://mcp.test',
      logger: false,
      backendUrl: stack.api,
      toolTimeoutMs: 60_000,
    });
    url = await listenOnLoopback(mcp);
  });
  afterAll(async () => {
    await mcp?.close();
    await stack?.close();
  });

  it('serves info, the tool list, the discovery document and plain tool calls from the same catalog', async () => {
    const info = (await (await fetch(`${url}/mcp/info`)).json()) as Record<string, any>;
    expect(info.server).toMatchObject({ name: 'vigil', version: '5.0.0' });
    expect(info.protocol_versions.supported).toContain('2024-11-05');
    const listed = (await (await fetch(`${url}/mcp/tools`)).json()) as {
      count: number;
      tools: { name: string }[];
    };
    expect(listed.count).toBe(TOOLS.length);
    const discovery = (await (await fetch(`${url}/.well-known/x402`)).json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({ x402_version: '2.0' });
    const call = (headers: Record<string, string>) =>
      fetch(`${url}/mcp/call/get_token_risk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ chain: 'devnet', address: testStack().scenario.tokens.clean.address }),
      });
    const trial = await call({ 'x-client-id': `mcp-plain-${Date.now()}` });
    expect(trial.status).toBe(200);
    expect(((await trial.json()) as { data: { tier: string } }).data.tier).toBeTruthy();
    // No header at all: the caller's network has the MCP door's 5 free calls, then pays.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call({})).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 402]);
    expect(
      (
        await fetch(`${url}/mcp/call/no_such_tool`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(404);
  });
});
