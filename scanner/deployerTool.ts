import { getAddress } from 'viem';
import type { ChainClients } from '../clients/chains/chainClients.ts';
import { describeRpcError, isRpcUnreachable } from '../clients/chains/rpcErrors.ts';
import { Capability, ChainKind, type ChainId, getChain } from '../core/chains/registry.ts';
import { VigilError } from '../core/errors/vigilError.ts';
import { checkScanRequest } from './target.ts';
import type { ScanConfig } from './config.ts';
import type { Check } from './core/schema.ts';
import { type DeployerCache, reputationChecks } from './engines/deployer.ts';
import { type DeployerReputation, deployerReputation } from './evm/deployerReputation.ts';
import { Reason } from '../core/errors/reasons.ts';

export interface DeployerToolDeps {
  chains: ChainClients;
  config: ScanConfig;
  cache: DeployerCache;
}

export interface DeployerToolResult {
  reputation: DeployerReputation;
  /** The deployer-reputation checks a token scan would show, for any of this wallet's tokens. */
  checks: Check[];
  /** Providers skipped while reading. */
  degraded: string[];
}

/**
 * Deployer reputation as a tool of its own: 100 for a clean record, 0 for a serial rugger, with
 * the evidence. Read at the chain's latest block; the REST route and tool catalogs call this.
 */
export async function getDeployerReputation(
  deps: DeployerToolDeps,
  request: { chain: string; address: string },
): Promise<DeployerToolResult> {
  const checked = checkScanRequest(deps.chains, request, Capability.walletAnalysis);
  if (checked.chain.kind !== ChainKind.evm) {
    throw new VigilError(
      Reason.capabilityNotSupported,
      `Deployer reputation is read on EVM chains, not on ${checked.chain.name}.`,
      {
        extensions: { chain: checked.chain.id, capability: 'deployer_reputation' },
      },
    );
  }
  const chain = getChain(checked.chain.id as ChainId);
  const client = deps.chains.evm(chain.id);
  const deployer = getAddress(checked.address);
  try {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
    const reputation = await deps.cache.get(`${chain.id}:${deployer}`, () =>
      deployerReputation(client, { chain, deployer, blockNumber, limits: deps.config.limits }),
    );
    return { reputation, checks: reputationChecks(reputation), degraded: deps.chains.degraded(chain.id) };
  } catch (error) {
    if (!isRpcUnreachable(error)) throw error;
    const degraded = deps.chains.degraded(chain.id);
    throw new VigilError(
      Reason.chainUnreachable,
      `The chain's RPC did not answer: ${describeRpcError(error, deps.chains.rpcUrls(chain.id))}`,
      {
        headers: {
          'retry-after': '5',
          ...(degraded.length ? { 'x-degraded-stores': degraded.join(',') } : {}),
        },
        extensions: { chain: chain.id, degraded },
        cause: error,
      },
    );
  }
}
