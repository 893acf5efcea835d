import type { LoggerOptions } from 'pino';
import { registerOpenApi } from '../plugins/openapi.ts';
import { createService, type VigilApp } from '../plugins/service.ts';
import type { BackendDeps } from './deps.ts';
import { deployerRoutes } from './routes/deployers.ts';
import { reportRoutes } from './routes/reports.ts';
import { chartRoutes } from './routes/charts.ts';
import { ReportJobs } from './reportJobs.ts';
import { JobHolders } from './jobHolders.ts';
import { healthRoutes } from './routes/health.ts';
import { systemStatus } from './health.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { metaRoutes } from './routes/meta.ts';
import { scanRoutes } from './routes/scans.ts';
import { chainsOf } from './routes/targets.ts';
import { ScanJobs } from './scanJobs.ts';
import { x402ResourceServer } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { callerPlugin } from '../plugins/caller.ts';
import { rateLimitPlugin } from '../plugins/rateLimit.ts';
import { walletProofRoutes } from './routes/walletProof.ts';
import { ScannerTrials } from './scannerTrials.ts';
import { x402GatewayRoutes } from './routes/x402Gateway.ts';
import { x402ToolRoutes } from './routes/x402Tools.ts';
import { X402Gateway } from './x402/gateway.ts';
import { Settlements } from './x402/settlements.ts';
import { x402InvoiceRoutes } from './routes/x402Invoices.ts';
import { InvoiceQuota } from './x402/invoiceQuota.ts';
import { Invoices } from './x402/invoices.ts';
import { Refunds } from './x402/refunds.ts';
import { Sandbox } from './x402/sandbox.ts';
import { ToolRunner } from './x402/toolRunner.ts';
import { facilitatorClient } from '../../core/x402/facilitatorClient.ts';
import { DataTools } from '../../chaindata/tools.ts';
import { ChainKind, findChain } from '../../core/chains/registry.ts';
import { DataBus } from '../../chaindata/query/databus.ts';
import { catalogToolSearchRoutes } from './routes/catalogToolSearch.ts';
import { databusRoutes } from './routes/databus.ts';
import { x402DatabusRoutes } from './routes/x402Databus.ts';

export interface BackendOptions {
  publicUrl: string;
  logger: LoggerOptions | false;
}

/** Orchestrator probes and metrics scrapes are never capped. */
const RATE_LIMIT_EXEMPT = ['/live', '/ready', '/health', '/metrics'] as const;

/** The backend service ({base_url}); server.ts only listens. */
export async function buildBackendApp(deps: BackendDeps, options: BackendOptions): Promise<VigilApp> {
  const app = await createService({
    service: 'backend',
    publicUrl: options.publicUrl,
    logger: options.logger,
    trustProxy: deps.access.trustProxy,
  });
  await registerOpenApi(app, {
    title: 'Vigil backend API',
    description: 'Token risk scans, wallet forensics and alerts. Errors are RFC 7807 problem documents.',
    publicUrl: options.publicUrl,
    rateLimitExempt: RATE_LIMIT_EXEMPT,
  });
  await app.register(callerPlugin, { apiKeys: deps.access.apiKeys, ipv6Prefix: deps.access.ipv6Prefix });
  await app.register(rateLimitPlugin, {
    redis: deps.redis,
    enabled: deps.rateLimits.enabled,
    failOpen: deps.rateLimits.failOpen,
    clientsPerNetwork: deps.rateLimits.clientsPerNetwork,
    limits: deps.rateLimits.limits,
    // Paid calls are metered by their payment; orchestrator probes are never capped.
    isPaymentRoute: (request) =>
      request.url.startsWith('/api/v1/x402-tools/') ||
      request.url.startsWith('/api/v1/x402-databus/') ||
      request.url.startsWith('/api/v1/x402/pay/'),
    exempt: RATE_LIMIT_EXEMPT,
  });
  metaRoutes(app, deps);
  healthRoutes(app, deps);
  const jobs = new ScanJobs(deps);
  app.addHook('onClose', () => Promise.resolve(jobs.close()));
  const scannerTrials = new ScannerTrials({
    trials: deps.x402.trials,
    proofs: deps.x402.walletProofs,
    publicUrl: options.publicUrl,
  });
  const configuredChains = chainsOf(deps.chains.configured());
  scanRoutes(app, jobs, scannerTrials, configuredChains);
  const facilitator = facilitatorClient(
    { url: deps.x402.facilitatorUrl, token: deps.x402.facilitatorToken },
    10_000,
  );
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
  const reportJobs = new ReportJobs({
    client: deps.temporal.client,
    chains: deps.chains,
    store: deps.reports,
    holders: new JobHolders(deps.redis),
    reportsTaskQueue: deps.reportsTaskQueue,
    scannerTaskQueue: deps.scannerTaskQueue,
    scraperTaskQueue: deps.scraperTaskQueue,
    jobScope: deps.jobScope,
    publicUrl: options.publicUrl,
  });
  reportRoutes(app, reportJobs, scannerTrials, configuredChains, { eventsMaxMs: deps.reportEventsMaxMs });
  const runner = new ToolRunner({
    reports: reportJobs,
    news: deps.news,
    jobs,
    waitMs: deps.x402.toolWaitMs,
    deployer: { chains: deps.chains, config: deps.scanConfig, cache: deps.deployerCache },
    data: new DataTools(deps.chaindata.analytics),
    retrieval: deps.retrieval,
    status: () => systemStatus(deps),
  });
  const gateway = new X402Gateway({
    options: deps.x402.options,
    trials: deps.x402.trials,
    mcpTrials: deps.x402.mcpTrials,
    reservations: deps.x402.reservations,
    runner,
    settlements,
    resourceServer,
    publicUrl: options.publicUrl,
  });
  x402ToolRoutes(app, gateway, deps.x402.walletProofs);
  walletProofRoutes(app, deps.x402.walletProofs);
  const invoices = new Invoices({
    store: deps.x402.invoices,
    receipts: deps.x402.receipts,
    options: deps.x402.options,
    reservations: deps.x402.reservations,
    settlements,
    runner,
    resourceServer,
    publicUrl: options.publicUrl,
    ttlSeconds: deps.x402.invoiceTtlSeconds,
    refundWindowSeconds: deps.x402.refundWindowSeconds,
  });
  const refunds = new Refunds({
    receipts: deps.x402.receipts,
    invoices: deps.x402.invoices,
    temporal: deps.temporal,
    paymentsTaskQueue: deps.x402.paymentsTaskQueue,
    windowSeconds: deps.x402.refundWindowSeconds,
    waitMs: deps.x402.settleWaitMs,
  });
  x402InvoiceRoutes(
    app,
    invoices,
    refunds,
    new Sandbox(invoices, deps.x402.sandbox),
    new InvoiceQuota(deps.redis, deps.x402.invoicesPerHour),
  );
  x402GatewayRoutes(app, deps, options.publicUrl, deps.mcpPublicUrl);
  deployerRoutes(app, deps, scannerTrials);
  x402DatabusRoutes(app, gateway, deps.x402.walletProofs);
  catalogRoutes(app, deps.chaindata.analytics);
  chartRoutes(app, deps.chaindata.analytics);
  databusRoutes(
    app,
    new DataBus({
      engine: deps.chaindata.analytics,
      rpc: (chain) => ({ client: deps.chains.evm(chain), degraded: () => deps.chains.degraded(chain) }),
      liveWindowBlocks: deps.chaindata.liveWindowBlocks,
    }),
    () => deps.chains.configured().filter((chain) => findChain(chain)?.kind === ChainKind.evm),
  );
  catalogToolSearchRoutes(app, deps.retrieval);
  await app.ready();
  return app;
}
