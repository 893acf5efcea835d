import {
  type Address,
  getAddress,
  type Hash,
  type Hex,
  isAddress,
  isHex,
  numberToHex,
  parseAbi,
  type PublicClient,
  toFunctionSelector,
  zeroAddress,
} from 'viem';
import type { Creation } from '../core/schema.ts';
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

/** Calls anyone may make about their own tokens: their senders and arguments prove nothing. */
const ORDINARY_SELECTORS = new Set<Hex>(
  [
    'transfer(address,uint256)',
    'transferFrom(address,address,uint256)',
    'approve(address,uint256)',
    'increaseAllowance(address,uint256)',
    'decreaseAllowance(address,uint256)',
    'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
  ].map((signature) => toFunctionSelector(signature)),
);
/** Calls into the token read from the provider's trace index: the earliest, where setup happens. */
const MAX_TRACES = 200;
/** Constructor arguments are the creation input's last words; this many are read. */
const CONSTRUCTOR_WORDS = 12;

interface TraceEntry {
  action?: { from?: string; input?: string; callType?: string };
  type?: string;
}

/**
 * Addresses in ABI-encoded words (after the selector): a word that is an address has its upper
 * twelve bytes zero and twenty that look random. Stricter than a storage slot's packing, since
 * the words of init code or strings that precede constructor arguments are read too.
 */
function addressesInWords(input: Hex, from: number): Address[] {
  const found: Address[] = [];
  for (let at = from; at + 64 <= input.length; at += 64) {
    const word = input.slice(at, at + 64);
    if (!/^0{24}/.test(word) || BigInt(`0x${word}`) < MIN_ADDRESS || !looksRandom(word.slice(24))) continue;
    found.push(getAddress(`0x${word.slice(24)}`));
  }
  return found;
}

/**
 * Accounts a token was told about after it was made, and those who told it: the creation
 * transaction's constructor arguments (a distributor named there and kept only in a mapping), and
 * the senders and address arguments of calls into the token other than ordinary transfers and
 * approvals (a call that names a keeper and emits nothing). Calls come from `trace_filter`, which
 * archive providers serve (Erigon, Reth, Nethermind, anvil); without it only the constructor's
 * arguments are read.
 */
export async function readCallerAccounts(
  client: PublicClient,
  {
    token,
    creation,
    blockNumber,
  }: { token: Address; creation: Creation | null | undefined; blockNumber: bigint },
): Promise<PrivilegeCandidate[]> {
  // Without the creation (a provider that keeps no old state) the calls are still read, from the
  // chain's start: trace indexes answer an address filter without walking every block.
  const [constructorArguments, calls] = await Promise.all([
    (creation
      ? client.getTransaction({ hash: creation.tx as Hash })
      : Promise.reject(new Error('no creation'))
    )
      .then((tx) => {
        const words = Math.floor((tx.input.length - 2) / 64);
        const start = tx.input.length - Math.min(words, CONSTRUCTOR_WORDS) * 64;
        return addressesInWords(tx.input, start).map((address) => ({
          address,
          source: creation?.via === 'create_tx' ? 'constructor argument' : 'argument of the creating call',
        }));
      })
      .catch(() => [] as PrivilegeCandidate[]),
    tracedCalls(client, { token, fromBlock: creation ? BigInt(creation.block) : 0n, toBlock: blockNumber }),
  ]);
  return [...constructorArguments, ...calls];
}

async function tracedCalls(
  client: PublicClient,
  { token, fromBlock, toBlock }: { token: Address; fromBlock: bigint; toBlock: bigint },
): Promise<PrivilegeCandidate[]> {
  const request = client.request as unknown as (
    args: { method: string; params: unknown[] },
    options: { retryCount: number; retryDelay: number },
  ) => Promise<unknown>;
  // Retried: a node busy with the scan's own simulations can be slow to answer, and a lost answer
  // loses every caller it would have named. A provider without trace_filter answers nothing.
  const traces = await request(
    {
      method: 'trace_filter',
      params: [
        {
          fromBlock: numberToHex(fromBlock),
          toBlock: numberToHex(toBlock),
          toAddress: [token],
          count: MAX_TRACES,
        },
      ],
    },
    { retryCount: 2, retryDelay: 250 },
  ).catch(() => []);
  if (!Array.isArray(traces)) return [];
  const found: PrivilegeCandidate[] = [];
  for (const trace of traces as TraceEntry[]) {
    const { from, input } = trace.action ?? {};
    // Calls that could change state only: reads (static calls) say nothing about who holds powers.
    if (
      trace.type !== 'call' ||
      trace.action?.callType !== 'call' ||
      !from ||
      !isHex(input) ||
      input.length < 10
    )
      continue;
    const selector = input.slice(0, 10) as Hex;
    if (ORDINARY_SELECTORS.has(selector)) continue;
    if (isAddress(from)) found.push({ address: getAddress(from), source: `sent ${selector} to the token` });
    for (const address of addressesInWords(input, 10))
      found.push({ address, source: `named in a ${selector} call to the token` });
  }
  return found;
}
