import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import type { TrustProxy } from '../plugins/callerConfig.ts';
import { createService, type VigilApp } from '../plugins/service.ts';
import { findMcpTool, findTool } from '../../core/catalog/index.ts';
import { Reason } from '../../core/errors/reasons.ts';
import { callThroughGateway } from './gatewayClient.ts';
import { hostGuard } from './hostGuard.ts';
import { createProtocolServer, MCP_SERVER_INFO, mcpTools } from './protocol.ts';

export interface McpAppOptions {
  publicUrl: string;
  logger: LoggerOptions | false;
  backendUrl: string;
  toolTimeoutMs: number;
  trustProxy?: TrustProxy;
  /** Host names besides the public URL's and loopback that the MCP endpoints answer (a proxy's). */
  allowedHosts?: readonly string[];
  /** How often a call whose client asked for progress gets a notification while it runs. */
  progressIntervalMs?: number;
}

/** Whether a JSON-RPC message (or batch) has a request carrying a progress token. */
function asksForProgress(message: unknown): boolean {
  const messages = Array.isArray(message) ? message : [message];
  return messages.some((entry) => {
    const meta = (entry as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

/** A JSON-RPC error answered before the protocol server sees the request. */
const jsonRpcError = (code: number, message: string) => ({
  jsonrpc: '2.0',
  error: { code, message },
  id: null,
});

/** The MCP host ({mcp_url}): `POST /mcp` (Streamable HTTP, stateless); server.ts only listens. */
export async function buildMcpApp(options: McpAppOptions): Promise<VigilApp> {
  const app = await createService({
    service: 'mcp',
    publicUrl: options.publicUrl,
    logger: options.logger,
    bodyLimit: 1024 * 1024,
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
  });
  const tools = mcpTools();
  const guard = hostGuard(options.publicUrl, options.allowedHosts);
  const backendUrl = options.backendUrl.replace(/\/+$/, '');

  app.get('/healthz', async (_request, reply) => {
    const started = performance.now();
    const backend = await fetch(`${backendUrl}/live`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    return reply.code(backend ? 200 : 503).send({
      status: backend ? 'ok' : 'degraded',
      server: MCP_SERVER_INFO,
      tools: tools.length,
      backend: { ok: backend, latency_ms: Math.round(performance.now() - started) },
    });
  });

  const info = {
    server: MCP_SERVER_INFO,
    capabilities: { tools: {} },
    protocol_versions: { latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS },
    transport: 'streamable-http',
    stateless: true,
    endpoints: { mcp: '/mcp', paid: '/mcp/x402', tools: '/mcp/tools', call: '/mcp/call/{tool_name}' },
  };
  app.get('/mcp/info', () => info);
  app.get('/mcp/tools', () => ({ count: tools.length, tools }));
  // The discovery document is the backend's (one catalog, one set of prices), served here too.
  app.get('/.well-known/x402', async (_request, reply) => {
    const response = await fetch(`${backendUrl}/.well-known/x402`, { signal: AbortSignal.timeout(5_000) });
    return reply
      .code(response.status)
      .type('application/json')
      .send(await response.text());
  });
  // A plain HTTP tool call: the body is the tool's input, answered as the REST door answers it.
  app.post<{ Params: { tool_name: string } }>(
    '/mcp/call/:tool_name',
    { onRequest: guard },
    async (request, reply) => {
      // The MCP name (get_token_risk) or the REST one (token_risk): both name one catalog tool.
      const named = request.params.tool_name;
      const tool = findMcpTool(named) ?? findTool(named);
      if (!tool)
        return reply.problem(
          Reason.notFound,
          `No tool is named ${named.slice(0, 64)}; GET /mcp/tools lists them.`,
        );
      const result = await callThroughGateway(backendUrl, {
        tool: tool.name,
        arguments: request.body ?? {},
        meta: undefined,
        caller: { headers: request.headers, address: request.ip },
        signal: AbortSignal.timeout(options.toolTimeoutMs),
      });
      return reply
        .code(result.httpStatus)
        .type('application/json')
        .send(result.content[0]?.type === 'text' ? result.content[0].text : '{}');
    },
  );

  await app.register((scope, _options, registered) => {
    scope.addHook('onRequest', guard);
    // The body reaches the SDK as parsed JSON, and a body that is not JSON gets the protocol's
    // own parse error rather than an HTTP problem.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      let message: unknown;
      try {
        message = JSON.parse(typeof request.body === 'string' ? request.body : '');
      } catch {
        return reply.code(400).send(jsonRpcError(-32700, 'Parse error: the body is not JSON.'));
      }
      const signal = AbortSignal.timeout(options.toolTimeoutMs);
      const server = createProtocolServer(
        tools,
        (call) =>
          callThroughGateway(backendUrl, {
            ...call,
            // MCP names (get_token_risk) are the catalog's tools under the names the spec gives them.
            tool: findMcpTool(call.tool)?.name ?? call.tool,
            caller: { headers: request.headers, address: request.ip },
            signal: AbortSignal.any([call.signal, signal]),
            // The HTTP status is for the plain-HTTP door; a tool result carries isError instead.
          }).then(({ httpStatus: _status, ...result }) => result),
        options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs },
      );
      // No session id generator: stateless, so any replica answers any request. A plain JSON
      // answer unless the client asked for progress, which needs the answer to be a stream.
      const transport = new StreamableHTTPServerTransport({
        enableJsonResponse: !asksForProgress(message),
      });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, message);
    };
    // `/mcp/x402` is the specification's paid variant: the same server, since every tool call
    // already answers a payment request past its trials and takes a payment in `_meta`.
    scope.post('/mcp', handle);
    scope.post('/mcp/x402', handle);

    // Stateless: no server-initiated stream to open and no session to end.
    scope.route({
      method: ['GET', 'DELETE'],
      url: '/mcp',
      handler: (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send(jsonRpcError(-32000, 'Method not allowed: this server is stateless; POST JSON-RPC to /mcp.')),
    });
    registered();
  });
  await app.ready();
  return app;
}
