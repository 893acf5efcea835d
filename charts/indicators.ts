import { BollingerBands, EMA, MACD, RSI, SMA } from 'trading-signals';
import type { Candle } from './core/series.ts';

/** Indicator values per candle (null until an indicator has seen enough candles). */
export interface IndicatorRow {
  time: number;
  sma: number | null;
  ema: number | null;
  rsi: number | null;
  macd: { macd: number; signal: number; histogram: number } | null;
  bollinger: { lower: number; middle: number; upper: number } | null;
}

export interface IndicatorPeriods {
  sma: number;
  ema: number;
  rsi: number;
  macd: { short: number; long: number; signal: number };
  bollinger: { period: number; deviations: number };
}

/** The periods traders read by default. */
const DEFAULT_PERIODS: IndicatorPeriods = {
  sma: 20,
  ema: 20,
  rsi: 14,
  macd: { short: 12, long: 26, signal: 9 },
  bollinger: { period: 20, deviations: 2 },
};

/** SMA, EMA, RSI, MACD and Bollinger bands over the candles' closes (trading-signals). */
export function indicators(
  candles: readonly Candle[],
  periods: IndicatorPeriods = DEFAULT_PERIODS,
): IndicatorRow[] {
  const sma = new SMA(periods.sma);
  const ema = new EMA(periods.ema);
  const rsi = new RSI(periods.rsi);
  const macd = new MACD(
    new EMA(periods.macd.short),
    new EMA(periods.macd.long),
    new EMA(periods.macd.signal),
  );
  const bands = new BollingerBands(periods.bollinger.period, periods.bollinger.deviations);
  return candles.map((candle) => {
    const close = candle.close;
    const row: IndicatorRow = {
      time: candle.time,
      sma: sma.add(close),
      ema: ema.add(close),
      rsi: rsi.add(close),
      macd: macd.add(close),
      bollinger: bands.add(close),
    };
    // Unstable values (before the period is full) are not shown.
    if (!sma.isStable) row.sma = null;
    if (!ema.isStable) row.ema = null;
    if (!rsi.isStable) row.rsi = null;
    if (!macd.isStable) row.macd = null;
    if (!bands.isStable) row.bollinger = null;
    return row;
  });
}
