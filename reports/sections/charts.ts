import type { Candle, HolderPoint, LiquidityPoint } from '../../charts/core/series.ts';
import {
  distributionChartSpec,
  holdersChartSpec,
  liquidityChartSpec,
  priceChartSpec,
  renderSvg,
  scoreChartSpec,
} from '../../charts/svg.ts';
import { type ChartImage, type Section, SECTION_TITLES, SectionKind, SectionStatus } from '../core/schema.ts';

/** What the charts are drawn from: the data of the sections that completed. */
export interface ChartSources {
  categories?: Record<string, number | null> | undefined;
  candles?: Candle[] | undefined;
  liquidity?: LiquidityPoint[] | undefined;
  holders?: HolderPoint[] | undefined;
  topHolders?: { holder: string; share: number }[] | undefined;
}

/** The report's charts as SVG: price, liquidity, holders over time, distribution, score breakdown. */
export async function chartsSection(sources: ChartSources): Promise<Section> {
  const charts: ChartImage[] = [];
  const draw = async (id: string, title: string, spec: Parameters<typeof renderSvg>[0]) => {
    charts.push({ id, title, svg: await renderSvg(spec) });
  };
  if (sources.candles?.length) await draw('price', 'Price (OHLC)', priceChartSpec(sources.candles, 'Price'));
  if (sources.liquidity?.length) {
    await draw('liquidity', 'Liquidity over time', liquidityChartSpec(sources.liquidity, 'Paired reserve'));
  }
  if (sources.holders?.length) {
    await draw('holders', 'Holders and top-10 share', holdersChartSpec(sources.holders, 'Holders'));
  }
  if (sources.topHolders?.length) {
    const shares = sources.topHolders.map((row) => ({
      holder: `${row.holder.slice(0, 6)}…${row.holder.slice(-4)}`,
      share: row.share,
    }));
    await draw('distribution', 'Holder distribution', distributionChartSpec(shares, 'Largest holders'));
  }
  const scored = Object.entries(sources.categories ?? {}).flatMap(([category, score]) =>
    score === null ? [] : [{ category, score }],
  );
  if (scored.length) await draw('score', 'Risk score breakdown', scoreChartSpec(scored, 'Risk by category'));
  return {
    kind: SectionKind.charts,
    title: SECTION_TITLES.charts,
    status: SectionStatus.completed,
    facts: [],
    data: { rendered: charts.map((chart) => chart.id) },
    charts,
  };
}
