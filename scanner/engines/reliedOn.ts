import { type Address, getAddress, type Hex, type PublicClient } from 'viem';
import { analyzeBytecode } from '../evm/analyzeBytecode.ts';
import {
  type PrivilegeCandidate,
  readStorageWords,
  storageAccounts,
  writtenAddress,
} from '../evm/privilegeCandidates.ts';
import { bytecodeFingerprint } from '../fingerprint/bytecodeFingerprint.ts';

/**
 * Addresses looked at for code, at most: the transfer's callees first, then those kept in storage,
 * written into the code (immutables) or passed to the constructor.
 */
const MAX_LOOKED_AT = 8;
/** Contracts the token relies on whose functions are probed, at most. */
const MAX_RELIED_ON = 2;
/** Functions of each such contract probed, at most (its dispatcher's first). */
const MAX_SELECTORS = 16;

export interface ReliedOn {
  /** The contracts and the functions of theirs to call (discoverPowers' `elsewhere`). */
  contracts: { target: Address; selectors: Hex[] }[];
  /** The accounts they keep (their admin, their reporter): candidates like the token's own. */
  accounts: PrivilegeCandidate[];
}

/**
 * Contracts a token relies on, other than its pool, router and the wrapped native token: those an
 * ordinary holder's transfer calls (a transfer policy, a fee module) and those whose address the
 * token keeps (in storage, as an immutable, from its constructor: a price feed, a registry, a
 * migration contract). A power can live there
 * (a policy's admin blocks sends, a feed's reporter sizes a rebase, a registry's publisher pays
 * itself), out of reach of any call to the token itself.
 */
export async function readReliedOn(
  client: PublicClient,
  {
    callees,
    stored,
    exclude,
    blockNumber,
  }: {
    callees: readonly Address[];
    /** Accounts the token keeps: in storage, in its code, in its constructor's arguments. */
    stored: readonly PrivilegeCandidate[];
    exclude: readonly (Address | undefined)[];
    blockNumber: bigint;
  },
): Promise<ReliedOn> {
  const skip = new Set(exclude.flatMap((address) => (address ? [address.toLowerCase()] : [])));
  const looked = [
    ...new Set(
      [...callees, ...stored.map((candidate) => candidate.address)].map((address) =>
        getAddress(address.toLowerCase()),
      ),
    ),
  ]
    .filter((address) => !skip.has(address.toLowerCase()))
    .slice(0, MAX_LOOKED_AT);
  if (looked.length === 0) return { contracts: [], accounts: [] };
  const codes = await Promise.all(
    looked.map((address) => client.getCode({ address, blockNumber }).catch(() => undefined)),
  );
  const withCode = looked
    .map((address, index) => ({ address, code: codes[index] }))
    .filter((entry): entry is { address: Address; code: Hex } => Boolean(entry.code && entry.code.length > 2))
    .slice(0, MAX_RELIED_ON);
  const contracts = withCode.flatMap(({ address, code }) => {
    const selectors = (bytecodeFingerprint(code)?.selectors ?? []).slice(0, MAX_SELECTORS) as Hex[];
    return selectors.length > 0 ? [{ target: address, selectors }] : [];
  });
  const kept = await Promise.all(
    withCode.map(({ address }) =>
      readStorageWords(client, { token: address, blockNumber }).then(
        (words) => storageAccounts(words, [...looked, ...exclude]),
        () => [],
      ),
    ),
  );
  const accounts = withCode.flatMap(({ address, code }, index) => [
    ...(kept[index] ?? []).map((candidate) => ({
      ...candidate,
      source: `${candidate.source} of ${address}`,
    })),
    ...[...analyzeBytecode(code).addresses].flatMap((value) =>
      writtenAddress(value)
        ? [{ address: getAddress(value), source: `address in the code of ${address}` }]
        : [],
    ),
  ]);
  return { contracts, accounts };
}
