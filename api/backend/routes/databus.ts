import { z } from 'zod';
import { queryInt } from '../../plugins/query.ts';
import { asProblem } from '../../../chaindata/errors.ts';
import type { DataBus, ListQuery } from '../../../chaindata/query/databus.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import { ChainAddressParams, DataAnswer, EvmChain, sendBusAnswer } from './dataSchemas.ts';
import { chainsOf, documentedAs, servedTargets } from './targets.ts';

/** The free tier's page size cap; parquet_query (paid) pages up to 1000 rows. */
const FREE_PAGE_LIMIT = 100;

const Page = z.object({
  limit: queryInt(1, FREE_PAGE_LIMIT).default(25),
  cursor: z.string().max(200).optional(),
});

type Lister = (bus: DataBus, query: ListQuery) => ReturnType<DataBus['transfersOfToken']>;

const ROUTES: { path: string; summary: string; list: Lister }[] = [
  {
    path: '/tokens/:chain/:address/transfers',
    summary: "A token's transfers",
    list: (bus, q) => bus.transfersOfToken(q),
  },
  {
    path: '/tokens/:chain/:address/swaps',
    summary: 'Swaps in the pools that trade a token',
    list: (bus, q) => bus.swapsOfToken(q),
  },
  {
    path: '/tokens/:chain/:address/pools',
    summary: "A token's pools",
    list: (bus, q) => bus.poolsOfToken(q),
  },
  {
    path: '/tokens/:chain/:address/holders',
    summary: "A token's holders by balance (from indexed transfers)",
    list: (bus, q) => bus.holdersOfToken(q),
  },
  {
    path: '/wallets/:chain/:address/transfers',
    summary: "A wallet's transfers, in and out",
    list: (bus, q) => bus.transfersOfWallet(q),
  },
  {
    path: '/wallets/:chain/:address/swaps',
    summary: 'Swaps a wallet sent or received',
    list: (bus, q) => bus.swapsOfWallet(q),
  },
  {
    path: '/wallets/:chain/:address/deployments',
    summary: 'Contracts a wallet deployed',
    list: (bus, q) => bus.deploymentsOfWallet(q),
  },
];

const DATA_PROBLEMS = { 400: Problem, 422: Problem, 503: Problem };
const DESCRIPTION =
  'Free variant (pages of at most 100). Indexed data first; a chain the index does not cover is read live from its ' +
  'RPC where logs can answer (X-Degraded-Stores names a failed provider). Nothing found: 200 with data null, ' +
  'reason no_data and sources_tried. Paid and larger: POST /api/v1/x402-databus/parquet_query.';

/** /api/v1/databus/*: the core data routes by token and by wallet, and the providers' health. */
export function databusRoutes(app: VigilApp, bus: DataBus, chains: () => string[]): void {
  // The document names the chains this deployment reads (an RPC configured): the others answer
  // 422 chain_unavailable.
  const documentedParams = servedTargets(ChainAddressParams, chainsOf(chains()));
  for (const route of ROUTES) {
    app.get(
      `/api/v1/databus${route.path}`,
      {
        schema: {
          tags: ['databus'],
          summary: route.summary,
          description: DESCRIPTION,
          params: ChainAddressParams,
          querystring: Page,
          response: { 200: DataAnswer, ...DATA_PROBLEMS },
        },
        config: documentedAs('params', documentedParams),
      },
      async (request, reply) => {
        const { chain, address } = request.params;
        const answer = await asProblem(() =>
          route.list(bus, {
            chain,
            address: address.toLowerCase(),
            limit: request.query.limit,
            cursor: request.query.cursor,
          }),
        );
        return sendBusAnswer(reply, answer);
      },
    );
  }

  app.get(
    '/api/v1/databus/deployments',
    {
      schema: {
        tags: ['databus'],
        summary: 'Contracts deployed on a chain, oldest first',
        description: DESCRIPTION,
        querystring: Page.extend({ chain: EvmChain }),
        response: { 200: DataAnswer, ...DATA_PROBLEMS },
      },
    },
    async (request, reply) => {
      const { chain, limit, cursor } = request.query;
      return sendBusAnswer(reply, await asProblem(() => bus.deploymentsOnChain({ chain, limit, cursor })));
    },
  );

  app.get(
    '/api/v1/databus/health',
    {
      schema: {
        tags: ['databus'],
        summary: 'Data-provider health: the index (chains and last blocks) and each RPC',
      },
    },
    async (_request, reply) => {
      const health = await bus.health(chains());
      const degraded = [
        ...(health.index.status === 'down' ? ['index'] : []),
        ...health.rpc.flatMap((entry) => entry.degraded),
      ];
      if (degraded.length > 0) reply.header('x-degraded-stores', degraded.join(','));
      return { status: degraded.length === 0 ? 'ok' : 'degraded', ...health };
    },
  );
}
