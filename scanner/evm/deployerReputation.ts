import { FLAGGED_CATEGORIES, type LabelEvidence, labelsOnChain } from '../../chaindata/labels/labelIndex.ts';
import {
  type Address,
  getAddress,
  getContractAddress,
  type Hash,
  parseAbi,
  parseAbiItem,
  type PublicClient,
} from 'viem';
import type { ChainInfo } from '../../core/chains/registry.ts';
import { firstBlockWhere } from './firstBlock.ts';
import { isHistoricalStateError } from '../../clients/chains/rpcErrors.ts';
import { DEPLOYER_REPUTATION } from '../core/risk/model.ts';
import type { ScanLimits } from '../config.ts';
import { findPools } from './findPool.ts';
import { readLogs } from './readLogs.ts';
import { simulateRoundTrip } from './simulateRoundTrip.ts';
import { pinnedBlock } from './perBlock.ts';
import { simulationGasPrice } from './simulationGasPrice.ts';

/** A pool holding less native asset than this (wei) is drained; simulating it says nothing. */
const DRAINED_POOL_WEI = 10n ** 12n;
import { tryRead } from './tryRead.ts';

const totalSupplyAbi = parseAbi([
  'function totalSupply() view returns (uint256)',
  'function symbol() view returns (string)',
]);
const mintEvent = parseAbiItem('event Mint(address indexed sender, uint256 amount0, uint256 amount1)');
const burnEvent = parseAbiItem(
  'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
);
const token0Abi = parseAbi(['function token0() view returns (address)']);
const FAN_OUT = 8;

interface DeployedToken {
  address: Address;
  symbol: string | null;
  nonce: number;
  pair: Address | null;
  /** Quote-asset liquidity added and removed (by the deployer) over the log window, in wei. */
  added_wei: string;
  removed_by_deployer_wei: string;
  /** Liquidity pulled by the deployer soon after it was added. */
  rugged: boolean;
  rug?: { block: string; tx: Hash; seconds_after_launch: number };
  /** Sells revert in a round-trip simulation. */
  honeypot: boolean | null;
}

export interface DeployerReputation {
  chain: string;
  deployer: Address;
  block_number: string;
  /** 100: clean record; 0: serial rugger. */
  score: number;
  /** Chain time between the wallet's first funding and the block read; null when unknown. */
  age_seconds: number | null;
  first_seen_block: string | null;
  /** Sender of the transaction that first funded the wallet; `genesis` for a genesis allocation. */
  funded_by: string | null;
  /** The funder's labels on this chain (exchange, phish-hack, ...), from Vigil's label sources. */
  funded_by_labels: LabelEvidence[];
  nonce: number;
  /** Contracts made by the wallet (CREATE, nonces scanned), and the tokens among them analysed. */
  contracts_deployed: number;
  tokens: DeployedToken[];
  rugs: number;
  honeypots: number;
  /** How the score arose. */
  explanation: string[];
  /** False when the nonce window did not reach back to the wallet's first transaction. */
  complete: boolean;
}

/**
 * A deployer's record at a block, from plain JSON-RPC: wallet age and funding source (a search
 * for the first block the wallet held anything, then that block's transactions), the contracts
 * it created (CREATE addresses of its nonces), and for the most recent tokens among them what
 * became of their liquidity (V2 Mint/Burn logs; a deployer withdrawal soon after launch is a
 * rug) and whether sells work (the round-trip simulation). Reads are bounded by `limits`.
 */
export async function deployerReputation(
  client: PublicClient,
  {
    chain,
    deployer,
    blockNumber,
    limits,
  }: { chain: ChainInfo; deployer: Address; blockNumber: bigint; limits: ScanLimits },
): Promise<DeployerReputation> {
  const wallet = getAddress(deployer);
  const [nonce, pinned, firstSeen] = await Promise.all([
    client.getTransactionCount({ address: wallet, blockNumber }),
    pinnedBlock(client, blockNumber),
    // Without state at past blocks (a non-archive provider) the wallet's age stays unknown.
    firstActivity(client, wallet, blockNumber).catch((error: unknown) => {
      if (isHistoricalStateError(error)) return undefined;
      throw error;
    }),
  ]);
  const funding = firstSeen === undefined ? undefined : await fundingOf(client, wallet, firstSeen);
  const firstNonce = Math.max(0, nonce - limits.SCAN_DEPLOYER_MAX_NONCE);
  const created = Array.from({ length: nonce - firstNonce }, (_, index) => firstNonce + index).map((n) => ({
    nonce: n,
    address: getContractAddress({ from: wallet, nonce: BigInt(n) }),
  }));
  const codes = await Promise.all(
    created.map((entry) => client.getCode({ address: entry.address, blockNumber })),
  );
  const contracts = created.filter((_, index) => (codes[index]?.length ?? 0) > 2);
  const supplies = await Promise.all(
    contracts.map((entry) =>
      tryRead(() =>
        client.readContract({
          address: entry.address,
          abi: totalSupplyAbi,
          functionName: 'totalSupply',
          blockNumber,
        }),
      ),
    ),
  );
  const tokenEntries = contracts
    .filter((_, index) => supplies[index] !== undefined)
    .slice(-limits.SCAN_DEPLOYER_MAX_TOKENS);
  const tokens = await Promise.all(
    tokenEntries.map((entry) =>
      analyseToken(client, { chain, wallet, token: entry.address, nonce: entry.nonce, blockNumber, limits }),
    ),
  );

  const ageSeconds = firstSeen === undefined ? null : Number(pinned.timestamp - firstSeen.timestamp);
  const rugs = tokens.filter((token) => token.rugged).length;
  const honeypots = tokens.filter((token) => token.honeypot === true).length;
  const model = DEPLOYER_REPUTATION;
  const explanation: string[] = ['start at 100'];
  let score = 100;
  const take = (points: number, why: string) => {
    if (points <= 0) return;
    score -= points;
    explanation.push(`−${points}: ${why}`);
  };
  take(
    rugs * model.perRug,
    `${rugs} token(s) with liquidity pulled within ${model.rugWindowSeconds / 86_400} days of launch`,
  );
  take(honeypots * model.perHoneypot, `${honeypots} honeypot token(s)`);
  if (ageSeconds !== null && ageSeconds < model.freshSeconds)
    take(model.freshWallet, `wallet first funded ${Math.round(ageSeconds / 3600)} h before`);
  const fundedByLabels = funding && funding !== 'genesis' ? labelsOnChain(chain.evmChainId, funding) : [];
  const flagged = fundedByLabels.filter((label) => FLAGGED_CATEGORIES.has(label.category));
  if (flagged.length > 0)
    take(
      model.fundedByFlagged,
      `first funded by ${funding}, labelled ${flagged.map((label) => `${label.label}${label.name_tag ? ` (${label.name_tag}, ${label.source})` : ` (${label.source})`}`).join(', ')}`,
    );
  if (contracts.length > model.manyTokens)
    take(model.manyTokensPenalty, `${contracts.length} contracts deployed (more than ${model.manyTokens})`);
  score = Math.max(0, Math.min(100, score));
  explanation.push(`→ ${score}`);
  return {
    chain: chain.id,
    deployer: wallet,
    block_number: blockNumber.toString(),
    score,
    age_seconds: ageSeconds,
    first_seen_block: firstSeen?.number.toString() ?? null,
    funded_by: funding ?? null,
    funded_by_labels: fundedByLabels,
    nonce,
    contracts_deployed: contracts.length,
    tokens,
    rugs,
    honeypots,
    explanation,
    complete: firstNonce === 0,
  };
}

interface BlockRef {
  number: bigint;
  timestamp: bigint;
}

/** The first block at which the wallet held a balance or had sent a transaction. */
async function firstActivity(
  client: PublicClient,
  wallet: Address,
  blockNumber: bigint,
): Promise<BlockRef | undefined> {
  const active = async (block: bigint) => {
    const [balance, count] = await Promise.all([
      client.getBalance({ address: wallet, blockNumber: block }),
      client.getTransactionCount({ address: wallet, blockNumber: block }),
    ]);
    return balance > 0n || count > 0;
  };
  if (!(await active(blockNumber))) return undefined;
  // Active at the genesis: the search range is just block 0.
  const high = (await active(0n)) ? 0n : await firstBlockWhere(active, 0n, blockNumber, FAN_OUT);
  const block = await client.getBlock({ blockNumber: high });
  return { number: high, timestamp: block.timestamp };
}

/** Who sent the wallet its first funds: a transaction to it in its first block, or the genesis. */
async function fundingOf(
  client: PublicClient,
  wallet: Address,
  first: BlockRef,
): Promise<string | undefined> {
  if (first.number === 0n) return 'genesis';
  const block = await client.getBlock({ blockNumber: first.number, includeTransactions: true });
  const funding = block.transactions.find((tx) => tx.to && getAddress(tx.to) === wallet);
  return funding ? getAddress(funding.from) : undefined;
}

async function analyseToken(
  client: PublicClient,
  parameters: {
    chain: ChainInfo;
    wallet: Address;
    token: Address;
    nonce: number;
    blockNumber: bigint;
    limits: ScanLimits;
  },
): Promise<DeployedToken> {
  const { chain, wallet, token, nonce, blockNumber, limits } = parameters;
  const [symbol, pools] = await Promise.all([
    tryRead(() =>
      client.readContract({ address: token, abi: totalSupplyAbi, functionName: 'symbol', blockNumber }),
    ),
    findPools(client, { token, dexes: chain.dexes, blockNumber }),
  ]);
  const base: DeployedToken = {
    address: token,
    symbol: typeof symbol === 'string' ? symbol.slice(0, 32) : null,
    nonce,
    pair: null,
    added_wei: '0',
    removed_by_deployer_wei: '0',
    rugged: false,
    honeypot: null,
  };
  const pool = pools[0];
  if (!pool) return base;
  const window = BigInt(limits.SCAN_LOG_WINDOW_BLOCKS);
  const fromBlock = blockNumber > window ? blockNumber - window : 0n;
  const logParameters = {
    address: pool.pair,
    fromBlock,
    toBlock: blockNumber,
    chunk: limits.SCAN_LOG_CHUNK_BLOCKS,
    maxLogs: limits.SCAN_MAX_LOGS,
  };
  const [mints, burns, token0] = await Promise.all([
    readLogs(client, { ...logParameters, event: mintEvent }),
    readLogs(client, { ...logParameters, event: burnEvent }),
    client.readContract({ address: pool.pair, abi: token0Abi, functionName: 'token0', blockNumber }),
  ]);
  const nativeIsFirst = getAddress(token0) !== getAddress(token);
  const native = (args: { amount0: bigint; amount1: bigint }) =>
    nativeIsFirst ? args.amount0 : args.amount1;
  const added = mints.logs.reduce((sum, log) => sum + native(log.args), 0n);
  const removers = await Promise.all(
    burns.logs.map(async (log) =>
      getAddress((await client.getTransaction({ hash: log.transactionHash })).from),
    ),
  );
  const own = burns.logs.filter((_, index) => removers[index] === wallet);
  const removed = own.reduce((sum, log) => sum + native(log.args), 0n);
  const result: DeployedToken = {
    ...base,
    pair: pool.pair,
    added_wei: added.toString(),
    removed_by_deployer_wei: removed.toString(),
  };
  const firstMint = mints.logs[0];
  const lastOwn = own[own.length - 1];
  const share = DEPLOYER_REPUTATION.rugRemovedShare;
  if (firstMint && lastOwn && added > 0n && removed * 1000n >= added * BigInt(Math.round(share * 1000))) {
    const [launched, pulled] = await Promise.all([
      client.getBlock({ blockNumber: firstMint.blockNumber }),
      client.getBlock({ blockNumber: lastOwn.blockNumber }),
    ]);
    const seconds = Number(pulled.timestamp - launched.timestamp);
    if (seconds <= DEPLOYER_REPUTATION.rugWindowSeconds) {
      result.rugged = true;
      result.rug = {
        block: lastOwn.blockNumber.toString(),
        tx: lastOwn.transactionHash,
        seconds_after_launch: seconds,
      };
    }
  }
  if (pool.reserveNative >= DRAINED_POOL_WEI) {
    const amountIn = pool.reserveNative / 200n > 0n ? pool.reserveNative / 200n : 1n;
    const gasPrice = await simulationGasPrice(client, blockNumber).catch(() => undefined);
    const sim = await simulateRoundTrip(client, {
      router: pool.dex.router,
      token,
      amountIn,
      blockNumber,
      ...(gasPrice === undefined ? {} : { gasPrice }),
    }).catch(() => undefined);
    if (sim?.buy.ok && sim.sell.attempted) result.honeypot = !sim.sell.ok && !sim.sellPartial.ok;
  }
  return result;
}
