import { z } from 'zod';
import {
  EVM_ADDRESS_PATTERN,
  SOLANA_ADDRESS_FORMAT,
  SOLANA_ADDRESS_PATTERN,
} from '../../../core/chains/addressPatterns.ts';
import {
  Capability,
  ChainKind,
  findChain,
  hasCapability,
  type ChainInfo,
} from '../../../core/chains/registry.ts';

export const EvmAddress = z.string().regex(EVM_ADDRESS_PATTERN, 'a 0x-prefixed 20-byte address');
const SolanaAddress = z
  .string()
  .regex(SOLANA_ADDRESS_PATTERN, 'a base58 public key')
  .meta({ format: SOLANA_ADDRESS_FORMAT, description: 'A base58 public key (32 bytes)' });

const ADDRESS_OF: Partial<Record<ChainKind, z.ZodString>> = {
  [ChainKind.evm]: EvmAddress,
  [ChainKind.solana]: SolanaAddress,
};

/** The registry's entries of a deployment's configured chain ids. */
export function chainsOf(ids: readonly string[]): ChainInfo[] {
  return ids.flatMap((id) => findChain(id) ?? []);
}

/** Chains a token scan applies to. */
export const isScannable = (chain: ChainInfo): boolean => hasCapability(chain, Capability.tokenScan);

/** EVM chains. */
export const isEvm = (chain: ChainInfo): boolean => chain.kind === ChainKind.evm;

/** Any of the schemas given (none: undefined). */
export function anyOf(schemas: readonly (z.ZodType | undefined)[]): z.ZodType | undefined {
  const [first, second, ...rest] = schemas.filter((schema) => schema !== undefined);
  if (!first) return undefined;
  return second ? z.union([first, second, ...rest]) : first;
}

/** The route config that documents `schema` in place of the validator's, when there is one. */
export function documentedAs(part: 'params' | 'body', schema: z.ZodType | undefined) {
  return schema ? { documented: { [part]: schema } } : {};
}

/**
 * The `{chain, address}` inputs a deployment serves, as its document states them: for each chain
 * family among `served`, `base` with `chain` one of that family's served chains and `address` in
 * its format (a union when there are several). The validator stays the broad schema, so an
 * unserved chain or a malformed address is answered with a problem that says which
 * (`chain_unavailable`, `capability_not_supported`, `invalid_address`) instead of a bare 422.
 * Undefined when nothing is served: the validator's schema is documented as it is.
 */
export function servedTargets<T extends z.ZodObject>(
  base: T,
  served: readonly ChainInfo[],
): z.ZodType | undefined {
  const branches = Object.entries(ADDRESS_OF).flatMap(([kind, address]) => {
    const ids = served.filter((chain) => chain.kind === kind).map((chain) => chain.id);
    if (ids.length === 0) return [];
    const chain = z.enum(ids as [string, ...string[]]).describe('A chain this deployment serves');
    const field = base.shape['address'] as z.ZodType | undefined;
    const described = address.describe(field?.description ?? 'The address');
    return [base.extend({ chain, address: described })];
  });
  return anyOf(branches);
}
