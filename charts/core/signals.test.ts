import { describe, expect, it } from 'vitest';
import type { HolderPoint, LiquidityPoint, Trade } from './series.ts';
import { ohlcv } from './series.ts';
import { SIGNAL_THRESHOLDS, SignalKind, threatSignals } from './signals.ts';

const sync = (block: number, paired: number): LiquidityPoint => ({
  block,
  time: block * 12,
  tx: `0xs${block}`,
  pool: '0xpool',
  token_reserve: 1_000,
  paired_reserve: paired,
});
const holders = (block: number, count: number, share: number): HolderPoint => ({
  block,
  time: block * 12,
  tx: `0xh${block}`,
  holders: count,
  top10_share: share,
});
const trade = (block: number, volume: number, trader = '0xtrader', side: Trade['side'] = 'buy'): Trade => ({
  block,
  time: block * 60,
  tx: `0xt${block}`,
  pool: '0xpool',
  price: 1,
  volume,
  side,
  trader,
});
const none = { trades: [], liquidity: [], holders: [], candles: [], deployer: null };

describe('threat signals', () => {
  it('sees liquidity pulled at the threshold drop, not just below it', () => {
    const pulled = threatSignals({
      ...none,
      liquidity: [sync(1, 10), sync(2, 10 * (1 - SIGNAL_THRESHOLDS.liquidityDrop))],
    });
    expect(pulled).toMatchObject([{ kind: SignalKind.liquidityPulled, block: 2, tx: '0xs2' }]);
    const drained = threatSignals({ ...none, liquidity: [sync(1, 10), sync(2, 5.1)] });
    expect(drained).toEqual([]);
  });

  it('sees a jump in the top-10 share, not a gentle rise', () => {
    const jump = threatSignals({ ...none, holders: [holders(1, 20, 0.3), holders(2, 20, 0.55)] });
    expect(jump).toMatchObject([{ kind: SignalKind.holderConcentrationJump, block: 2 }]);
    expect(threatSignals({ ...none, holders: [holders(1, 20, 0.3), holders(2, 20, 0.45)] })).toEqual([]);
  });

  it("sees the deployer's sells, and nobody else's", () => {
    const trades = [
      trade(1, 5, '0xDEP', 'sell'),
      trade(2, 5, '0xother', 'sell'),
      trade(3, 5, '0xdep', 'buy'),
    ];
    const signals = threatSignals({ ...none, trades, deployer: '0xdep' });
    expect(signals).toMatchObject([{ kind: SignalKind.deployerSells, block: 1 }]);
  });

  it('sees a volume spike when holders do not grow, and none when they do', () => {
    const trades = [trade(1, 1), trade(2, 1), trade(3, 1), trade(4, 10)];
    const candles = ohlcv(trades, '1m');
    const flat = [holders(0, 5, 0.9), holders(4, 5, 0.9)];
    expect(threatSignals({ ...none, trades, candles, holders: flat })).toMatchObject([
      { kind: SignalKind.volumeSpikeWithoutHolders, block: 4 },
    ]);
    const growing = [holders(0, 5, 0.9), holders(4, 9, 0.9)];
    expect(threatSignals({ ...none, trades, candles, holders: growing })).toEqual([]);
  });
});
