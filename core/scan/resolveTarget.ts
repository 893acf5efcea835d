import { getAddress, isAddress, type Hex, type PublicClient } from 'viem';
import type { ChainClients } from '../chains/chainClients.ts';
import { Capability, type ChainInfo, findChain, hasCapability } from '../chains/registry.ts';
import { VigilError } from '../errors/vigilError.ts';

export interface ScanRequestTarget {
  chain: string;
  address: string;
}

export interface CheckedRequest {
  chain: ChainInfo;
  /** The address in its canonical (EIP-55 checksum) form. */
  address: `0x${string}`;
  client: PublicClient;
}

/**
 * Checks what can be checked without the chain: the chain is known, token scans apply to it,
 * it is configured here, and the address is well formed. Throws a VigilError problem otherwise.
 */
export function checkScanRequest(chains: ChainClients, request: ScanRequestTarget): CheckedRequest {
  const chain = findChain(request.chain);
  if (!chain) throw new VigilError('validation_failed', `Unknown chain "${request.chain}".`);
  if (!hasCapability(chain, Capability.tokenScan)) {
    throw new VigilError('capability_not_supported', `Token risk scans do not apply to ${chain.name}.`, {
      extensions: { chain: chain.id, capability: Capability.tokenScan },
    });
  }
  if (!isAddress(request.address, { strict: false })) {
    throw new VigilError(
      'invalid_address',
      `"${request.address.slice(0, 64)}" is not a valid ${chain.name} address.`,
      {
        extensions: { field: 'address' },
      },
    );
  }
  return { chain, address: getAddress(request.address), client: chains.evm(chain.id) };
}

/** Reads the code at the address at a block; a problem when there is none. */
export async function assertContract(target: CheckedRequest, blockNumber?: bigint): Promise<Hex> {
  const code = await target.client.getCode(
    blockNumber === undefined ? { address: target.address } : { address: target.address, blockNumber },
  );
  if (!code || code === '0x') {
    throw new VigilError(
      'address_not_contract',
      `${target.address} holds no contract code on ${target.chain.name}.`,
      {
        extensions: { chain: target.chain.id, address: target.address },
      },
    );
  }
  return code;
}
