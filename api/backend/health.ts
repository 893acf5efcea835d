import proto from '@temporalio/proto';
import { z } from 'zod';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { ChainKind, findChain } from '../../core/chains/registry.ts';
import type { BackendDeps } from './deps.ts';

export const ProbeResult = z.object({
  name: z.string(),
  kind: z.enum(['redis', 'mongodb', 'temporal', 'rpc', 'vector_store', 'embedding', 'service']),
  /** A critical store being down makes the service not ready. */
  critical: z.boolean(),
  status: z.enum(['up', 'down', 'unchecked']),
  latency_ms: z.number().nullable(),
  detail: z.string().optional(),
  chain: z.string().optional(),
  endpoint: z.string().optional(),
});
export type ProbeResult = z.infer<typeof ProbeResult>;

const PROBE_TIMEOUT_MS = 1_500;

export async function timed(
  base: Omit<ProbeResult, 'status' | 'latency_ms'>,
  probe: () => Promise<unknown>,
): Promise<ProbeResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)),
          PROBE_TIMEOUT_MS,
        );
      }),
    ]);
    return { ...base, status: 'up', latency_ms: round(performance.now() - started) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, status: 'down', latency_ms: null, detail: scrub(message) };
  } finally {
    clearTimeout(timer);
  }
}

export function probeRedis(deps: BackendDeps): Promise<ProbeResult> {
  return timed({ name: 'redis', kind: 'redis', critical: true }, () => deps.redis.ping());
}

export function probeMongo(deps: BackendDeps): Promise<ProbeResult> {
  return timed({ name: 'mongodb', kind: 'mongodb', critical: true }, () =>
    deps.mongo.db.command({ ping: 1 }),
  );
}

export function probeTemporal(deps: BackendDeps): Promise<ProbeResult> {
  const { connection } = deps.temporal;
  return timed({ name: 'temporal', kind: 'temporal', critical: false }, async () => {
    const response = await connection.withDeadline(Date.now() + PROBE_TIMEOUT_MS, () =>
      connection.healthService.check({}),
    );
    if (response.status !== proto.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING) {
      throw new Error(`health status ${response.status ?? 'unknown'}`);
    }
  });
}

/** Each configured provider of each chain, probed on its own so a dead one is named. */
export function probeRpcs(deps: BackendDeps): Promise<ProbeResult>[] {
  return deps.chains.configured().flatMap((chainId) => {
    const chain = findChain(chainId);
    const method =
      chain?.kind === ChainKind.evm
        ? 'eth_blockNumber'
        : chain?.kind === ChainKind.solana
          ? 'getSlot'
          : undefined;
    return deps.chains.rpcUrls(chainId).map((url, index) => {
      const base = {
        name: `rpc:${chainId}:${index}`,
        kind: 'rpc' as const,
        critical: false,
        chain: chainId,
        endpoint: redactUrl(url),
      };
      if (!method || !url.startsWith('http'))
        return Promise.resolve({ ...base, status: 'unchecked' as const, latency_ms: null });
      return timed(base, () => jsonRpc(url, method));
    });
  });
}

/** The services this backend calls, each asked for its /healthz. */
function probeServices(deps: BackendDeps): Promise<ProbeResult>[] {
  const services: [name: string, url: string][] = [
    ['facilitator', deps.x402.facilitatorUrl],
    ['retrieval', deps.retrieval.baseUrl],
    ['mcp', deps.mcpPublicUrl],
    ['scraper', deps.scraperUrl],
  ];
  return services.map(([name, url]) =>
    timed({ name, kind: 'service', critical: false, endpoint: redactUrl(url) }, async () => {
      const response = await fetch(`${url.replace(/\/+$/, '')}/healthz`, {
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    }),
  );
}

/** status_check: every store, chain provider and service, and what is degraded. */
export async function systemStatus(deps: BackendDeps) {
  const checks = await Promise.all([
    probeRedis(deps),
    probeMongo(deps),
    probeTemporal(deps),
    ...probeRpcs(deps),
    ...probeServices(deps),
  ]);
  const down = checks.filter((check) => check.status === 'down');
  return {
    status: down.some((check) => check.critical) ? 'down' : down.length > 0 ? 'degraded' : 'ok',
    checked_at: new Date().toISOString(),
    service: deps.version.service,
    version: deps.version.version,
    subsystems: checks,
    degraded: down.map((check) => check.name),
  };
}

async function jsonRpc(url: string, method: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error) throw new Error(body.error.message ?? 'JSON-RPC error');
  return body.result;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Driver messages can embed connection strings; keep only a short, URL-free message. */
function scrub(message: string): string {
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"')]+/gi, (url) => redactUrl(url)).slice(0, 300);
}
