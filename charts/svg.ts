import { Resvg } from '@resvg/resvg-js';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Candle, HolderPoint, LiquidityPoint } from './core/series.ts';

const WIDTH = 560;
const HEIGHT = 200;

/**
 * Renders a Vega-Lite spec to SVG in this process: Vega's headless view ("none" renderer) needs
 * no DOM and no canvas (text is measured by estimate), so reports and chart routes draw their
 * charts server-side.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * The same chart as a PNG (twice the SVG's width, for sharp images in chats and documents),
 * rasterised by resvg with the machine's fonts; a machine without any draws the marks unlabelled.
 */
export async function renderPng(spec: TopLevelSpec): Promise<Buffer> {
  const svg = await renderSvg(spec);
  return new Resvg(svg, {
    background: '#ffffff',
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function priceChartSpec(candles: readonly Candle[], title: string): TopLevelSpec {
  return {
    width: WIDTH,
    height: HEIGHT,
    title,
    data: { values: candles.map((candle) => ({ ...candle, t: iso(candle.time) })) },
    encoding: { x: { field: 't', type: 'temporal', title: null } },
    layer: [
      {
        mark: { type: 'rule' },
        encoding: {
          y: { field: 'low', type: 'quantitative', title: 'price', scale: { zero: false } },
          y2: { field: 'high' },
        },
      },
      {
        mark: { type: 'bar', size: 6 },
        encoding: {
          y: { field: 'open', type: 'quantitative' },
          y2: { field: 'close' },
          color: {
            condition: { test: 'datum.open <= datum.close', value: '#2e7d32' },
            value: '#c62828',
          },
        },
      },
    ],
  };
}

export function liquidityChartSpec(points: readonly LiquidityPoint[], title: string): TopLevelSpec {
  return {
    width: WIDTH,
    height: HEIGHT,
    title,
    data: {
      values: points.map((point) => ({
        t: iso(point.time),
        reserve: point.paired_reserve,
        pool: point.pool,
      })),
    },
    mark: { type: 'line', interpolate: 'step-after', point: true },
    encoding: {
      x: { field: 't', type: 'temporal', title: null },
      y: { field: 'reserve', type: 'quantitative', title: 'paired reserve' },
      color: { field: 'pool', type: 'nominal', legend: null },
    },
  };
}

export function holdersChartSpec(points: readonly HolderPoint[], title: string): TopLevelSpec {
  return {
    width: WIDTH,
    height: HEIGHT,
    title,
    data: {
      values: points.map((point) => ({
        block: point.block,
        holders: point.holders,
        top10: point.top10_share * 100,
      })),
    },
    encoding: { x: { field: 'block', type: 'quantitative', title: 'block', scale: { zero: false } } },
    layer: [
      {
        mark: { type: 'line', interpolate: 'step-after', color: '#1565c0' },
        encoding: { y: { field: 'holders', type: 'quantitative', title: 'holders' } },
      },
      {
        mark: { type: 'line', interpolate: 'step-after', color: '#ef6c00', strokeDash: [4, 3] },
        encoding: {
          y: { field: 'top10', type: 'quantitative', title: 'top-10 share %', scale: { domain: [0, 100] } },
        },
      },
    ],
    resolve: { scale: { y: 'independent' } },
  };
}

export function distributionChartSpec(
  shares: readonly { holder: string; share: number }[],
  title: string,
): TopLevelSpec {
  return {
    width: WIDTH,
    height: HEIGHT,
    title,
    data: { values: shares.map((row) => ({ holder: row.holder, share: row.share * 100 })) },
    mark: 'bar',
    encoding: {
      x: { field: 'holder', type: 'nominal', sort: '-y', title: null, axis: { labelAngle: -40 } },
      y: { field: 'share', type: 'quantitative', title: '% of supply' },
    },
  };
}

export function scoreChartSpec(
  categories: readonly { category: string; score: number }[],
  title: string,
): TopLevelSpec {
  return {
    width: WIDTH,
    height: HEIGHT,
    title,
    data: { values: [...categories] },
    mark: 'bar',
    encoding: {
      y: { field: 'category', type: 'nominal', title: null, sort: '-x' },
      x: {
        field: 'score',
        type: 'quantitative',
        title: 'risk (0 safe, 100 worst)',
        scale: { domain: [0, 100] },
      },
      color: {
        field: 'score',
        type: 'quantitative',
        scale: { scheme: 'redyellowgreen', reverse: true },
        legend: null,
      },
    },
  };
}
