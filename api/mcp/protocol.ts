import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  describeTool,
  MCP_SERVER_INFO,
  mcpToolName,
  TOOLS,
  type ToolDefinition,
} from '../../core/catalog/index.ts';

export { MCP_SERVER_INFO } from '../../core/catalog/index.ts';

const INSTRUCTIONS =
  'Vigil answers "is this token safe?", "who deployed it?" and more, with evidence. Paid tools have ' +
  'free daily trials per caller; past them a call answers a tool error carrying an x402 PaymentRequired: ' +
  'pay it and call again with the payment in params._meta["x402/payment"].';

/** Every catalog tool as MCP lists it: its JSON Schema input, and its price in `_meta`. */
export function mcpTools(tools: readonly ToolDefinition[] = TOOLS): Tool[] {
  return tools.map((tool) => {
    const described = describeTool(tool);
    const inputSchema = z.toJSONSchema(tool.input, { target: 'draft-7' }) as Tool['inputSchema'];
    return {
      name: mcpToolName(tool),
      title: tool.title,
      description: tool.description,
      inputSchema: { ...inputSchema, type: 'object' },
      annotations: { title: tool.title, readOnlyHint: true, openWorldHint: true },
      _meta: {
        'vigil/price_usd': described.price_usd,
        'vigil/tier': described.tier,
        'vigil/paid': described.paid,
        'vigil/trials': described.trials,
        'vigil/rest_path': described.path,
        'vigil/version': tool.version,
        'vigil/deprecated': tool.deprecated ?? null,
      },
    };
  });
}

export type ToolRunner = (call: {
  tool: string;
  arguments: unknown;
  meta: Record<string, unknown> | undefined;
  signal: AbortSignal;
}) => Promise<CallToolResult>;

/**
 * One protocol server over the catalog. The SDK's low-level Server: the tools are data (the one
 * catalog, listed as computed once), run by one runner, and a server is made per HTTP request
 * (the transport is stateless, so replicas need no sticky sessions).
 */
export function createProtocolServer(
  tools: readonly Tool[],
  run: ToolRunner,
  options: { progressIntervalMs?: number } = {},
): Server {
  const names = new Set(tools.map((tool) => tool.name));
  const server = new Server(
    { ...MCP_SERVER_INFO },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    // A name no tool has is protocol misuse (a JSON-RPC error); all else about a tool is its result.
    if (!names.has(name))
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 64)}`, {
        tools: [...names],
      });
    const running = run({
      tool: name,
      arguments: request.params.arguments,
      meta: request.params._meta,
      signal: extra.signal,
    });
    const token = request.params._meta?.progressToken;
    if (token === undefined) return running;
    return withProgress(running, name, options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, (params) =>
      extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, ...params },
      }),
    );
  });
  return server;
}

const DEFAULT_PROGRESS_INTERVAL_MS = 1_000;

/**
 * Progress for a client that asked for it (a progressToken): one notification when the tool
 * starts, one per interval while it runs, one when it is done. The measure is the seconds the
 * call has run: the gateway answers a tool call once, so how far a scan's engines have got is not
 * known here; what a client gets is a live call it need not time out (resetTimeoutOnProgress).
 */
async function withProgress(
  running: Promise<CallToolResult>,
  tool: string,
  intervalMs: number,
  notify: (params: { progress: number; total?: number; message: string }) => Promise<void>,
): Promise<CallToolResult> {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  let last = -1;
  const send = (message: string, done = false) => {
    // Progress must increase with every notification.
    const progress = Math.max(seconds(), last + 0.1);
    last = progress;
    return notify({ progress, ...(done ? { total: progress } : {}), message }).catch(() => undefined);
  };
  await send(`${tool}: started`);
  const timer = setInterval(() => void send(`${tool}: running for ${seconds()} s`), intervalMs);
  try {
    return await running;
  } finally {
    clearInterval(timer);
    await send(`${tool}: done in ${seconds()} s`, true);
  }
}
