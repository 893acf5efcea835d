/**
 * The one registry of chains Vigil covers. RPC endpoints are not here: they come from
 * configuration (see rpcConfig.ts), so the same code runs against a devnet or mainnet providers.
 */
export const ChainKind = { evm: 'evm', solana: 'solana', tron: 'tron', bitcoin: 'bitcoin' } as const;
export type ChainKind = (typeof ChainKind)[keyof typeof ChainKind];

/** What Vigil can do on a chain; tools check this and answer a clear problem when it is false. */
export const Capability = { tokenScan: 'token_scan', walletAnalysis: 'wallet_analysis' } as const;
export type Capability = (typeof Capability)[keyof typeof Capability];

export interface DexInfo {
  /** A Uniswap-V2-compatible AMM: pairs found through factory.getPair(token, wrappedNative). */
  readonly protocol: 'uniswap-v2';
  readonly name: string;
  readonly factory: `0x${string}`;
  readonly router: `0x${string}`;
  readonly wrappedNative: `0x${string}`;
}

export interface ChainInfo {
  /** Slug used in URLs and requests. */
  readonly id: string;
  readonly name: string;
  /** CAIP-2 chain id. */
  readonly caip2: string;
  readonly kind: ChainKind;
  /** EVM chain id, for EVM chains. */
  readonly evmChainId?: number;
  readonly native: { readonly symbol: string; readonly decimals: number };
  readonly explorer?: string;
  readonly dexes: readonly DexInfo[];
  /**
   * Contracts known to lock LP tokens; LP they hold counts as locked. More can be configured
   * per deployment (LP_LOCKERS_<CHAIN>).
   */
  readonly lpLockers?: readonly `0x${string}`[];
  readonly capabilities: readonly Capability[];
  /** A local development chain; not part of the covered-chain count. */
  readonly local?: boolean;
}

/** Uniswap V2 on Ethereum; the devnet deploys the same contracts at the same addresses. */
const UNISWAP_V2_MAINNET = {
  protocol: 'uniswap-v2',
  name: 'Uniswap V2',
  factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
  router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
  wrappedNative: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
} as const satisfies DexInfo;

const evmScan = [Capability.tokenScan, Capability.walletAnalysis] as const;

/** The LP locker the devnet installs at a fixed address, as uniswap.ts does with the DEX. */
export const DEVNET_LP_LOCKER = '0x6A8e2a3df82De54226e23Af18C33F18732f5E73f';

/**
 * Genesis hash the local Solana devnet (LiteSVM behind infra/devnet/solana) reports, so that
 * its CAIP-2 id follows the same rule as mainnet's.
 */
export const SOLANA_DEVNET_GENESIS_HASH = 'BZK93YdhmS1uyAghMgGbCxyeVhgbPxDcsKSVrN1jnEBz';
const eth = { symbol: 'ETH', decimals: 18 } as const;

export const CHAINS = [
  {
    id: 'ethereum',
    name: 'Ethereum',
    caip2: 'eip155:1',
    kind: ChainKind.evm,
    evmChainId: 1,
    native: eth,
    explorer: 'https://etherscan.io',
    dexes: [UNISWAP_V2_MAINNET],
    capabilities: evmScan,
  },
  {
    id: 'base',
    name: 'Base',
    caip2: 'eip155:8453',
    kind: ChainKind.evm,
    evmChainId: 8453,
    native: eth,
    explorer: 'https://basescan.org',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'Uniswap V2',
        factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
        router: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
        wrappedNative: '0x4200000000000000000000000000000000000006',
      },
    ],
  },
  {
    id: 'bsc',
    name: 'BNB Smart Chain',
    caip2: 'eip155:56',
    kind: ChainKind.evm,
    evmChainId: 56,
    native: { symbol: 'BNB', decimals: 18 },
    explorer: 'https://bscscan.com',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'PancakeSwap V2',
        factory: '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73',
        router: '0x10ED43C718714eb63d5aA57B78B54704E256024E',
        wrappedNative: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
      },
    ],
  },
  {
    id: 'arbitrum',
    name: 'Arbitrum One',
    caip2: 'eip155:42161',
    kind: ChainKind.evm,
    evmChainId: 42161,
    native: eth,
    explorer: 'https://arbiscan.io',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'Uniswap V2',
        factory: '0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9',
        router: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
        wrappedNative: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
      },
    ],
  },
  {
    id: 'optimism',
    name: 'OP Mainnet',
    caip2: 'eip155:10',
    kind: ChainKind.evm,
    evmChainId: 10,
    native: eth,
    explorer: 'https://optimistic.etherscan.io',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'Uniswap V2',
        factory: '0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf',
        router: '0x4A7b5Da61326A6379179b40d00F57E5bbDC962c2',
        wrappedNative: '0x4200000000000000000000000000000000000006',
      },
    ],
  },
  {
    id: 'polygon',
    name: 'Polygon PoS',
    caip2: 'eip155:137',
    kind: ChainKind.evm,
    evmChainId: 137,
    native: { symbol: 'POL', decimals: 18 },
    explorer: 'https://polygonscan.com',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'QuickSwap',
        factory: '0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32',
        router: '0xa5E0829CaCEd8fFDD4De3c43696c57F7D7A678ff',
        wrappedNative: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
      },
    ],
  },
  {
    id: 'avalanche',
    name: 'Avalanche C-Chain',
    caip2: 'eip155:43114',
    kind: ChainKind.evm,
    evmChainId: 43114,
    native: { symbol: 'AVAX', decimals: 18 },
    explorer: 'https://snowtrace.io',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'Trader Joe V1',
        factory: '0x9Ad6C38BE94206cA50bb0d90783181662f0Cfa10',
        router: '0x60aE616a2155Ee3d9A68541Ba4544862310933d4',
        wrappedNative: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7',
      },
    ],
  },
  {
    id: 'fantom',
    name: 'Fantom Opera',
    caip2: 'eip155:250',
    kind: ChainKind.evm,
    evmChainId: 250,
    native: { symbol: 'FTM', decimals: 18 },
    explorer: 'https://ftmscan.com',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'SpookySwap',
        factory: '0x152eE697f2E276fA89E96742e9bB9aB1F2E61bE3',
        router: '0xF491e7B69E4244ad4002BC14e878a34207E38c29',
        wrappedNative: '0x21be370D5312f44cB42ce377BC9b8a0cEF1A4C83',
      },
    ],
  },
  {
    id: 'gnosis',
    name: 'Gnosis',
    caip2: 'eip155:100',
    kind: ChainKind.evm,
    evmChainId: 100,
    native: { symbol: 'XDAI', decimals: 18 },
    explorer: 'https://gnosisscan.io',
    capabilities: evmScan,
    dexes: [
      {
        protocol: 'uniswap-v2',
        name: 'Honeyswap',
        factory: '0xA818b4F111Ccac7AA31D0BCc0806d64F2E0737D7',
        router: '0x1C232F01118CB8B424793ae03F870aa7D0ac7f77',
        wrappedNative: '0xe91D153E0b41518A2Ce8Dd3D7944Fa863463a97d',
      },
    ],
  },
  {
    id: 'linea',
    name: 'Linea',
    caip2: 'eip155:59144',
    kind: ChainKind.evm,
    evmChainId: 59144,
    native: eth,
    explorer: 'https://lineascan.build',
    dexes: [],
    capabilities: evmScan,
  },
  {
    id: 'solana',
    name: 'Solana',
    caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    kind: ChainKind.solana,
    native: { symbol: 'SOL', decimals: 9 },
    explorer: 'https://solscan.io',
    dexes: [],
    capabilities: [Capability.tokenScan, Capability.walletAnalysis],
  },
  {
    id: 'tron',
    name: 'TRON',
    caip2: 'tron:0x2b6653dc',
    kind: ChainKind.tron,
    native: { symbol: 'TRX', decimals: 6 },
    explorer: 'https://tronscan.org',
    dexes: [],
    capabilities: [Capability.walletAnalysis],
  },
  {
    id: 'bitcoin',
    name: 'Bitcoin',
    caip2: 'bip122:000000000019d6689c085ae165831e93',
    kind: ChainKind.bitcoin,
    native: { symbol: 'BTC', decimals: 8 },
    explorer: 'https://mempool.space',
    dexes: [],
    capabilities: [Capability.walletAnalysis],
  },
  {
    id: 'devnet',
    name: 'Local devnet',
    caip2: 'eip155:31337',
    kind: ChainKind.evm,
    evmChainId: 31337,
    native: eth,
    dexes: [UNISWAP_V2_MAINNET],
    lpLockers: [DEVNET_LP_LOCKER],
    capabilities: evmScan,
    local: true,
  },
  {
    id: 'solana_devnet',
    name: 'Local Solana devnet',
    caip2: `solana:${SOLANA_DEVNET_GENESIS_HASH.slice(0, 32)}`,
    kind: ChainKind.solana,
    native: { symbol: 'SOL', decimals: 9 },
    dexes: [],
    capabilities: [Capability.tokenScan, Capability.walletAnalysis],
    local: true,
  },
] as const satisfies readonly ChainInfo[];

export type ChainId = (typeof CHAINS)[number]['id'];
export const CHAIN_IDS = CHAINS.map((chain) => chain.id) as [ChainId, ...ChainId[]];

const byId = new Map<string, ChainInfo>(CHAINS.map((chain) => [chain.id, chain]));

/**
 * The dollar stablecoins of the listed chains (USDT, USDC, DAI, BUSD, BSC-USD): tokens a launch
 * keeps as its quote or fee token, whose code makes no call a holder could steer. Lower-case.
 */
const PUBLIC_STABLECOINS: Partial<Record<ChainId, readonly `0x${string}`[]>> = {
  ethereum: [
    '0xdac17f958d2ee523a2206206994597c13d831ec7',
    '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '0x6b175474e89094c44da98b954eedeac495271d0f',
  ],
  bsc: [
    '0x55d398326f99059ff775485246999027b3197955',
    '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
    '0xe9e7cea3dedca5984780bafc599bd69add087d56',
  ],
  base: ['0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'],
  arbitrum: ['0xaf88d065e77c8cc2239327c5edb3a432268e5831', '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9'],
  optimism: ['0x0b2c639c533813f4aa9d7837caf62653d097ff85', '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58'],
  polygon: ['0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', '0xc2132d05d31c914a87c6611c10748aeb04b58e8f'],
  avalanche: ['0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e', '0x9702230a8ea53601f5cd2dc00fdbc13d4df4a8c7'],
};

/**
 * Every listed chain's DEX contracts (routers, factories, wrapped native coins) and dollar
 * stablecoins: public code that anyone calls, so no token's insider, whichever chain a token keeps
 * one of in its code or storage.
 */
export const PUBLIC_CONTRACTS: readonly `0x${string}`[] = [
  ...new Set([
    ...CHAINS.flatMap((chain): readonly DexInfo[] => chain.dexes).flatMap((dex) => [
      dex.router,
      dex.factory,
      dex.wrappedNative,
    ]),
    ...Object.values(PUBLIC_STABLECOINS).flat(),
  ]),
];

export function findChain(id: string): ChainInfo | undefined {
  return byId.get(id);
}

export function getChain(id: ChainId): ChainInfo {
  const chain = byId.get(id);
  if (!chain) throw new Error(`chain ${id} is not in the registry`);
  return chain;
}

export function hasCapability(chain: ChainInfo, capability: Capability): boolean {
  return chain.capabilities.includes(capability);
}

const byEvmId = new Map<number, ChainInfo>(
  CHAINS.flatMap((chain): [number, ChainInfo][] =>
    'evmChainId' in chain && !('local' in chain && chain.local) ? [[chain.evmChainId, chain]] : [],
  ),
);

/** The covered (non-local) chain with this EVM chain id. */
export function chainByEvmId(evmChainId: number): ChainInfo | undefined {
  return byEvmId.get(evmChainId);
}
