import { ApplicationFailure, Context } from '@temporalio/activity';
import { ChainIndexer, type RangeSummary, UnsupportedChainError } from '../../chaindata/indexer.ts';
import type { ChainClients } from '../../clients/chains/chainClients.ts';
import { isVigilError } from '../../core/errors/vigilError.ts';
import type { IndexStore } from '../../chaindata/storage/indexStore.ts';

export interface ChaindataActivityDeps {
  chains: ChainClients;
  store: IndexStore;
}

export interface ChainInput {
  chain: string;
}

export interface RangeInput extends ChainInput {
  from: number;
  to: number;
}

/**
 * The indexer's activities: thin adapters over chaindata's ChainIndexer. A chain that is not an
 * EVM chain, or has no RPC configured, fails for good; an RPC hiccup is retried by Temporal.
 */
export function createChaindataActivities({ chains, store }: ChaindataActivityDeps) {
  const indexer = new ChainIndexer({ store, clientOf: (chain) => chains.evm(chain) });
  const permanent = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof UnsupportedChainError || error instanceof RangeError)
        throw ApplicationFailure.nonRetryable(error.message, error.name);
      if (isVigilError(error) && ['capability_not_supported', 'chain_unavailable'].includes(error.code))
        throw ApplicationFailure.nonRetryable(error.message, error.code);
      throw error;
    }
  };
  return {
    async indexRange(input: RangeInput): Promise<RangeSummary> {
      Context.current().heartbeat(input);
      return permanent(() => indexer.indexRange(input.chain, input.from, input.to));
    },
    async chainHead(input: ChainInput): Promise<number> {
      return permanent(() => indexer.head(input.chain));
    },
    async lastIndexed(input: ChainInput): Promise<number | null> {
      return (await indexer.lastIndexed(input.chain)) ?? null;
    },
    async findFork(input: ChainInput & { depth: number }): Promise<number | null> {
      return (await permanent(() => indexer.findFork(input.chain, input.depth))) ?? null;
    },
    async rewind(input: ChainInput & { block: number }): Promise<number> {
      return indexer.rewind(input.chain, input.block);
    },
  };
}

export type ChaindataActivities = ReturnType<typeof createChaindataActivities>;
