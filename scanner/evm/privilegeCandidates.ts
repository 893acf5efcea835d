import { type Address, getAddress, type Hex, parseAbi, type PublicClient, zeroAddress } from 'viem';
import { tryRead } from './tryRead.ts';

/** Getters tokens use for accounts with powers of their own (USDC-style roles, "dev" wallets). */
const ROLE_GETTERS = ['pauser', 'blacklister', 'masterMinter', 'minter', 'admin', 'dev', 'operator'] as const;
const roleAbi = parseAbi([
  'function pauser() view returns (address)',
  'function blacklister() view returns (address)',
  'function masterMinter() view returns (address)',
  'function minter() view returns (address)',
  'function admin() view returns (address)',
  'function dev() view returns (address)',
  'function operator() view returns (address)',
]);
/** Storage slots read for addresses: where simple contracts keep their state variables. */
const SLOTS = 16;
// A value below this is a counter, a flag or an amount far more often than an address: random
// 160-bit addresses fall below it with probability 2^-20.
const MIN_ADDRESS = 2n ** 140n;

export interface PrivilegeCandidate {
  address: Address;
  /** Where it was found: `deployer`, `slot 3`, `pauser()`... */
  source: string;
}

/**
 * Accounts that might hold a token's privileges besides owner(): role getters, and addresses kept
 * in the first storage slots (a "renounced" token whose modifier checks another variable keeps
 * its real owner there). The probe then tries each, so a wrong guess costs one call and nothing
 * else.
 */
export async function readRoleAccounts(
  client: PublicClient,
  { token, blockNumber }: { token: Address; blockNumber: bigint },
): Promise<PrivilegeCandidate[]> {
  const found = await Promise.all(
    ROLE_GETTERS.map(async (functionName) => {
      const value = await tryRead(() =>
        client.readContract({ address: token, abi: roleAbi, functionName, blockNumber }),
      );
      return value && value !== zeroAddress
        ? { address: getAddress(value), source: `${functionName}()` }
        : undefined;
    }),
  );
  return found.filter((entry): entry is PrivilegeCandidate => entry !== undefined);
}

export async function readStorageAccounts(
  client: PublicClient,
  { token, blockNumber }: { token: Address; blockNumber: bigint },
): Promise<PrivilegeCandidate[]> {
  const values = await Promise.all(
    Array.from({ length: SLOTS }, (_, slot) =>
      client.getStorageAt({ address: token, slot: `0x${slot.toString(16)}`, blockNumber }),
    ),
  );
  return values.flatMap((value, slot) =>
    addressesIn(value).map((address) => ({ address, source: `slot ${slot}` })),
  );
}

const ADDRESS_MASK = (1n << 160n) - 1n;

/**
 * Addresses in a slot: at any byte offset, since solc packs an address after smaller variables
 * (`bool paused; address keeper;` share one slot, the address 8 bits up), as long as what lies
 * beside it looks like packed flags or small counters rather than more random bits.
 */
/**
 * An address is 20 random bytes: a window holding several zero bytes, or only printable ASCII
 * (a short string stored in place, its bytes left-aligned), is something else.
 */
function looksRandom(hex: string): boolean {
  const bytes = hex.match(/../g) ?? [];
  const zeros = bytes.filter((byte) => byte === '00').length;
  const text = bytes.every((byte) => byte === '00' || (byte >= '20' && byte <= '7e'));
  return zeros <= 3 && !text;
}

export function addressesIn(value: Hex | undefined): Address[] {
  if (!value || value === '0x') return [];
  const word = BigInt(value);
  // Two addresses never fit one slot: of the windows that could hold one, the one whose
  // neighbours are smallest (zero, or a flag) is the address; the others are slices of it.
  let best: { hex: string; rest: bigint } | undefined;
  for (let shift = 0n; shift <= 96n; shift += 8n) {
    const candidate = (word >> shift) & ADDRESS_MASK;
    const above = word >> (shift + 160n);
    const below = word & ((1n << shift) - 1n);
    if (candidate < MIN_ADDRESS || above > 0xffffn || below > 0xffffn) continue;
    const hex = candidate.toString(16).padStart(40, '0');
    if (!looksRandom(hex)) continue;
    const rest = above > below ? above : below;
    if (!best || rest < best.rest) best = { hex, rest };
  }
  return best ? [getAddress(`0x${best.hex}`)] : [];
}

/** Distinct candidates, first source kept, minus addresses that are certainly not privileged. */
export function distinctCandidates(
  candidates: readonly PrivilegeCandidate[],
  exclude: readonly (Address | null | undefined)[],
): PrivilegeCandidate[] {
  const skip = new Set(
    exclude.filter((value): value is Address => Boolean(value)).map((value) => getAddress(value)),
  );
  const seen = new Set<Address>();
  return candidates.filter((candidate) => {
    if (skip.has(candidate.address) || seen.has(candidate.address)) return false;
    seen.add(candidate.address);
    return true;
  });
}
