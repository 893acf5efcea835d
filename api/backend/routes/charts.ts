import { z } from 'zod';
import { queryInt } from '../../plugins/query.ts';
import type { Analytics } from '../../../chaindata/analytics/sandbox.ts';
import { asProblem } from '../../../chaindata/errors.ts';
import { readTokenHistory } from '../../../charts/history.ts';
import { Interval, ohlcv, topHolders } from '../../../charts/core/series.ts';
import { threatSignals } from '../../../charts/core/signals.ts';
import { indicators } from '../../../charts/indicators.ts';
import {
  distributionChartSpec,
  holdersChartSpec,
  liquidityChartSpec,
  priceChartSpec,
  renderPng,
  renderSvg,
} from '../../../charts/svg.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import { ChainAddressParams, DataAnswer } from './dataSchemas.ts';

const PROBLEMS = { 400: Problem, 422: Problem, 503: Problem };
const IntervalQuery = z.object({
  interval: z.enum(Object.values(Interval) as [Interval, ...Interval[]]).default(Interval.h1),
  decimals: queryInt(0, 36).default(18).describe("The token's decimals (default 18)"),
});
const ChartKind = {
  price: 'price',
  liquidity: 'liquidity',
  holders: 'holders',
  distribution: 'distribution',
} as const;
type ChartKind = (typeof ChartKind)[keyof typeof ChartKind];

const ChartQuery = IntervalQuery.extend({
  kind: z.enum(Object.values(ChartKind) as [ChartKind, ...ChartKind[]]).default(ChartKind.price),
});

const empty = () => ({ data: null, reason: 'no_data' as const, sources_tried: ['index'] });

/**
 * Charts over the chain index (`/api/v1/svccharts/*`): OHLCV candles from indexed swaps,
 * indicators, threat signals, and SVG renderings. A token without swaps answers the empty-data
 * result.
 */
export function chartRoutes(app: VigilApp, engine: () => Promise<Analytics>): void {
  const history = async (chain: string, address: string, decimals: number) =>
    asProblem(async () => readTokenHistory(await engine(), chain, address, decimals));

  app.get(
    '/api/v1/svccharts/:chain/:address/ohlcv',
    {
      schema: {
        tags: ['charts'],
        summary: "OHLCV candles of a token's indexed swaps, priced in the paired token",
        params: ChainAddressParams,
        querystring: IntervalQuery,
        response: { 200: DataAnswer, ...PROBLEMS },
      },
    },
    async (request) => {
      const { chain, address } = request.params;
      const past = await history(chain, address, request.query.decimals);
      const candles = ohlcv(past.trades, request.query.interval);
      return candles.length === 0
        ? empty()
        : { data: { chain, address, interval: request.query.interval, candles }, sources: ['index'] };
    },
  );

  app.get(
    '/api/v1/svccharts/:chain/:address/indicators',
    {
      schema: {
        tags: ['charts'],
        summary: 'SMA, EMA, RSI, MACD and Bollinger bands over the candles',
        params: ChainAddressParams,
        querystring: IntervalQuery,
        response: { 200: DataAnswer, ...PROBLEMS },
      },
    },
    async (request) => {
      const { chain, address } = request.params;
      const past = await history(chain, address, request.query.decimals);
      const candles = ohlcv(past.trades, request.query.interval);
      if (candles.length === 0) return empty();
      return {
        data: { chain, address, interval: request.query.interval, indicators: indicators(candles) },
        sources: ['index'],
      };
    },
  );

  app.get(
    '/api/v1/svccharts/:chain/:address/signals',
    {
      schema: {
        tags: ['charts'],
        summary:
          'Threat signals: liquidity pulled, holder concentration jumps, deployer sells, volume spikes',
        params: ChainAddressParams,
        querystring: IntervalQuery.extend({
          deployer: z
            .string()
            .regex(/^0x[0-9a-fA-F]{40}$/)
            .optional()
            .describe('The deployer, for its sells'),
        }),
        response: { 200: DataAnswer, ...PROBLEMS },
      },
    },
    async (request) => {
      const { chain, address } = request.params;
      const past = await history(chain, address, request.query.decimals);
      if (past.trades.length === 0 && past.liquidity.length === 0) return empty();
      const signals = threatSignals({
        trades: past.trades,
        liquidity: past.liquidity,
        holders: past.holders,
        candles: ohlcv(past.trades, request.query.interval),
        deployer: request.query.deployer ?? null,
      });
      return { data: { chain, address, signals }, sources: ['index'] };
    },
  );

  const chartSchema = (format: string) => ({
    tags: ['charts'],
    summary: `A chart as ${format}: price (candles), liquidity, holders over time, or holder distribution`,
    params: ChainAddressParams,
    querystring: ChartQuery,
    response: { 200: z.any(), 404: Problem, ...PROBLEMS },
  });
  /** The chart's Vega-Lite spec, or null when the token has no data for it. */
  const chartSpec = async (params: { chain: string; address: string }, query: z.infer<typeof ChartQuery>) => {
    const past = await history(params.chain, params.address, query.decimals);
    const specs = {
      price: () => {
        const candles = ohlcv(past.trades, query.interval);
        return candles.length ? priceChartSpec(candles, 'Price') : null;
      },
      liquidity: () => (past.liquidity.length ? liquidityChartSpec(past.liquidity, 'Paired reserve') : null),
      holders: () => (past.holders.length ? holdersChartSpec(past.holders, 'Holders') : null),
      distribution: () => {
        const shares = topHolders(past.transferRows ?? []);
        return shares.length ? distributionChartSpec(shares, 'Largest holders') : null;
      },
    } satisfies Record<ChartKind, () => unknown>;
    return specs[query.kind]();
  };

  app.get(
    '/api/v1/svccharts/:chain/:address/chart.svg',
    { schema: chartSchema('SVG') },
    async (request, reply) => {
      const spec = await chartSpec(request.params, request.query);
      if (!spec) return reply.code(200).send(empty());
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(await renderSvg(spec));
    },
  );

  app.get(
    '/api/v1/svccharts/:chain/:address/chart.png',
    { schema: chartSchema('PNG') },
    async (request, reply) => {
      const spec = await chartSpec(request.params, request.query);
      if (!spec) return reply.code(200).send(empty());
      return reply.header('content-type', 'image/png').send(await renderPng(spec));
    },
  );
}
