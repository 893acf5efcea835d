import type { LoggerOptions } from 'pino';
import { registerOpenApi } from '../plugins/openapi.ts';
import { createService, type VigilApp } from '../plugins/service.ts';
import type { BackendDeps } from './deps.ts';
import { healthRoutes } from './routes/health.ts';
import { metaRoutes } from './routes/meta.ts';
import { scanRoutes } from './routes/scans.ts';
import { ScanJobs } from './scanJobs.ts';
import { HTTPFacilitatorClient } from '@x402/core/http';
import { x402ResourceServer } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { rateLimitPlugin } from '../plugins/rateLimit.ts';
import { x402GatewayRoutes } from './routes/x402Gateway.ts';
import { x402ToolRoutes } from './routes/x402Tools.ts';
import { X402Gateway } from './x402/gateway.ts';
import { Settlements } from './x402/settlements.ts';
import { ToolRunner } from './x402/toolRunner.ts';

export interface BackendOptions {
  publicUrl: string;
  logger: LoggerOptions | false;
}

/** The backend service ({base_url}); server.ts only listens. */
export async function buildBackendApp(deps: BackendDeps, options: BackendOptions): Promise<VigilApp> {
  const app = await createService({ publicUrl: options.publicUrl, logger: options.logger });
  await registerOpenApi(app, {
    title: 'Vigil backend API',
    description: 'Token risk scans, wallet forensics and alerts. Errors are RFC 7807 problem documents.',
    publicUrl: options.publicUrl,
  });
  await app.register(rateLimitPlugin, {
    redis: deps.redis,
    enabled: deps.rateLimits.enabled,
    failOpen: deps.rateLimits.failOpen,
    apiKeys: deps.rateLimits.apiKeys,
    limits: deps.rateLimits.limits,
    // Paid calls are metered by their payment; orchestrator probes are never capped.
    isMeteredElsewhere: (request) =>
      request.url.startsWith('/api/v1/x402-tools/') &&
      (request.headers['x-payment'] !== undefined || request.headers['payment-signature'] !== undefined),
    exempt: ['/live', '/ready', '/health'],
  });
  metaRoutes(app, deps);
  healthRoutes(app, deps);
  const jobs = new ScanJobs(deps);
  scanRoutes(app, jobs);
  const facilitator = new HTTPFacilitatorClient({ url: deps.x402.facilitatorUrl, timeoutMs: 10_000 });
  const resourceServer = new x402ResourceServer(facilitator).register(
    deps.x402.options.network as `${string}:${string}`,
    new ExactEvmScheme(),
  );
  const settlements = new Settlements({
    facilitator,
    temporal: deps.temporal,
    paymentsTaskQueue: deps.x402.paymentsTaskQueue,
    receipts: deps.x402.receipts,
    settleWaitMs: deps.x402.settleWaitMs,
  });
  const gateway = new X402Gateway({
    options: deps.x402.options,
    trials: deps.x402.trials,
    reservations: deps.x402.reservations,
    runner: new ToolRunner(jobs, deps.x402.toolWaitMs),
    settlements,
    resourceServer,
    publicUrl: options.publicUrl,
  });
  x402ToolRoutes(app, gateway);
  x402GatewayRoutes(app, deps, options.publicUrl, deps.mcpPublicUrl);
  await app.ready();
  return app;
}
