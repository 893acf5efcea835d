import { z } from 'zod';
import { CHAINS, ChainKind } from '../../../core/chains/registry.ts';
import type { BusAnswer } from '../../../chaindata/query/databus.ts';
import { EvmAddress } from './targets.ts';

/** Chains the index and the data bus read: the registry's EVM chains. */
export const EvmChain = z.enum(
  CHAINS.filter((chain) => chain.kind === ChainKind.evm).map((chain) => chain.id) as [string, ...string[]],
);
export const ChainAddressParams = z.object({ chain: EvmChain, address: EvmAddress });

/** The empty-data result of the API specification (answered 200; a caller checks `reason`). */
export const EmptyData = z
  .object({ data: z.null(), reason: z.literal('no_data'), sources_tried: z.array(z.string()) })
  .meta({ id: 'EmptyDataResult' });

export const DataAnswer = z
  .looseObject({
    data: z.unknown(),
    sources: z.array(z.string()).optional().describe('the providers that answered (index, rpc:<chain>)'),
    reason: z.literal('no_data').optional(),
    sources_tried: z.array(z.string()).optional(),
  })
  .meta({ id: 'DataAnswer' });

/** A data bus answer as a reply: the data or the empty-data result, degraded providers in X-Degraded-Stores. */
export function sendBusAnswer(
  reply: { header(name: string, value: string): unknown },
  answer: BusAnswer,
): { data: unknown; sources: string[] } | z.infer<typeof EmptyData> {
  if (answer.degraded.length > 0) reply.header('x-degraded-stores', [...new Set(answer.degraded)].join(','));
  return answer.kind === 'data'
    ? { data: answer.data, sources: answer.sources }
    : { data: null, reason: 'no_data', sources_tried: answer.sourcesTried };
}
