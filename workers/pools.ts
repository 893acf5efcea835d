import type { Hex } from 'viem';
import type { ChainClients } from '../clients/chains/chainClients.ts';
import type { InvoiceStore } from '../core/stores/invoices.ts';
import type { ReceiptStore } from '../core/stores/receipts.ts';
import type { ScanConfig } from '../scanner/config.ts';
import type { ScanStore } from '../scanner/scanStore.ts';
import type { TokenFingerprintStore } from '../scanner/fingerprint/fingerprintStore.ts';
import { TaskQueue } from '../core/temporal/taskQueues.ts';
import { createPaymentActivities } from '../activities/payments/index.ts';
import { createScannerActivities } from '../activities/scanner/index.ts';
import { createRetrievalActivities, type RetrievalActivityDeps } from '../activities/retrieval/index.ts';
import { createScraperActivities } from '../activities/scraper/index.ts';
import { createChaindataActivities } from '../activities/chaindata/index.ts';
import { createReportActivities } from '../activities/reports/index.ts';
import { createNewsActivities } from '../activities/news/index.ts';
import type { ReportWriterDeps } from '../reports/writer.ts';
import type { IndexStore } from '../chaindata/storage/indexStore.ts';
import type { ScraperEngine } from '../scraper/engine.ts';
import type { FacilitatorAccess } from '../core/x402/facilitatorClient.ts';
import type { WorkerEnv } from './config.ts';

/** What a pool's activities may depend on; created once per process, shared by its pools. */
export interface PoolDeps {
  chains: ChainClients;
  scans: ScanStore;
  fingerprints: TokenFingerprintStore;
  receipts: ReceiptStore;
  /** The facilitator the payments pool settles through, and its caller token there. */
  facilitator: FacilitatorAccess;
  /** How long after settlement a refund may be asked for. */
  refundWindowSeconds: number;
  /** Created on first use: processes without the scraper pool never start its proxies or browser. */
  scraper: () => ScraperEngine;
  scanConfig: ScanConfig;
  invoices: InvoiceStore;
  /** Signs refunds in the payments pool (the payee's key); unset = no refunds. */
  payeePrivateKey?: Hex | undefined;
  /** The indexed chain data's Parquet store; opened on first use (only the ingest pool writes it). */
  chaindata: () => IndexStore;
  /** The index, the embedding model and the upload store of the ingest pool. */
  retrieval: () => RetrievalActivityDeps;
  /** The chain index's analytics engine, the report and news stores, the narrative model. */
  reports: () => ReportWriterDeps;
  /** The scraper service, which fetches documents and feeds for the pools that read the web. */
  scraperService: { url: string; apiKey?: string | undefined };
}

export interface PoolDefinition {
  activities(deps: PoolDeps): object;
  /** Concurrent activity and workflow-task slots. */
  slots(env: WorkerEnv): { activities: number; workflows: number };
}

/** Every task queue that has a pool today. Adding a queue here gives it `npm run worker -- <queue>`. */
export const POOLS: Partial<Record<TaskQueue, PoolDefinition>> = {
  [TaskQueue.scanner]: {
    activities: (deps) =>
      createScannerActivities({
        chains: deps.chains,
        scans: deps.scans,
        fingerprints: deps.fingerprints,
        config: deps.scanConfig,
      }),
    slots: (env) => ({ activities: env.WORKER_SCANNER_ACTIVITIES, workflows: env.WORKER_SCANNER_WORKFLOWS }),
  },
  // Settlement: its own slots, so a burst of scans never delays a payer's receipt. The signer's
  // transaction nonces are one stream, kept by the facilitator service this pool calls.
  [TaskQueue.payments]: {
    activities: (deps) => createPaymentActivities(deps),
    slots: (env) => ({
      activities: env.WORKER_PAYMENTS_ACTIVITIES,
      workflows: env.WORKER_PAYMENTS_WORKFLOWS,
    }),
  },
  [TaskQueue.scraper]: {
    activities: (deps) => createScraperActivities({ engine: deps.scraper() }),
    slots: (env) => ({ activities: env.WORKER_SCRAPER_ACTIVITIES, workflows: env.WORKER_SCRAPER_WORKFLOWS }),
  },
  // Ingest: chain indexing into Parquet and document ingest for retrieval (embedding-bound: few
  // activity slots, each batch keeps a core busy).
  [TaskQueue.ingest]: {
    activities: (deps) => ({
      ...createChaindataActivities({ chains: deps.chains, store: deps.chaindata() }),
      ...createRetrievalActivities(deps.retrieval()),
    }),
    slots: (env) => ({ activities: env.WORKER_INGEST_ACTIVITIES, workflows: env.WORKER_INGEST_WORKFLOWS }),
  },
  // Reports: long workflows that mostly wait on their sections; the sections' reads go to the
  // analytics engine (its own process) and the chain, so a few activity slots keep a core busy.
  // Reports, and the news pipeline whose items they quote (feeds read through the scraper service).
  [TaskQueue.reports]: {
    activities: (deps) => {
      const reports = deps.reports();
      return {
        ...createReportActivities(reports),
        ...createNewsActivities({
          news: reports.news,
          retrievalUrl: reports.retrievalUrl,
          knownTokens: () => deps.scans.knownTokens(),
          scraper: deps.scraperService,
        }),
      };
    },
    slots: (env) => ({ activities: env.WORKER_REPORTS_ACTIVITIES, workflows: env.WORKER_REPORTS_WORKFLOWS }),
  },
};

export function poolQueues(): TaskQueue[] {
  return Object.keys(POOLS) as TaskQueue[];
}
