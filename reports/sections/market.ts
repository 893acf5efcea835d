import {
  type Interval,
  INTERVAL_SECONDS,
  ohlcv,
  type TokenHistory,
  topHolders,
} from '../../charts/core/series.ts';
import { threatSignals } from '../../charts/core/signals.ts';
import { type Fact, type Section, SECTION_TITLES, SectionKind, SectionStatus } from '../core/schema.ts';
import type { EvidenceLinker } from '../evidence.ts';

/** Points kept per series in a section (the series travel through the workflow history). */
const MAX_POINTS = 400;

/** Every n-th point so at most `max` remain, always keeping the last one. */
function thin<T>(points: readonly T[], max = MAX_POINTS): T[] {
  if (points.length <= max) return [...points];
  const step = Math.ceil(points.length / max);
  const kept = points.filter((_, i) => i % step === 0);
  const last = points.at(-1);
  if (last !== undefined && kept.at(-1) !== last) kept.push(last);
  return kept;
}

/** The interval that gives a readable number of candles over the history's span. */
function candleInterval(history: TokenHistory): Interval {
  const first = history.trades[0]?.time ?? 0;
  const last = history.trades.at(-1)?.time ?? 0;
  const span = last - first;
  const intervals = Object.entries(INTERVAL_SECONDS) as [Interval, number][];
  return intervals.find(([, seconds]) => span / seconds <= 120)?.[0] ?? '1d';
}

export function holdersSection(history: TokenHistory, links: EvidenceLinker): Section {
  const facts: Fact[] = [];
  const last = history.holders.at(-1);
  if (last) {
    facts.push({
      id: 'holders-now',
      text: `${last.holders} address${last.holders === 1 ? '' : 'es'} held the token after block ${last.block}; the ten largest held ${(last.top10_share * 100).toFixed(1)}% of the supply.`,
      evidence: [links.block(last.block), links.tx(last.tx)],
    });
  }
  const peak = history.holders.reduce<(typeof history.holders)[number] | undefined>(
    (best, point) => (best === undefined || point.top10_share > best.top10_share ? point : best),
    undefined,
  );
  if (peak && peak !== last && peak.holders > 1) {
    facts.push({
      id: 'holders-peak-concentration',
      text: `Concentration peaked at ${(peak.top10_share * 100).toFixed(1)}% in the top ten at block ${peak.block}.`,
      evidence: [links.block(peak.block), links.tx(peak.tx)],
    });
  }
  if (history.transfers === 0) {
    facts.push({
      id: 'holders-none',
      text: 'The chain index holds no transfers of this token.',
      evidence: [],
    });
  }
  return {
    kind: SectionKind.holders,
    title: SECTION_TITLES.holders,
    status: SectionStatus.completed,
    facts,
    data: {
      transfers: history.transfers,
      points: thin(history.holders),
      top_holders: topHolders(history.transferRows ?? []),
    },
    charts: [],
  };
}

export function liquiditySection(
  history: TokenHistory,
  deployer: string | null,
  links: EvidenceLinker,
): Section {
  const interval = candleInterval(history);
  const candles = ohlcv(history.trades, interval);
  const signals = threatSignals({
    trades: history.trades,
    liquidity: history.liquidity,
    holders: history.holders,
    candles,
    deployer,
  });
  const facts: Fact[] = [];
  for (const pool of history.pools) {
    facts.push({
      id: `liquidity-pool-${pool.pool.toLowerCase()}`,
      text: `Pool ${pool.pool} pairs the token since block ${pool.block}.`,
      evidence: [links.address(pool.pool), links.tx(pool.tx), links.block(pool.block)],
    });
  }
  const firstTrade = history.trades[0];
  const lastTrade = history.trades.at(-1);
  if (firstTrade && lastTrade) {
    const change = firstTrade.price > 0 ? (lastTrade.price / firstTrade.price - 1) * 100 : 0;
    facts.push({
      id: 'liquidity-price',
      text: `${history.trades.length} swap${history.trades.length === 1 ? '' : 's'} moved the price from ${firstTrade.price.toPrecision(4)} to ${lastTrade.price.toPrecision(4)} (${change >= 0 ? '+' : ''}${change.toFixed(1)}%) in the paired token.`,
      evidence: [links.tx(firstTrade.tx), links.tx(lastTrade.tx)],
    });
  } else {
    facts.push({
      id: 'liquidity-no-swaps',
      text: 'The chain index holds no swaps of this token.',
      evidence: [],
    });
  }
  const lastReserve = history.liquidity.at(-1);
  if (lastReserve) {
    facts.push({
      id: 'liquidity-reserve',
      text: `The last pool change left ${lastReserve.paired_reserve.toPrecision(4)} of the paired token in ${lastReserve.pool} at block ${lastReserve.block}.`,
      evidence: [links.tx(lastReserve.tx), links.block(lastReserve.block)],
    });
  }
  signals.forEach((signal, index) => {
    facts.push({
      id: `signal-${signal.kind}-${index}`,
      text: signal.detail,
      evidence: [links.block(signal.block), ...(signal.tx ? [links.tx(signal.tx)] : [])],
    });
  });
  return {
    kind: SectionKind.liquidity,
    title: SECTION_TITLES.liquidity,
    status: SectionStatus.completed,
    facts,
    data: {
      interval,
      candles: thin(candles),
      liquidity: thin(history.liquidity),
      signals,
      pools: history.pools,
    },
    charts: [],
  };
}
