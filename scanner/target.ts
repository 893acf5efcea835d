import { PublicKey } from '@solana/web3.js';
import { getAddress, isAddress } from 'viem';
import type { ChainClients } from '../clients/chains/chainClients.ts';
import { Capability, type ChainInfo, ChainKind, findChain, hasCapability } from '../core/chains/registry.ts';
import { VigilError } from '../core/errors/vigilError.ts';
import { Reason } from '../core/errors/reasons.ts';

export interface ScanRequestTarget {
  chain: string;
  address: string;
}

export interface CheckedRequest {
  chain: ChainInfo;
  /** The address in its canonical form (EIP-55 checksum on EVM, base58 on Solana). */
  address: string;
}

/** Solana's SPL Token and Token-2022 programs: a mint is an account one of them owns. */
const TOKEN_PROGRAMS = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
] as const;

/**
 * Checks what can be checked without the chain: the chain is known, token scans apply to it,
 * it is configured here, and the address is well formed for it. Throws a problem otherwise.
 */
export function checkScanRequest(
  chains: ChainClients,
  request: ScanRequestTarget,
  capability: Capability = Capability.tokenScan,
): CheckedRequest {
  const chain = findChain(request.chain);
  if (!chain) throw new VigilError(Reason.validationFailed, `Unknown chain "${request.chain}".`);
  if (!hasCapability(chain, capability)) {
    throw new VigilError(
      Reason.capabilityNotSupported,
      `${capability === Capability.tokenScan ? 'Token risk scans do' : 'This tool does'} not apply to ${chain.name}.`,
      { extensions: { chain: chain.id, capability } },
    );
  }
  const invalid = () =>
    new VigilError(
      Reason.invalidAddress,
      `"${request.address.slice(0, 64)}" is not a valid ${chain.name} address.`,
      {
        extensions: { field: 'address' },
      },
    );
  if (chain.kind === ChainKind.solana) {
    let key: PublicKey;
    try {
      key = new PublicKey(request.address);
    } catch {
      throw invalid();
    }
    chains.solana(chain.id);
    return { chain, address: key.toBase58() };
  }
  if (!isAddress(request.address, { strict: false })) throw invalid();
  chains.evm(chain.id);
  return { chain, address: getAddress(request.address) };
}

/** Reads the token at a block (a slot on Solana); a problem when there is no token there. */
export async function assertScannable(
  chains: ChainClients,
  target: CheckedRequest,
  block?: bigint,
): Promise<void> {
  if (target.chain.kind === ChainKind.solana) {
    const connection = chains.solana(target.chain.id);
    const account = await connection.getAccountInfo(
      new PublicKey(target.address),
      block === undefined ? {} : { minContextSlot: Number(block) },
    );
    if (!account || !(TOKEN_PROGRAMS as readonly string[]).includes(account.owner.toBase58())) {
      throw new VigilError(
        Reason.addressNotContract,
        `${target.address} is not a token mint on ${target.chain.name}.`,
        {
          extensions: { chain: target.chain.id, address: target.address },
        },
      );
    }
    return;
  }
  const client = chains.evm(target.chain.id);
  const code = await client.getCode(
    block === undefined
      ? { address: target.address as `0x${string}` }
      : { address: target.address as `0x${string}`, blockNumber: block },
  );
  if (!code || code === '0x') {
    throw new VigilError(
      Reason.addressNotContract,
      `${target.address} holds no contract code on ${target.chain.name}.`,
      {
        extensions: { chain: target.chain.id, address: target.address },
      },
    );
  }
}
