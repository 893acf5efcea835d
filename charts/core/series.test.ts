import { describe, expect, it } from 'vitest';
import { holdersOverTime, ohlcv, topHolders, type Trade, type TransferRow } from './series.ts';

const ZERO = '0x0000000000000000000000000000000000000000';
const trade = (time: number, price: number, volume = 1, block = time): Trade => ({
  block,
  time,
  tx: `0x${block}`,
  pool: '0xpool',
  price,
  volume,
  side: 'buy',
  trader: '0xa',
});
const transfer = (block: number, from: string, to: string, value: number): TransferRow => ({
  block,
  time: block * 12,
  tx: `0x${block}`,
  from,
  to,
  value,
});

describe('ohlcv', () => {
  it('folds trades into candles with open, high, low, close, volume and block range', () => {
    const candles = ohlcv([trade(0, 2), trade(30, 5, 2), trade(59, 1), trade(60, 3, 4), trade(150, 4)], '1m');
    expect(candles).toEqual([
      { time: 0, open: 2, high: 5, low: 1, close: 1, volume: 4, trades: 3, first_block: 0, last_block: 59 },
      { time: 60, open: 3, high: 3, low: 3, close: 3, volume: 4, trades: 1, first_block: 60, last_block: 60 },
      {
        time: 120,
        open: 4,
        high: 4,
        low: 4,
        close: 4,
        volume: 1,
        trades: 1,
        first_block: 150,
        last_block: 150,
      },
    ]);
  });

  it('leaves out trades without a price', () => {
    expect(ohlcv([trade(0, 0)], '1h')).toEqual([]);
  });
});

describe('holders over time', () => {
  it('counts positive balances after each block, never the zero address, with the top-10 share', () => {
    const points = holdersOverTime([
      transfer(1, ZERO, '0xa', 100),
      transfer(2, '0xa', '0xb', 40),
      transfer(2, '0xa', '0xc', 10),
      transfer(3, '0xb', '0xa', 40),
      transfer(3, '0xc', ZERO, 10),
    ]);
    expect(points.map((point) => [point.block, point.holders])).toEqual([
      [1, 1],
      [2, 3],
      [3, 1],
    ]);
    expect(points.every((point) => point.top10_share === 1)).toBe(true);
  });

  it('ranks the largest holders by their share of what all holders hold', () => {
    const rows = [transfer(1, ZERO, '0xa', 75), transfer(1, ZERO, '0xb', 25)];
    expect(topHolders(rows)).toEqual([
      { holder: '0xa', share: 0.75 },
      { holder: '0xb', share: 0.25 },
    ]);
  });
});
