import { Client, Connection } from '@temporalio/client';
import { ChainClients } from '../../clients/chains/chainClients.ts';
import { readRpcConfig } from '../../clients/chains/rpcConfig.ts';
import { closeStores, createStores, type Stores } from '../../clients/stores.ts';
import { readScanConfig, type ScanConfig } from '../../scanner/config.ts';
import { DeployerCache } from '../../scanner/engines/deployer.ts';
import { RetrievalClient } from './retrievalClient.ts';
import { ConfigError } from '../../core/config/env.ts';
import type { InvoiceStore } from '../../core/stores/invoices.ts';
import type { ReceiptStore } from '../../core/stores/receipts.ts';
import { isTestNetwork } from '../../core/x402/networks.ts';
import { temporalClientPlugins, temporalConnectionOptions } from '../../clients/temporal.ts';
import { TaskQueue, taskQueueName } from '../../core/temporal/taskQueues.ts';
import type { BackendEnv } from './config.ts';
import { readVersionInfo, type VersionInfo } from './version.ts';
import { type Analytics, SandboxedAnalytics } from '../../chaindata/analytics/sandbox.ts';
import { chaindataSettings, type ChaindataSettings } from '../../chaindata/config.ts';
import { PaymentOptions } from './x402/paymentOptions.ts';
import { PaymentReservations } from './x402/reservations.ts';
import type { SandboxConfig } from './x402/sandbox.ts';
import type { ApiKeyEntry, TrustProxy } from '../plugins/callerConfig.ts';
import { Trials } from './x402/trials.ts';
import { WalletProofs } from './x402/walletProofs.ts';
import { publicUrlOf } from './config.ts';

/** Everything the backend talks to; tests build it from real local services. */
export interface BackendDeps extends Pick<Stores, 'mongo' | 'redis' | 'scans' | 'reports' | 'news'> {
  temporal: { client: Client; connection: Connection };
  chains: ChainClients;
  version: VersionInfo;
  /** Task queue the scanner workflows are started on (TASK_QUEUE_PREFIX applied). */
  scannerTaskQueue: string;
  /** Task queues reports run on (their own pool) and print their PDF on (the scraper's browser pool). */
  reportsTaskQueue: string;
  scraperTaskQueue: string;
  /** Begins every workflow id this deployment starts (its TASK_QUEUE_PREFIX; core/temporal/jobIds.ts). */
  jobScope: string;
  scanWaitMaxMs: number;
  /** How long one report event stream stays open. */
  reportEventsMaxMs: number;
  /** Problems found while reading configuration that do not stop the service. */
  configWarnings: string[];
  /** The x402 gateway's stores and settings. */
  x402: {
    options: PaymentOptions;
    trials: Trials;
    /** The MCP door's free tier: MCP_FREE_CALLS_PER_DAY calls a day per tool and caller. */
    mcpTrials: Trials;
    /** Wallets proven by a signed message (EIP-4361): who gets the wallet trial allotment. */
    walletProofs: WalletProofs;
    reservations: PaymentReservations;
    receipts: ReceiptStore;
    invoices: InvoiceStore;
    facilitatorUrl: string;
    /** This backend's caller token at the facilitator. */
    facilitatorToken: string | undefined;
    invoiceTtlSeconds: number;
    /** Invoices a caller (and a client address) may create per hour. */
    invoicesPerHour: number;
    refundWindowSeconds: number;
    /** The sandbox's quotes (a test network) and facilitator, or why there is no sandbox. */
    sandbox: SandboxConfig;
    paymentsTaskQueue: string;
    settleWaitMs: number;
    toolWaitMs: number;
    operator: string;
  };
  /** Who the callers are (API keys, the client address behind proxies) and what they may spend. */
  access: {
    trustProxy: TrustProxy;
    ipv6Prefix: number;
    apiKeys: ApiKeyEntry[];
  };
  rateLimits: {
    enabled: boolean;
    failOpen: boolean;
    clientsPerNetwork: number;
    limits: {
      anonymous: { perMinute: number; perDay: number };
      free: { perMinute: number; perDay: number };
      pro: { perMinute: number; perDay: number };
    };
  };
  mcpPublicUrl: string;
  /** The scraper service, probed by status_check. */
  scraperUrl: string;
  /** The embedded stack's supervision file, when `npm start` runs this process. */
  supervisionFile?: string | undefined;
  /** Allowlist, LP lockers and log-scan bounds (the deployer-reputation tool reads with them). */
  scanConfig: ScanConfig;
  deployerCache: DeployerCache;
  /** The indexed chain data: where it lives, and its analytics engine (opened on first use). */
  chaindata: ChaindataSettings & { analytics: () => Promise<Analytics>; close: () => void };
  /** The retrieval service (catalog RAG search, similar tokens). */
  retrieval: RetrievalClient;
}

export interface BackendDepsOverrides {
  rpcUrls?: ReturnType<typeof readRpcConfig>;
  scanConfig?: ScanConfig;
}

export function createBackendDeps(env: BackendEnv, overrides: BackendDepsOverrides = {}): BackendDeps {
  // Lazy: the API comes up (and reports Temporal as down in /health) even if Temporal is not up yet.
  const connection = Connection.lazy(temporalConnectionOptions(env));
  const client = new Client({
    connection,
    namespace: env.TEMPORAL_NAMESPACE,
    plugins: temporalClientPlugins(),
  });
  const { mongo, redis, scans, receipts, invoices, reports, news } = createStores(env, { failFast: true });
  const rpcUrls = overrides.rpcUrls ?? readRpcConfig();
  const scanConfig = overrides.scanConfig ?? readScanConfig();
  return {
    temporal: { client, connection },
    mongo,
    redis,
    chains: new ChainClients({ rpcUrls, requestTimeoutMs: env.RPC_REQUEST_TIMEOUT_MS }),
    scans,
    version: readVersionInfo('vigil-backend', env.VIGIL_COMMIT),
    scannerTaskQueue: taskQueueName(TaskQueue.scanner, env.TASK_QUEUE_PREFIX),
    reportsTaskQueue: taskQueueName(TaskQueue.reports, env.TASK_QUEUE_PREFIX),
    scraperTaskQueue: taskQueueName(TaskQueue.scraper, env.TASK_QUEUE_PREFIX),
    jobScope: env.TASK_QUEUE_PREFIX,
    reports,
    news,
    scanWaitMaxMs: env.SCAN_WAIT_MAX_MS,
    reportEventsMaxMs: env.REPORT_EVENTS_MAX_SECONDS * 1000,
    configWarnings: [
      ...(rpcUrls.size === 0 ? ['No chain has an RPC endpoint configured.'] : []),
      ...(env.X402_ASSET && env.X402_PAY_TO
        ? []
        : ['X402_ASSET/X402_PAY_TO unset: tools answer free trials only.']),
    ],
    x402: {
      options: new PaymentOptions({
        facilitatorUrl: env.FACILITATOR_URL,
        network: env.X402_NETWORK,
        asset: env.X402_ASSET,
        payTo: env.X402_PAY_TO,
        maxTimeoutSeconds: env.X402_MAX_TIMEOUT_SECONDS,
        svm:
          env.X402_SVM_ASSET && env.X402_SVM_PAY_TO
            ? { network: env.X402_SVM_NETWORK, asset: env.X402_SVM_ASSET, payTo: env.X402_SVM_PAY_TO }
            : undefined,
      }),
      trials: new Trials(redis, env.TRIAL_WINDOW_SECONDS, env.RATE_LIMIT_CLIENTS_PER_NETWORK),
      mcpTrials: new Trials(redis, 86_400, env.RATE_LIMIT_CLIENTS_PER_NETWORK, {
        scope: 'mcp',
        callsPerWindow: env.MCP_FREE_CALLS_PER_DAY,
      }),
      walletProofs: new WalletProofs({
        redis,
        publicUrl: publicUrlOf(env),
        ttlSeconds: env.WALLET_PROOF_TTL_SECONDS,
        nonceTtlSeconds: env.WALLET_PROOF_NONCE_TTL_SECONDS,
      }),
      reservations: new PaymentReservations(redis),
      receipts,
      invoices,
      facilitatorUrl: env.FACILITATOR_URL,
      facilitatorToken: env.FACILITATOR_AUTH_TOKEN,
      invoiceTtlSeconds: env.X402_INVOICE_TTL_SECONDS,
      invoicesPerHour: env.X402_INVOICES_PER_HOUR,
      refundWindowSeconds: env.X402_REFUND_WINDOW_SECONDS,
      sandbox: sandboxOf(env),
      paymentsTaskQueue: taskQueueName(TaskQueue.payments, env.TASK_QUEUE_PREFIX),
      settleWaitMs: env.X402_SETTLE_WAIT_MS,
      toolWaitMs: env.TOOL_WAIT_MS,
      operator: env.VIGIL_OPERATOR,
    },
    access: {
      trustProxy: env.TRUST_PROXY,
      ipv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
      apiKeys: env.API_KEYS,
    },
    rateLimits: {
      enabled: env.RATE_LIMITS,
      failOpen: env.RATE_LIMIT_FAIL_OPEN,
      clientsPerNetwork: env.RATE_LIMIT_CLIENTS_PER_NETWORK,
      limits: {
        anonymous: {
          perMinute: env.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
          perDay: env.RATE_LIMIT_ANONYMOUS_PER_DAY,
        },
        free: { perMinute: env.RATE_LIMIT_FREE_PER_MINUTE, perDay: env.RATE_LIMIT_FREE_PER_DAY },
        pro: { perMinute: env.RATE_LIMIT_PRO_PER_MINUTE, perDay: env.RATE_LIMIT_PRO_PER_DAY },
      },
    },
    mcpPublicUrl: env.MCP_PUBLIC_URL.replace(/\/+$/, ''),
    scraperUrl: env.SCRAPER_URL.replace(/\/+$/, ''),
    supervisionFile: env.STACK_SUPERVISION_FILE,
    scanConfig,
    deployerCache: new DeployerCache(scanConfig.limits.SCAN_DEPLOYER_CACHE_SECONDS),
    chaindata: lazyAnalytics(chaindataSettings(env)),
    retrieval: new RetrievalClient(env.RETRIEVAL_URL),
  };
}

/** The engine runs in its own process, started on the first data request (and again if it dies). */
function lazyAnalytics(settings: ChaindataSettings): BackendDeps['chaindata'] {
  const sandbox = new SandboxedAnalytics(settings.location, settings.limits);
  return { ...settings, analytics: () => Promise.resolve(sandbox), close: () => sandbox.close() };
}

/** The sandbox quotes on a test network only; unset, it shares the main settings when those are one. */
function sandboxOf(env: BackendEnv): BackendDeps['x402']['sandbox'] {
  const network =
    env.X402_SANDBOX_NETWORK ?? (isTestNetwork(env.X402_NETWORK) ? env.X402_NETWORK : undefined);
  if (!network) return { disabled: 'No test network is configured (X402_SANDBOX_NETWORK).' };
  if (!isTestNetwork(network))
    throw new ConfigError([`X402_SANDBOX_NETWORK: ${network} is not a test network`]);
  const main = network === env.X402_NETWORK;
  const asset = env.X402_SANDBOX_ASSET ?? (main ? env.X402_ASSET : undefined);
  const payTo = env.X402_SANDBOX_PAY_TO ?? (main ? env.X402_PAY_TO : undefined);
  const facilitatorUrl = env.X402_SANDBOX_FACILITATOR_URL ?? (main ? env.FACILITATOR_URL : undefined);
  const facilitatorToken =
    env.X402_SANDBOX_FACILITATOR_AUTH_TOKEN ??
    (facilitatorUrl === env.FACILITATOR_URL ? env.FACILITATOR_AUTH_TOKEN : undefined);
  if (!asset || !payTo || !facilitatorUrl)
    return {
      disabled: 'The sandbox needs X402_SANDBOX_ASSET, X402_SANDBOX_PAY_TO and X402_SANDBOX_FACILITATOR_URL.',
    };
  return {
    facilitator: { url: facilitatorUrl, token: facilitatorToken },
    options: new PaymentOptions({
      facilitatorUrl,
      network,
      asset,
      payTo,
      maxTimeoutSeconds: env.X402_MAX_TIMEOUT_SECONDS,
    }),
  };
}

export async function closeBackendDeps(deps: BackendDeps): Promise<void> {
  deps.chaindata.close();
  await Promise.allSettled([deps.temporal.connection.close(), closeStores(deps)]);
}
