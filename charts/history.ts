import type { Analytics } from '../chaindata/analytics/sandbox.ts';
import type { HolderPoint, LiquidityPoint, TokenHistory, Trade, TransferRow } from './core/series.ts';
import { holdersOverTime } from './core/series.ts';

/** Bounds on what one history read brings into memory; a busy token is summarised past them. */
const MAX_SWAPS = 20_000;
const MAX_SYNCS = 20_000;
const MAX_TRANSFERS = 50_000;

const isHexAddress = (value: string) => /^0x[0-9a-f]{40}$/.test(value);

/**
 * A token's history from the indexed chain data: its trades (swaps in every pool that pairs it),
 * each pool's reserves after every change, and its transfers folded into holders over time.
 * Prices are in the paired token per token, both taken at `decimals` (the paired side at 18,
 * what every devnet and mainnet wrapped native uses).
 */
export async function readTokenHistory(
  analytics: Analytics,
  chain: string,
  token: string,
  decimals: number,
): Promise<TokenHistory> {
  const address = token.toLowerCase();
  if (!isHexAddress(address)) return { pools: [], trades: [], liquidity: [], holders: [], transfers: 0 };
  const values = { chain, token: address };
  const [pools, swaps, syncs, transfers] = await Promise.all([
    analytics.internal(
      `SELECT pool, token0, token1, block_number, tx_hash FROM pools
        WHERE chain = $chain AND (token0 = $token OR token1 = $token) ORDER BY block_number`,
      values,
    ),
    analytics.internal(
      `SELECT block_number, epoch(block_time) AS t, tx_hash, pool, recipient, token0, amount0, amount1
         FROM swaps WHERE chain = $chain AND (token0 = $token OR token1 = $token)
        ORDER BY block_number, log_index`,
      values,
      MAX_SWAPS,
    ),
    analytics.internal(
      `SELECT e.block_number, epoch(e.block_time) AS t, e.tx_hash, e.pool, e.kind, p.token0, e.amount0, e.amount1
         FROM pool_events e JOIN pools p ON p.chain = e.chain AND p.pool = e.pool
        WHERE e.chain = $chain AND (p.token0 = $token OR p.token1 = $token)
        ORDER BY e.block_number, e.log_index`,
      values,
      MAX_SYNCS,
    ),
    analytics.internal(
      `SELECT block_number, epoch(block_time) AS t, tx_hash, from_address, to_address, value
         FROM transfers WHERE chain = $chain AND kind = 'erc20' AND token = $token
        ORDER BY block_number, log_index`,
      values,
      MAX_TRANSFERS,
    ),
  ]);
  const scale = 10 ** (18 - decimals);
  const trades: Trade[] = swaps.rows.map((row) => {
    const tokenIs0 = row.token0 === address;
    const tokenAmount = Math.abs(Number(tokenIs0 ? row.amount0 : row.amount1));
    const otherAmount = Math.abs(Number(tokenIs0 ? row.amount1 : row.amount0));
    // Positive = into the pool: the token going in is a sell.
    const tokenIn = Number(tokenIs0 ? row.amount0 : row.amount1) > 0;
    return {
      block: Number(row.block_number),
      time: Number(row.t),
      tx: String(row.tx_hash),
      pool: String(row.pool),
      price: tokenAmount === 0 ? 0 : otherAmount / tokenAmount / scale,
      volume: tokenAmount / 10 ** decimals,
      side: tokenIn ? 'sell' : 'buy',
      trader: String(row.recipient),
    };
  });
  const liquidity: LiquidityPoint[] = syncs.rows
    .filter((row) => row.kind === 'sync')
    .map((row) => {
      const tokenIs0 = row.token0 === address;
      return {
        block: Number(row.block_number),
        time: Number(row.t),
        tx: String(row.tx_hash),
        pool: String(row.pool),
        token_reserve: Number(tokenIs0 ? row.amount0 : row.amount1) / 10 ** decimals,
        paired_reserve: Number(tokenIs0 ? row.amount1 : row.amount0) / 1e18,
      };
    });
  const transferRows: TransferRow[] = transfers.rows.map((row) => ({
    block: Number(row.block_number),
    time: Number(row.t),
    tx: String(row.tx_hash),
    from: String(row.from_address),
    to: String(row.to_address),
    value: Number(row.value) / 10 ** decimals,
  }));
  const holders: HolderPoint[] = holdersOverTime(transferRows);
  return {
    pools: pools.rows.map((row) => ({
      pool: String(row.pool),
      block: Number(row.block_number),
      tx: String(row.tx_hash),
    })),
    trades,
    liquidity,
    holders,
    transfers: transferRows.length,
    transferRows,
  };
}
