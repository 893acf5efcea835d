import { z } from 'zod';

/** One swap of the token, priced in the paired token. */
export interface Trade {
  block: number;
  /** Unix seconds. */
  time: number;
  tx: string;
  pool: string;
  price: number;
  volume: number;
  side: 'buy' | 'sell';
  trader: string;
}

/** A pool's reserves after a change (V2 Sync). */
export interface LiquidityPoint {
  block: number;
  time: number;
  tx: string;
  pool: string;
  token_reserve: number;
  paired_reserve: number;
}

export interface TransferRow {
  block: number;
  time: number;
  tx: string;
  from: string;
  to: string;
  value: number;
}

/** Holders after a block that moved the token. */
export interface HolderPoint {
  block: number;
  time: number;
  tx: string;
  holders: number;
  /** Share of the supply held by the ten largest holders, 0..1. */
  top10_share: number;
}

export interface TokenHistory {
  pools: { pool: string; block: number; tx: string }[];
  trades: Trade[];
  liquidity: LiquidityPoint[];
  holders: HolderPoint[];
  transfers: number;
  transferRows?: TransferRow[];
}

export const Interval = { m1: '1m', m5: '5m', h1: '1h', h4: '4h', d1: '1d' } as const;
export type Interval = (typeof Interval)[keyof typeof Interval];
export const INTERVAL_SECONDS: Record<Interval, number> = {
  '1m': 60,
  '5m': 300,
  '1h': 3_600,
  '4h': 14_400,
  '1d': 86_400,
};

export const Candle = z.object({
  /** Start of the interval, unix seconds. */
  time: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
  trades: z.number().int(),
  first_block: z.number().int(),
  last_block: z.number().int(),
});
export type Candle = z.infer<typeof Candle>;

const ZERO = '0x0000000000000000000000000000000000000000';

/**
 * Folds transfers into holders over time: after each block that moved the token, how many
 * addresses hold a positive balance and what share the ten largest hold. Mint and burn go
 * through the zero address, which is never counted as a holder.
 */
export function holdersOverTime(transfers: readonly TransferRow[]): HolderPoint[] {
  const balances = new Map<string, number>();
  const points: HolderPoint[] = [];
  const add = (address: string, delta: number) => {
    if (address === ZERO) return;
    const next = (balances.get(address) ?? 0) + delta;
    // Floating dust below one part in a billion of a unit is a spent balance.
    if (next <= 1e-9) balances.delete(address);
    else balances.set(address, next);
  };
  for (let i = 0; i < transfers.length; i++) {
    const row = transfers[i];
    if (!row) continue;
    add(row.from, -row.value);
    add(row.to, row.value);
    const next = transfers[i + 1];
    if (next && next.block === row.block) continue;
    const sorted = [...balances.values()].sort((a, b) => b - a);
    const supply = sorted.reduce((sum, value) => sum + value, 0);
    const top = sorted.slice(0, 10).reduce((sum, value) => sum + value, 0);
    points.push({
      block: row.block,
      time: row.time,
      tx: row.tx,
      holders: sorted.length,
      top10_share: supply > 0 ? top / supply : 0,
    });
  }
  return points;
}

/** OHLCV candles of the token's trades; intervals without trades are left out. */
export function ohlcv(trades: readonly Trade[], interval: Interval): Candle[] {
  const seconds = INTERVAL_SECONDS[interval];
  const candles = new Map<number, Candle>();
  for (const trade of trades) {
    if (!(trade.price > 0)) continue;
    const time = Math.floor(trade.time / seconds) * seconds;
    const candle = candles.get(time);
    if (!candle) {
      candles.set(time, {
        time,
        open: trade.price,
        high: trade.price,
        low: trade.price,
        close: trade.price,
        volume: trade.volume,
        trades: 1,
        first_block: trade.block,
        last_block: trade.block,
      });
      continue;
    }
    candle.high = Math.max(candle.high, trade.price);
    candle.low = Math.min(candle.low, trade.price);
    candle.close = trade.price;
    candle.volume += trade.volume;
    candle.trades += 1;
    candle.last_block = trade.block;
  }
  return [...candles.values()].sort((a, b) => a.time - b.time);
}

/** The largest balances after every transfer, with their share of what all holders hold. */
export function topHolders(
  transfers: readonly TransferRow[],
  count = 10,
): { holder: string; share: number }[] {
  const balances = new Map<string, number>();
  for (const row of transfers) {
    if (row.from !== ZERO) balances.set(row.from, (balances.get(row.from) ?? 0) - row.value);
    if (row.to !== ZERO) balances.set(row.to, (balances.get(row.to) ?? 0) + row.value);
  }
  const positive = [...balances.entries()].filter(([, value]) => value > 1e-9).sort((a, b) => b[1] - a[1]);
  const supply = positive.reduce((sum, [, value]) => sum + value, 0);
  return positive
    .slice(0, count)
    .map(([holder, value]) => ({ holder, share: supply > 0 ? value / supply : 0 }));
}
