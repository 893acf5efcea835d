import { type Address, erc20Abi, formatUnits, getAddress, type Hash, parseAbiItem } from 'viem';
import { TRADING_THRESHOLDS } from '../core/risk/model.ts';
import { makeCheck, unknownCheck } from '../core/checks.ts';
import type { Check, Evidence } from '../core/schema.ts';
import { findPools } from '../evm/findPool.ts';
import { readLogs } from '../evm/readLogs.ts';
import { simulateHolderSell } from '../evm/simulateHolderSell.ts';
import { simulationGasPrice } from '../evm/simulationGasPrice.ts';
import type { EngineOutput, EvmEngineInput } from './context.ts';

const swapEvent = parseAbiItem(
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
);
const token0Abi = [parseAbiItem('function token0() view returns (address)')] as const;
/** Transactions looked up for their senders, at most. */
const MAX_TRADES = 1_000;

/**
 * Trading over the last SCAN_TRADING_WINDOW_BLOCKS blocks from the token's pools' Swap logs:
 * buys against sells, distinct traders (transaction senders), volume in the quote asset; then
 * the most recent buyers who still hold are made to sell in a simulation, as themselves.
 */
export async function trading(input: EvmEngineInput): Promise<EngineOutput> {
  const { client, chain, address, blockNumber, config } = input;
  const block = blockNumber.toString();
  const { SCAN_TRADING_WINDOW_BLOCKS, SCAN_LOG_CHUNK_BLOCKS, SCAN_MAX_LOGS, SCAN_HOLDER_SELL_SAMPLE } =
    config.limits;
  const pools = await findPools(client, { token: address, dexes: chain.dexes, blockNumber });
  if (pools.length === 0) {
    const reason = 'No pool against the wrapped native asset on the configured DEXes.';
    return {
      checks: [
        unknownCheck('buys_without_sells', reason),
        unknownCheck('failed_sells', reason),
        unknownCheck('low_trading_activity', reason),
      ],
      facts: {},
    };
  }
  const fromBlock =
    blockNumber > BigInt(SCAN_TRADING_WINDOW_BLOCKS) ? blockNumber - BigInt(SCAN_TRADING_WINDOW_BLOCKS) : 0n;
  const [scan, token0s] = await Promise.all([
    readLogs(client, {
      address: pools.map((pool) => pool.pair),
      event: swapEvent,
      fromBlock,
      toBlock: blockNumber,
      chunk: SCAN_LOG_CHUNK_BLOCKS,
      maxLogs: SCAN_MAX_LOGS,
    }),
    Promise.all(
      pools.map((pool) =>
        client.readContract({ address: pool.pair, abi: token0Abi, functionName: 'token0', blockNumber }),
      ),
    ),
  ]);
  const tokenIsFirst = new Map(
    pools.map((pool, index) => [
      getAddress(pool.pair),
      getAddress(token0s[index] ?? address) === getAddress(address),
    ]),
  );
  const trades = scan.logs.map((log) => {
    const first = tokenIsFirst.get(getAddress(log.address)) ?? true;
    const { amount0In, amount1In, amount0Out, amount1Out } = log.args;
    const buy = first ? amount0Out > 0n : amount1Out > 0n;
    return {
      buy,
      native: first ? (buy ? amount1In : amount1Out) : buy ? amount0In : amount0Out,
      tx: log.transactionHash,
      block: log.blockNumber,
    };
  });
  const hashes = [...new Set(trades.map((trade) => trade.tx))].slice(-MAX_TRADES);
  const senders = new Map<Hash, Address>(
    await Promise.all(
      hashes.map(
        async (hash) => [hash, getAddress((await client.getTransaction({ hash })).from)] as [Hash, Address],
      ),
    ),
  );
  const buys = trades.filter((trade) => trade.buy);
  const sells = trades.filter((trade) => !trade.buy);
  const traders = new Set(
    trades.map((trade) => senders.get(trade.tx)).filter((sender): sender is Address => sender !== undefined),
  );
  const volume = trades.reduce((sum, trade) => sum + trade.native, 0n);
  const facts = {
    window_blocks: SCAN_TRADING_WINDOW_BLOCKS,
    from_block: fromBlock.toString(),
    buys: buys.length,
    sells: sells.length,
    traders: traders.size,
    volume_native: formatUnits(volume, chain.native.decimals),
    complete: scan.complete,
  };
  const swapEvidence: Evidence = {
    kind: 'log',
    summary: `${trades.length} Swap logs in blocks ${fromBlock}–${block}: ${buys.length} buys, ${sells.length} sells by ${traders.size} traders, ${facts.volume_native} ${chain.native.symbol} volume`,
    data: {
      buys: buys.length,
      sells: sells.length,
      traders: traders.size,
      volume: volume.toString(),
      complete: scan.complete,
    },
    block,
  };

  const checks: Check[] = [];
  checks.push(
    trades.length === 0
      ? unknownCheck('buys_without_sells', `No trades in the last ${SCAN_TRADING_WINDOW_BLOCKS} blocks.`)
      : buys.length >= TRADING_THRESHOLDS.minBuysForSellCheck && sells.length === 0
        ? makeCheck('buys_without_sells', {
            status: 'fail',
            value: buys.length,
            detail: `${buys.length} buys and not a single sell in the window.`,
            evidence: [swapEvidence],
          })
        : makeCheck('buys_without_sells', {
            status: 'pass',
            value: sells.length,
            detail: `${buys.length} buys and ${sells.length} sells.`,
            evidence: [swapEvidence],
          }),
  );
  checks.push(
    traders.size < TRADING_THRESHOLDS.minTraders
      ? makeCheck('low_trading_activity', {
          status: 'fail',
          value: traders.size,
          detail: `${traders.size} distinct trader${traders.size === 1 ? '' : 's'} in the last ${SCAN_TRADING_WINDOW_BLOCKS} blocks.`,
          evidence: [swapEvidence],
        })
      : makeCheck('low_trading_activity', {
          status: 'pass',
          value: traders.size,
          detail: `${traders.size} distinct traders in the window.`,
          evidence: [swapEvidence],
        }),
  );

  // Most recent buyers first, each once, who still hold some.
  const recentBuyers = [
    ...new Set(
      buys
        .reverse()
        .map((trade) => senders.get(trade.tx))
        .filter((sender): sender is Address => sender !== undefined),
    ),
  ];
  const balances = await Promise.all(
    recentBuyers.map((buyer) =>
      client.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [buyer], blockNumber }),
    ),
  );
  const sample = recentBuyers
    .map((holder, index) => ({ holder, held: balances[index] ?? 0n }))
    .filter(({ held }) => held > 0n)
    .slice(0, SCAN_HOLDER_SELL_SAMPLE);
  const pool = pools[0];
  if (sample.length === 0 || !pool) {
    checks.push(
      unknownCheck(
        'failed_sells',
        'No recent buyer still holds the token, so no holder sell could be simulated.',
      ),
    );
  } else {
    const gasPrice = await simulationGasPrice(client, blockNumber);
    const legs = await Promise.all(
      sample.map(({ holder, held }) =>
        simulateHolderSell(client, {
          router: pool.dex.router,
          weth: pool.dex.wrappedNative,
          pair: pool.pair,
          token: address,
          holder,
          held,
          blockNumber,
          gasPrice,
        }),
      ),
    );
    const failed = legs.filter((leg) => !leg.ok);
    const evidence: Evidence[] = sample.map(({ holder }, index) => ({
      kind: 'simulation',
      summary: `sell of ${holder}'s whole balance as ${holder}${legs[index]?.seller === 'code_at_holder' ? " (the detector's code at its address)" : ''}: ${legs[index]?.ok ? 'succeeded' : `reverted: ${legs[index]?.revertReason ?? 'no reason'}`}`,
      data: {
        holder,
        ok: legs[index]?.ok ?? false,
        amount_in: legs[index]?.amountIn.toString() ?? '0',
        received_wei: legs[index]?.received.toString() ?? '0',
        seller: legs[index]?.seller ?? 'wallet',
      },
      block,
    }));
    const failedShare = failed.length / sample.length;
    checks.push(
      failedShare > TRADING_THRESHOLDS.failedSellShare
        ? makeCheck('failed_sells', {
            status: 'fail',
            value: failedShare,
            detail: `${failed.length} of ${sample.length} recent buyers cannot sell (${legs.find((leg) => !leg.ok)?.revertReason ?? 'no reason'}).`,
            evidence,
          })
        : makeCheck('failed_sells', {
            status: 'pass',
            value: 0,
            detail: `All ${sample.length} sampled recent buyers can sell.`,
            evidence,
          }),
    );
  }
  return { checks, facts };
}
