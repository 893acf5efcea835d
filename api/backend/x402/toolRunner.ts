import { randomUUID } from 'node:crypto';
import { findChain } from '../../../core/chains/registry.ts';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import {
  MCP_SERVER_INFO,
  riskModelFacts,
  ScanView,
  type ToolDefinition,
  toolDiscovery,
} from '../../../core/catalog/index.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { ENGINE_CHECKS } from '../../../scanner/core/engines.ts';
import type { ScanResult } from '../../../scanner/core/result.ts';
import type { ScanJobs } from '../scanJobs.ts';
import { type DeployerToolDeps, getDeployerReputation } from '../../../scanner/deployerTool.ts';
import type { DataTools } from '../../../chaindata/tools.ts';
import { bytecodeFingerprint } from '../../../scanner/fingerprint/bytecodeFingerprint.ts';
import type { RetrievalClient } from '../retrievalClient.ts';
import type { ReportJobs } from '../reportJobs.ts';
import type { NewsStore } from '../../../news/store.ts';
import { newsSentiment, type NewsSentimentQuery } from '../../../news/sentimentTool.ts';
import type { ReportSubject } from '../../../reports/core/schema.ts';
import { getAddress, isAddress } from 'viem';

interface SimilarTokensInput {
  chain: string;
  address: string;
  top_k: number;
  cross_chain: boolean;
}

/** A tool's answer: data, or the empty-data result (answered 200, never charged). */
export type ToolOutcome = { kind: 'data'; data: unknown } | { kind: 'empty'; sourcesTried: string[] };

/** Who a call runs for. */
export interface ToolContext {
  /**
   * The caller a job the tool starts belongs to (`key:<id>`, or `fp:<hash>` of the network
   * fingerprint), so the caller can read and cancel it as if it had started it by its own route.
   * Without one (a call no caller is known for), the job has a holder of its own.
   */
  holder?: string;
}

/** Runs a catalog tool by its `run` reference. Failures throw a problem; nothing is charged for them. */
export class ToolRunner {
  readonly #jobs: ScanJobs;
  readonly #waitMs: number;
  readonly #deployer: DeployerToolDeps;
  readonly #data: DataTools;
  readonly #retrieval: RetrievalClient | undefined;
  readonly #status: (() => Promise<unknown>) | undefined;
  readonly #reports: ReportJobs | undefined;
  readonly #news: NewsStore | undefined;

  constructor(options: {
    jobs: ScanJobs;
    waitMs: number;
    deployer: DeployerToolDeps;
    data: DataTools;
    retrieval?: RetrievalClient;
    reports?: ReportJobs;
    news?: NewsStore;
    /** The health of every subsystem, for status_check. */
    status?: () => Promise<unknown>;
  }) {
    this.#status = options.status;
    this.#reports = options.reports;
    this.#news = options.news;
    this.#jobs = options.jobs;
    this.#waitMs = options.waitMs;
    this.#deployer = options.deployer;
    this.#data = options.data;
    this.#retrieval = options.retrieval;
  }

  async run(tool: ToolDefinition, input: unknown, context: ToolContext = {}): Promise<ToolOutcome> {
    const run = tool.run;
    if (run.kind === 'data') return this.#data.run(run.fn, input);
    if (run.kind === 'function') {
      if (run.fn === 'riskModel') return { kind: 'data', data: riskModelFacts() };
      if (run.fn === 'queryCatalog') return this.#queryCatalog(input as { query: string; top_k: number });
      if (run.fn === 'similarTokens') return this.#similarTokens(input as SimilarTokensInput);
      if (run.fn === 'newsSentiment') return this.#newsSentiment(input as NewsSentimentQuery);
      if (run.fn === 'statusCheck') {
        if (!this.#status) throw new VigilError('engine_unavailable', 'Status is not served here.');
        return { kind: 'data', data: await this.#status() };
      }
      if (run.fn === 'mcpDiscover')
        return {
          kind: 'data',
          data: toolDiscovery({
            name: MCP_SERVER_INFO.name,
            version: MCP_SERVER_INFO.version,
            protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
          }),
        };
      return this.#deployerReputation(input as { chain: string; address: string });
    }
    if (run.kind === 'job') return this.#startReport(input as ReportSubject, context.holder);
    const { chain, address } = input as { chain: string; address: string };
    // The call holds the scan only while it waits for it (a cancel by its other holders spares it).
    const job = await this.#jobs.submit(
      { chain, address, wait_ms: this.#waitMs },
      { id: `tool:${randomUUID()}`, transient: true },
    );
    if (job.status === 'running') {
      throw new VigilError(
        'tool_failed',
        'The scan did not finish in time; it goes on, and a retry answers from it.',
        {
          headers: { 'retry-after': '5' },
          extensions: { reason: 'timed_out', job_id: job.job_id, status_url: job.status_url },
        },
      );
    }
    if (!job.result) {
      throw new VigilError('tool_failed', `The scan failed: ${job.error?.message ?? job.status}.`, {
        extensions: { reason: job.error?.reason ?? job.status, job_id: job.job_id },
      });
    }
    return viewOf(run.view, job.result);
  }

  /** A report is a long job: the call starts (or joins) it and answers its id, progress and URLs. */
  async #startReport(subject: ReportSubject, holder: string | undefined): Promise<ToolOutcome> {
    if (!this.#reports) throw new VigilError('engine_unavailable', 'Reports are not served here.');
    return { kind: 'data', data: await this.#reports.submit(subject, holder ?? `tool:${randomUUID()}`) };
  }

  async #newsSentiment(query: NewsSentimentQuery): Promise<ToolOutcome> {
    if (!this.#news) throw new VigilError('engine_unavailable', 'News is not served here.');
    const answer = await newsSentiment(this.#news, query);
    return answer.items.length === 0
      ? { kind: 'empty', sourcesTried: ['news feeds'] }
      : { kind: 'data', data: answer };
  }

  #retrievalService(): RetrievalClient {
    if (!this.#retrieval) throw new VigilError('index_unavailable', 'No retrieval service is configured.');
    return this.#retrieval;
  }

  async #queryCatalog(input: { query: string; top_k: number }): Promise<ToolOutcome> {
    const { tools } = await this.#retrievalService().searchCatalog(input.query, input.top_k);
    return tools.length > 0
      ? { kind: 'data', data: { query: input.query, tools } }
      : { kind: 'empty', sourcesTried: ['tool catalog'] };
  }

  /** The token's code is fingerprinted here (at the latest block); the retrieval service ranks the scanned ones. */
  async #similarTokens(input: SimilarTokensInput): Promise<ToolOutcome> {
    if (!isAddress(input.address, { strict: false })) {
      throw new VigilError('invalid_address', `${input.address} is not an EVM address.`);
    }
    const address = getAddress(input.address);
    const code = await this.#deployer.chains.evm(input.chain).getCode({ address });
    const fingerprint = code ? bytecodeFingerprint(code) : undefined;
    if (!fingerprint) {
      throw new VigilError('address_not_contract', `${address} holds no contract code on ${input.chain}.`);
    }
    const { tokens, indexed_tokens: indexed } = await this.#retrievalService().similarTokens({
      chain: input.chain,
      address,
      fingerprint,
      top_k: input.top_k,
      cross_chain: input.cross_chain,
    });
    if (tokens.length === 0) return { kind: 'empty', sourcesTried: ['token fingerprints'] };
    return {
      kind: 'data',
      data: {
        chain: input.chain,
        address,
        fingerprint: {
          version: fingerprint.version,
          code_hash: fingerprint.code_hash,
          selectors: fingerprint.selectors.length,
        },
        compared_with: indexed,
        tokens,
      },
    };
  }

  async #deployerReputation(input: { chain: string; address: string }): Promise<ToolOutcome> {
    const { reputation, checks } = await getDeployerReputation(this.#deployer, input);
    // A wallet that never sent a transaction nor received one has no record to judge.
    if (reputation.nonce === 0 && reputation.first_seen_block === null) {
      return { kind: 'empty', sourcesTried: ['chain RPC'] };
    }
    return { kind: 'data', data: { ...reputation, checks } };
  }
}

function viewOf(view: ScanView, result: ScanResult): ToolOutcome {
  if (view === ScanView.full) {
    return result.coverage === 0
      ? { kind: 'empty', sourcesTried: ['chain RPC'] }
      : { kind: 'data', data: result };
  }
  const engine = view === ScanView.honeypot ? 'honeypot' : 'contract_safety';
  const outcome = result.engines[engine];
  if (outcome?.status !== 'ok') {
    throw new VigilError(
      'tool_failed',
      `The ${engine} engine failed: ${outcome?.error?.message ?? 'not run'}.`,
      {
        extensions: { reason: outcome?.error?.reason ?? 'engine_error' },
      },
    );
  }
  const ids: readonly string[] = ENGINE_CHECKS[engine];
  const checks = result.checks.filter((check) => ids.includes(check.id));
  if (checks.every((check) => check.status === 'unknown')) {
    // The engine ran but its source had nothing: no pool to trade against, say.
    const dexes = findChain(result.chain)?.dexes.map((dex) => dex.name) ?? [];
    return { kind: 'empty', sourcesTried: view === ScanView.honeypot ? dexes : ['contract bytecode'] };
  }
  const base = {
    chain: result.chain,
    address: result.address,
    block_number: result.block_number,
    scanned_at: result.scanned_at,
  };
  if (view === ScanView.honeypot) {
    const honeypot = checks.find((check) => check.id === 'is_honeypot');
    return {
      kind: 'data',
      data: {
        ...base,
        is_honeypot: honeypot?.status === 'fail' ? true : honeypot?.status === 'pass' ? false : null,
        flags: checks.filter((check) => check.status === 'fail').map((check) => check.id),
        checks,
      },
    };
  }
  return {
    kind: 'data',
    data: {
      ...base,
      token: result.token,
      flags: checks.filter((check) => check.status === 'fail').map((check) => check.id),
      checks,
    },
  };
}
