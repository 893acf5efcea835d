// What the MCP door adds over the REST door for the same tool call, against a running stack
// (`npm start`): the free `risk_model` tool through `POST /api/v1/x402-tools/risk_model` and
// through `tools/call` with the official SDK client, one call at a time, the same number of each.
//   npm run bench:mcp -- [--api http://127.0.0.1:3000] [--mcp http://127.0.0.1:3006/mcp] [--n 300]
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: {
    api: { type: 'string', default: 'http://127.0.0.1:3000' },
    mcp: { type: 'string', default: 'http://127.0.0.1:3006/mcp' },
    n: { type: 'string', default: '300' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
const n = Number(values.n);
const WARMUP = 30;
const headers = { 'x-client-id': `bench-mcp-${Date.now()}` };
const loadBefore = loadavg()[0] ?? 0;

async function rest(): Promise<void> {
  const response = await fetch(`${values.api}/api/v1/x402-tools/risk_model`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{}',
  });
  if (response.status !== 200) throw new Error(`REST answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

const client = new Client({ name: 'vigil-bench', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(values.mcp), { requestInit: { headers } }));
async function mcp(): Promise<void> {
  const result = await client.callTool({ name: 'risk_model', arguments: {} });
  if (result.isError) throw new Error(`MCP answered an error: ${JSON.stringify(result.content)}`);
}

async function measure(call: () => Promise<void>): Promise<number[]> {
  for (let index = 0; index < WARMUP; index++) await call();
  const times: number[] = [];
  for (let index = 0; index < n; index++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

// Interleaved halves, so a change in the machine's load falls on both doors alike.
const restTimes: number[] = [];
const mcpTimes: number[] = [];
for (let half = 0; half < 2; half++) {
  restTimes.push(...(await measure(rest)));
  mcpTimes.push(...(await measure(mcp)));
}
await client.close();
restTimes.sort((a, b) => a - b);
mcpTimes.sort((a, b) => a - b);
const round = (value: number) => Math.round(value * 100) / 100;
const summary = (times: number[]) => ({
  p50_ms: round(percentile(times, 50)),
  p95_ms: round(percentile(times, 95)),
});
const result = {
  benchmark: 'mcp-overhead',
  measured_at: new Date().toISOString(),
  machine: { cpus: cpus().length, load_before: round(loadBefore) },
  tool: 'risk_model',
  calls_per_door: restTimes.length,
  rest: summary(restTimes),
  mcp: summary(mcpTimes),
  overhead_p50_ms: round(percentile(mcpTimes, 50) - percentile(restTimes, 50)),
  target_overhead_p50_ms: 5,
};
await writeFile(path.join(values.out, 'mcp.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
