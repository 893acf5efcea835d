import { z } from 'zod';
import { anyOfFields } from '../schema/fieldRules.ts';
import { CATEGORY_WEIGHTS, MODEL_VERSION, TIER_BANDS } from '../../scanner/core/risk/model.ts';
import {
  Capability,
  ChainKind,
  CHAINS,
  type ChainId,
  type ChainInfo,
  hasCapability,
} from '../chains/registry.ts';
import { AnalyticsQueryInput, LabelsQueryInput, RawQueryInput } from './dataInputs.ts';
import { type ToolDefinition, PriceTier, ScanView } from './schema.ts';

/** The registry's chains that pass `applies`, as a non-empty tuple for z.enum. */
function chainsWhere(applies: (chain: ChainInfo) => boolean): [ChainId, ...ChainId[]] {
  return CHAINS.filter(applies).map((chain) => chain.id) as [ChainId, ...ChainId[]];
}

/** A tool's input: a chain it applies to and an address on it. */
function chainTarget(chains: [ChainId, ...ChainId[]], chainHint: string, addressHint: string) {
  return z
    .object({
      chain: z.enum(chains).describe(chainHint),
      address: z.string().min(1).max(128).describe(addressHint),
    })
    .strict();
}

/** Chains where token scans run, computed from the registry's capabilities. */
const TOKEN_SCAN_CHAINS = chainsWhere((chain) => hasCapability(chain, Capability.tokenScan));
const TokenTarget = chainTarget(
  TOKEN_SCAN_CHAINS,
  'Chain slug, e.g. ethereum, base, devnet',
  'Token contract address',
);

/** EVM chains where a deployer's record can be read (its nonces, creations and pools). */
const DEPLOYER_CHAINS = chainsWhere(
  (chain) => chain.kind === ChainKind.evm && hasCapability(chain, Capability.walletAnalysis),
);
const DeployerTarget = chainTarget(
  DEPLOYER_CHAINS,
  'EVM chain slug, e.g. ethereum, base, devnet',
  'The deployer wallet',
);

const NoInput = z.object({}).strict();

const ReportInput = z
  .object({
    kind: z.enum(['token', 'wallet']).default('token').describe('What the report is about'),
    chain: z.enum(TOKEN_SCAN_CHAINS).describe('Chain slug, e.g. ethereum, base, devnet'),
    address: z.string().min(1).max(128).describe('The token contract, or the wallet'),
  })
  .strict();

const NewsSentimentInput = anyOfFields(
  z
    .object({
      token: z.string().trim().min(1).max(128).optional().describe('A symbol, name or contract address'),
      topic: z.string().trim().min(1).max(100).optional().describe('A word or phrase the headlines contain'),
      limit: z.number().int().min(1).max(50).default(20).describe('How many items (1-50)'),
    })
    .strict(),
  ['token', 'topic'],
  'Send a token or a topic',
);

/** EVM chains: the indexer reads EVM logs. */
const EVM_CHAINS = chainsWhere((chain) => chain.kind === ChainKind.evm);
const CatalogQuery = z
  .object({
    query: z.string().trim().min(1).max(500).describe('What you want to do, in your own words'),
    top_k: z.number().int().min(1).max(20).default(5).describe('How many tools to return (1-20)'),
  })
  .strict();

/** EVM chains where a token's code can be fingerprinted (Solana mints share one program). */
const FINGERPRINT_CHAINS = chainsWhere(
  (chain) => chain.kind === ChainKind.evm && hasCapability(chain, Capability.tokenScan),
);
const SimilarTokensInput = chainTarget(
  FINGERPRINT_CHAINS,
  'EVM chain slug, e.g. ethereum, base, devnet',
  'Token contract address',
).extend({
  top_k: z.number().int().min(1).max(50).default(10).describe('How many similar tokens to return (1-50)'),
  cross_chain: z
    .boolean()
    .default(true)
    .describe('Compare with tokens on every chain (default) or only this one'),
});

/**
 * Every tool Vigil sells, declared once. REST routes, prices, the discovery documents and (later)
 * MCP are generated from this list; every count anywhere is computed from it.
 */
export const TOOLS = [
  {
    name: 'token_risk',
    mcpName: 'get_token_risk',
    version: '1.0.0',
    title: 'Token risk score',
    description:
      'Risk score 0-100 with tier, confidence, the five-category breakdown, flags, green flags and the evidence ' +
      'behind every check, from a token scan pinned at one block.',
    input: TokenTarget,
    chains: TOKEN_SCAN_CHAINS,
    tier: PriceTier.premium,
    priceUsd: 0.05,
    trials: { fingerprint: 3, wallet: 5 },
    run: { kind: 'workflow', workflow: 'scanToken', view: ScanView.full },
    sources: 'chain RPC',
  },
  {
    name: 'honeypot_check',
    version: '1.0.0',
    title: 'Honeypot check',
    description:
      'Buys, transfers and sells the token against its deepest pool in one simulated call: honeypot verdict, ' +
      'buy/sell/transfer taxes, with the simulation as evidence.',
    input: TokenTarget,
    chains: TOKEN_SCAN_CHAINS,
    tier: PriceTier.basic,
    priceUsd: 0.01,
    trials: { fingerprint: 5, wallet: 5 },
    run: { kind: 'workflow', workflow: 'scanToken', view: ScanView.honeypot },
    sources: 'DEX pools',
  },
  {
    name: 'contract_audit',
    version: '1.0.0',
    title: 'Contract audit',
    description:
      'Contract safety from code and state: ownership, mint/blacklist/pause/fee powers, proxies, selfdestruct ' +
      'and delegatecall, with the selectors and slots as evidence.',
    input: TokenTarget,
    chains: TOKEN_SCAN_CHAINS,
    tier: PriceTier.premium,
    priceUsd: 0.05,
    trials: { fingerprint: 2, wallet: 4 },
    run: { kind: 'workflow', workflow: 'scanToken', view: ScanView.contractSafety },
    sources: 'contract bytecode and storage',
  },
  {
    name: 'deployer_reputation',
    mcpName: 'get_deployer_reputation',
    version: '1.0.0',
    title: 'Deployer reputation',
    description:
      'Reputation of a token deployer, 100 clean to 0 serial rugger: wallet age, funding source, the tokens it ' +
      'deployed and whether their liquidity was pulled soon after launch, with the blocks and transactions.',
    input: DeployerTarget,
    chains: DEPLOYER_CHAINS,
    tier: PriceTier.basic,
    priceUsd: 0.02,
    trials: { fingerprint: 3, wallet: 5 },
    run: { kind: 'function', fn: 'deployerReputation' },
    sources: 'chain RPC',
  },
  {
    name: 'analytics_query',
    version: '1.0.0',
    title: 'Analytics SQL',
    description:
      'Read-only SQL over Vigil’s indexed chain data (DuckDB): one SELECT over the views blocks, transfers, swaps, ' +
      'pools, pool_events, deployments and labels. Answers columns with types, rows (capped), and the elapsed time.',
    input: AnalyticsQueryInput,
    chains: EVM_CHAINS,
    tier: PriceTier.premium,
    priceUsd: 0.1,
    trials: { fingerprint: 3, wallet: 5 },
    run: { kind: 'data', fn: 'analyticsQuery' },
    sources: 'index',
  },
  {
    name: 'parquet_query',
    version: '1.0.0',
    title: 'Raw chain data',
    description:
      'Transfers, swaps, pools, pool events or deployments by chain, address, token, block range and time range, ' +
      'a page at a time (cursor pagination), from the indexed Parquet files.',
    input: RawQueryInput,
    chains: EVM_CHAINS,
    tier: PriceTier.premium,
    priceUsd: 0.05,
    trials: { fingerprint: 3, wallet: 5 },
    run: { kind: 'data', fn: 'parquetQuery' },
    sources: 'index',
  },
  {
    name: 'eth_labels_query',
    version: '1.0.0',
    title: 'Labelled addresses',
    description:
      'Labelled Ethereum addresses (exchanges, phishing and hacks, tokens, burn addresses) by address, label, ' +
      'category or name substring, with each label’s source.',
    input: LabelsQueryInput,
    chains: ['ethereum'],
    tier: PriceTier.basic,
    priceUsd: 0.01,
    trials: { fingerprint: 5, wallet: 5 },
    run: { kind: 'data', fn: 'labelsQuery' },
    sources: 'labels',
  },
  {
    name: 'eth_labels_stats',
    version: '1.0.0',
    title: 'Label statistics',
    description:
      'How many labels the database holds: totals, unique addresses, counts per category, label, source and chain.',
    input: NoInput,
    chains: ['ethereum'],
    tier: PriceTier.basic,
    priceUsd: 0.01,
    trials: { fingerprint: 5, wallet: 5 },
    run: { kind: 'data', fn: 'labelsStats' },
    sources: 'labels',
  },
  {
    name: 'risk_model',
    version: '1.0.0',
    title: 'Risk model',
    description: `How scores arise (${MODEL_VERSION}): category weights, tier bands, gates and confidence. Free.`,
    input: NoInput,
    chains: [],
    tier: PriceTier.free,
    priceUsd: 0,
    trials: { fingerprint: 0, wallet: 0 },
    run: { kind: 'function', fn: 'riskModel' },
    sources: 'risk model',
  },
  {
    name: 'query_catalog',
    version: '1.0.0',
    title: 'Tool catalog search',
    description:
      "Natural-language search over Vigil's tool catalog: the tools that answer your question, best first, with " +
      'their input schemas, chains and prices.',
    input: CatalogQuery,
    chains: [],
    tier: PriceTier.basic,
    priceUsd: 0.01,
    trials: { fingerprint: 5, wallet: 5 },
    run: { kind: 'function', fn: 'queryCatalog' },
    sources: 'tool catalog',
  },
  {
    name: 'find_similar_tokens',
    version: '1.0.0',
    title: 'Similar tokens',
    description:
      "Scanned tokens whose code is like this token's (a fingerprint of its normalised opcodes), same-chain and " +
      'cross-chain, with the similarity and the known verdict of each; near-clones of known harmful tokens first.',
    input: SimilarTokensInput,
    chains: FINGERPRINT_CHAINS,
    tier: PriceTier.basic,
    priceUsd: 0.02,
    trials: { fingerprint: 3, wallet: 5 },
    run: { kind: 'function', fn: 'similarTokens' },
    sources: 'token fingerprints',
  },
  {
    name: 'generate_report',
    version: '1.0.0',
    title: 'Research report',
    description:
      'A research report on a token or a wallet, written as a durable job: the token scan with its evidence, the ' +
      "deployer's reputation, holders and concentration over time, liquidity and price history from indexed swaps " +
      'with threat signals, similar tokens, news with sentiment and charts; every claim links to its evidence. ' +
      'Answers the job with its progress and download URLs (JSON, Markdown, HTML, PDF).',
    input: ReportInput,
    chains: TOKEN_SCAN_CHAINS,
    tier: PriceTier.elite,
    priceUsd: 0.25,
    trials: { fingerprint: 1, wallet: 2 },
    run: { kind: 'job', workflow: 'generateReport' },
    sources: 'token scan, chain index, retrieval, news',
  },
  {
    name: 'get_news_sentiment',
    version: '1.0.0',
    title: 'News sentiment',
    description:
      'The latest news items about a token (symbol, name or contract address) or a topic, with the sentiment, ' +
      'source and time of each and the aggregate.',
    input: NewsSentimentInput,
    chains: [],
    tier: PriceTier.basic,
    priceUsd: 0.01,
    trials: { fingerprint: 3, wallet: 5 },
    run: { kind: 'function', fn: 'newsSentiment' },
    sources: 'news feeds',
  },
  {
    name: 'status_check',
    version: '1.0.0',
    title: 'Status check',
    description:
      'Health of every subsystem: Redis, MongoDB, Temporal, each chain RPC provider, the facilitator, the ' +
      'retrieval and MCP services, with latency and what is degraded. Free.',
    input: NoInput,
    chains: [],
    tier: PriceTier.free,
    priceUsd: 0,
    trials: { fingerprint: 0, wallet: 0 },
    run: { kind: 'function', fn: 'statusCheck' },
    sources: 'health probes',
  },
  {
    name: 'mcp_discover',
    version: '1.0.0',
    title: 'Tool discovery',
    description:
      'Every tool with its MCP name, REST path, version, deprecation, price and input schema, and the counts. Free.',
    input: NoInput,
    chains: [],
    tier: PriceTier.free,
    priceUsd: 0,
    trials: { fingerprint: 0, wallet: 0 },
    run: { kind: 'function', fn: 'mcpDiscover' },
    sources: 'tool catalog',
  },
] as const satisfies readonly ToolDefinition[];

/** The MCP server as the API specification gives it (its protocol surface, not a package's version). */
export const MCP_SERVER_INFO = {
  name: 'vigil',
  title: 'Vigil crypto intelligence',
  version: '5.0.0',
} as const;

const byName = new Map<string, ToolDefinition>(TOOLS.map((tool) => [tool.name, tool]));

export function findTool(name: string): ToolDefinition | undefined {
  return byName.get(name);
}

/** The name MCP clients call a tool by. */
export function mcpToolName(tool: ToolDefinition): string {
  return tool.mcpName ?? tool.name;
}

const byMcpName = new Map<string, ToolDefinition>(TOOLS.map((tool) => [mcpToolName(tool), tool]));

/** A tool by the name MCP clients use. */
export function findMcpTool(name: string): ToolDefinition | undefined {
  return byMcpName.get(name);
}

export function isPaid(tool: ToolDefinition): boolean {
  return tool.priceUsd > 0;
}

/** What the risk model tool answers: the constants the score is computed from. */
export function riskModelFacts() {
  return { model_version: MODEL_VERSION, category_weights: CATEGORY_WEIGHTS, tier_bands: TIER_BANDS };
}
