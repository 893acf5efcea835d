// Runs the MCP host alone: `npm run mcp` (it calls the backend at MCP_BACKEND_URL).
import { parseEnv } from '../../core/config/env.ts';
import { listenUntilSignal } from '../plugins/listen.ts';
import { buildMcpApp } from './app.ts';
import { McpEnv, mcpPublicUrl } from './config.ts';
import { startTracingFromEnv } from '../../clients/tracing.ts';

const env = parseEnv(McpEnv);
const tracing = startTracingFromEnv('vigil-mcp');
const app = await buildMcpApp({
  publicUrl: mcpPublicUrl(env),
  logger: { level: env.LOG_LEVEL },
  backendUrl: env.MCP_BACKEND_URL,
  toolTimeoutMs: env.MCP_TOOL_TIMEOUT_MS,
  trustProxy: env.TRUST_PROXY,
  allowedHosts: env.MCP_ALLOWED_HOSTS,
  progressIntervalMs: env.MCP_PROGRESS_INTERVAL_MS,
});
await listenUntilSignal(app, { host: env.HOST, port: env.PORT }, async () => {
  await tracing?.shutdown();
});
