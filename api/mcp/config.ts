import { z } from 'zod';
import { IntEnv, LogLevel } from '../../core/config/env.ts';
import { TrustProxyEnv } from '../plugins/callerConfig.ts';

/** The MCP host ({mcp_url}): the tool catalog over Streamable HTTP, each call run by the backend's gateway. */
export const McpEnv = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: IntEnv(0, 65_535).default(3006),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: LogLevel.default('info'),
  /** The backend whose tool gateway runs every call (trials, payments, rate limits, receipts). */
  MCP_BACKEND_URL: z.url().default('http://127.0.0.1:3000'),
  /** How long one tools/call may take end to end (a scan, a paid settlement). */
  MCP_TOOL_TIMEOUT_MS: IntEnv(1_000, 600_000).default(60_000),
  /** How often a tools/call whose client sent a progressToken gets a progress notification. */
  MCP_PROGRESS_INTERVAL_MS: IntEnv(100, 60_000).default(1_000),
  /** Which X-Forwarded-For hops to believe for the client address (unset: none). */
  TRUST_PROXY: TrustProxyEnv,
  /**
   * Host names, comma-separated, that the MCP endpoints answer besides PUBLIC_URL's and loopback
   * (DNS-rebinding protection: any other Host or Origin is refused with 403).
   */
  MCP_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim())
        .filter((host) => host !== ''),
    ),
  VIGIL_COMMIT: z.string().optional(),
});
export type McpEnv = z.infer<typeof McpEnv>;

export function mcpPublicUrl(env: McpEnv): string {
  return (env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST}:${env.PORT}`).replace(
    /\/+$/,
    '',
  );
}
