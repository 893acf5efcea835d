import {
  type Address,
  BaseError,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  isAddress,
  isHex,
  numberToHex,
  parseAbi,
  parseEventLogs,
  type PublicClient,
  toFunctionSelector,
  zeroAddress,
} from 'viem';
import type { Creation } from '../core/schema.ts';
import { creationCodeAddresses } from './analyzeBytecode.ts';
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
// type(uint160).max: the mask compilers push to clean addresses.
const ADDRESS_MASK_VALUE = 2n ** 160n - 1n;

export interface PrivilegeCandidate {
  address: Address;
  /** Where it was found: `deployer`, `slot 3`, `pauser()`... */
  source: string;
  /**
   * The wallet whose transaction the calls run in (tx.origin), when it is not the caller: a
   * contract that reads tx.origin may exempt its insider's own transactions from a limit, or take
   * calls only from its helper contract inside someone else's transaction.
   */
  origin?: Address;
  /**
   * The token trusts this account as its ERC-2771 forwarder, which has code: every call it makes
   * carries an ordinary wallet's address last, as a forwarder appends the signer of the request it
   * relays (the token reads the sender there); without it the token would read any word as one.
   */
  forwarder?: true;
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

/** The words of the first storage slots, where simple contracts keep their state variables. */
export async function readStorageWords(
  client: PublicClient,
  { token, blockNumber }: { token: Address; blockNumber: bigint },
): Promise<(Hex | undefined)[]> {
  return Promise.all(
    Array.from({ length: SLOTS }, (_, slot) =>
      client.getStorageAt({ address: token, slot: `0x${slot.toString(16)}`, blockNumber }),
    ),
  );
}

/**
 * The accounts those words hold, one per word at most. `known` are accounts read elsewhere (the
 * owner, the pair, the DEX, the creation's): a word that holds one of them holds it, not a slice.
 */
export function storageAccounts(
  words: readonly (Hex | undefined)[],
  known: readonly (Address | null | undefined)[],
): PrivilegeCandidate[] {
  const knownSet = new Set(
    known.filter((value): value is Address => Boolean(value)).map((value) => getAddress(value)),
  );
  return words.flatMap((value, slot) =>
    addressesIn(value, knownSet).map((address) => ({ address, source: `slot ${slot}` })),
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
/** A PUSH20 operand that is an account: not a small constant, not the address mask, random bytes. */
export function writtenAddress(value: Hex): boolean {
  return (
    BigInt(value) >= MIN_ADDRESS &&
    BigInt(value) !== ADDRESS_MASK_VALUE &&
    looksRandom(value.slice(2)) &&
    !holdsText(BigInt(value))
  );
}

function looksRandom(hex: string): boolean {
  const bytes = hex.match(/../g) ?? [];
  const zeros = bytes.filter((byte) => byte === '00').length;
  const text = bytes.every((byte) => byte === '00' || (byte >= '20' && byte <= '7e'));
  return zeros <= 3 && !text;
}

/** Letters, digits, space and the punctuation of numbers: what a revert message is made of. */
const TEXT_BYTE = /[A-Za-z0-9 ,.']/;
/** Text bytes in a row that 20 random bytes hold about once in 18,000 (at any of 8 bit offsets). */
const TEXT_RUN = 10;

/**
 * A run of text in the 20 bytes, at any bit offset: a message's bytes (the data after the code,
 * read as a PUSH20 from an "s"), or a constant the optimizer pushes with its trailing zero bits
 * cut off and shifts into place (`PUSH20 x PUSH1 k SHL`), which puts its text off the bytes' edges.
 * Code only: an account kept in storage is read as a word, where no such text is found. A vanity
 * account made to hold such a run (some 18,000 tries) is not read from code; a function that
 * compares its caller with it still names it (discoverPowers' comparison round).
 */
export function holdsText(value: bigint): boolean {
  for (let shift = 0n; shift < 8n; shift++) {
    const shifted = (value << shift) & ADDRESS_MASK;
    let run = 0;
    for (let index = 19n; index >= 0n; index--) {
      const byte = Number((shifted >> (index * 8n)) & 0xffn);
      run = TEXT_BYTE.test(String.fromCharCode(byte)) ? run + 1 : 0;
      if (run >= TEXT_RUN) return true;
    }
  }
  return false;
}

export function addressesIn(value: Hex | undefined, known: ReadonlySet<Address> = new Set()): Address[] {
  if (!value || value === '0x') return [];
  const word = BigInt(value);
  // Two addresses never fit one slot: of the windows that could hold one, the one whose
  // neighbours look most like packed flags is the address; the others are slices of it. A slice's
  // neighbour holds one of the address's own bytes, which is rarely a 0 or a 1: so the window with
  // fewer such bytes beside it wins, then the one whose neighbours are smaller. (Magnitude alone
  // took `address router; bool a; bool b` with b set, 0x0100 above the router, for the window one
  // byte up, whose 0x8d below, the router's last byte, is smaller: a bogus account explored in
  // four wild tokens.)
  let best: { address: Address; odd: number; rest: bigint } | undefined;
  for (let shift = 0n; shift <= 96n; shift += 8n) {
    const candidate = (word >> shift) & ADDRESS_MASK;
    const above = word >> (shift + 160n);
    const below = word & ((1n << shift) - 1n);
    if (candidate < MIN_ADDRESS || above > 0xffffn || below > 0xffffn) continue;
    const hex = candidate.toString(16).padStart(40, '0');
    if (!looksRandom(hex)) continue;
    const address = getAddress(`0x${hex}`);
    if (known.has(address)) return [address];
    const odd = notFlagBytes(above) + notFlagBytes(below);
    const rest = above > below ? above : below;
    if (!best || odd < best.odd || (odd === best.odd && rest < best.rest)) best = { address, odd, rest };
  }
  return best ? [best.address] : [];
}

/** Bytes of a small value that are neither 0 nor 1: what a packed bool never is. */
function notFlagBytes(value: bigint): number {
  let count = 0;
  for (let rest = value; rest > 0n; rest >>= 8n) if ((rest & 0xffn) > 1n) count++;
  return count;
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
/** Words read where the arguments' start is known: the head and what follows it (an array's). */
const ARGUMENT_WORDS = 24;

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

/** What reading the token's calls from the trace index came to: recorded in the scan's facts. */
export interface TraceReading {
  /** Blocks whose calls were read, of the blocks from the creation (or the chain's start) to the pin. */
  blocks_read: number;
  blocks: number;
  requests: number;
  traces: number;
  /** The provider's refusal or failure, when one request (or all) went unanswered. */
  error: string | null;
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
): Promise<{
  candidates: PrivilegeCandidate[];
  minted: PrivilegeCandidate[];
  creationCode: Hex | null;
  traces: TraceReading;
}> {
  // Without the creation (a provider that keeps no old state) the calls are still read, from the
  // chain's start: trace indexes answer an address filter without walking every block.
  const [constructor, calls] = await Promise.all([
    creation
      ? constructorAccounts(client, creation, token, blockNumber)
      : { named: [], minted: [], creationCode: null },
    tracedCalls(client, { token, fromBlock: creation ? BigInt(creation.block) : 0n, toBlock: blockNumber }),
  ]);
  return {
    candidates: [...constructor.named, ...calls.found],
    minted: constructor.minted,
    creationCode: constructor.creationCode,
    traces: calls.reading,
  };
}

/**
 * Where a creation transaction's constructor arguments begin (an index into `input`'s hex): after
 * the copy of the runtime code its init code carries, which compilers put last, just before the
 * arguments. Found by the runtime code's last 32 bytes (the compiler's metadata, which no
 * immutable is written into), byte-aligned; undefined where the input does not hold them.
 */
export function constructorArgumentsAt(input: Hex, runtime: Hex | undefined): number | undefined {
  if (!runtime || runtime.length < 2 + 64) return undefined;
  const at = input.toLowerCase().lastIndexOf(runtime.slice(-64).toLowerCase());
  return at >= 2 && at % 2 === 0 ? at + 64 : undefined;
}

/** Accounts credited by the creation's mints, at most (a launch's team, marketing and reserve wallets). */
const MINTED_TO = 3;

/**
 * The creation transaction's constructor arguments, its input when that is creation code (a
 * transaction that created the token itself, not a call to a factory), and the accounts its
 * mints credited: a team wallet funded at launch and kept nowhere in storage is still an insider
 * whose own transfers a token may treat apart (an "anti-sniper" lock on whoever it sends to).
 */
async function constructorAccounts(
  client: PublicClient,
  creation: Creation,
  token: Address,
  blockNumber: bigint,
): Promise<{ named: PrivilegeCandidate[]; minted: PrivilegeCandidate[]; creationCode: Hex | null }> {
  const [tx, receipt, runtime] = await Promise.all([
    client.getTransaction({ hash: creation.tx as Hash }).catch(() => undefined),
    client.getTransactionReceipt({ hash: creation.tx as Hash }).catch(() => undefined),
    creation.via === 'create_tx'
      ? client.getCode({ address: token, blockNumber }).catch(() => undefined)
      : undefined,
  ]);
  // The token's own Transfer logs from the zero address (a factory's call may log other tokens').
  const minted = parseEventLogs({
    abi: erc20Abi,
    eventName: 'Transfer',
    args: { from: zeroAddress },
    logs: (receipt?.logs ?? []).filter((log) => log.address.toLowerCase() === token.toLowerCase()),
  })
    .map((log) => getAddress(log.args.to))
    .filter((address, index, all) => address !== zeroAddress && all.indexOf(address) === index)
    .slice(0, MINTED_TO)
    .map((address) => ({ address, source: 'credited by a mint at creation' }));
  if (!tx) return { named: [], minted, creationCode: null };
  // The arguments' head, where the runtime code's copy in the input shows where they begin; else
  // the input's last words (init code or a string's words may precede the arguments there).
  const argumentsAt = creation.via === 'create_tx' ? constructorArgumentsAt(tx.input, runtime) : undefined;
  const words = Math.floor((tx.input.length - 2) / 64);
  const named = (
    argumentsAt === undefined
      ? addressesInWords(tx.input, tx.input.length - Math.min(words, CONSTRUCTOR_WORDS) * 64)
      : addressesInWords(tx.input.slice(0, argumentsAt + ARGUMENT_WORDS * 64) as Hex, argumentsAt)
  ).map((address) => ({
    address,
    source: creation.via === 'create_tx' ? 'constructor argument' : 'argument of the creating call',
  }));
  return { named, minted, creationCode: creation.via === 'create_tx' ? tx.input : null };
}

/**
 * Accounts written into the creation code as a state variable's initial value (`address private
 * keeper = 0x…;`, as tax tokens keep their team wallets): the constructor stores them and the
 * runtime code never names them.
 */
export function creationCodeAccounts(
  creationCode: Hex | null,
  runtimeCode: Hex | undefined,
): PrivilegeCandidate[] {
  if (!creationCode) return [];
  return [...creationCodeAddresses(creationCode, runtimeCode)].flatMap((value) =>
    writtenAddress(value) ? [{ address: getAddress(value), source: 'address in the creation code' }] : [],
  );
}

/**
 * trace_filter requests per token at most. Providers cap one request's block range (anvil at 300
 * blocks, Reth at 100 by default) and refuse a longer one whole; a history longer than the cap is
 * read in windows of the cap, from the creation on (where setup happens) and back from the pin
 * (what was done lately), the first three early, then alternately late and early.
 */
const MAX_TRACE_REQUESTS = 8;
/** A window's size when a provider refuses the range without saying its cap. */
const UNSTATED_RANGE_CAP = 100n;
const RANGE_REFUSAL = /block range|range (is )?too (large|wide|long)|too many blocks|exceeds? (the )?max/i;

/** The windows read when one request may span `cap` blocks at most: three early, then late and early in turn */
export function traceWindows(from: bigint, to: bigint, cap: bigint, budget: number): [bigint, bigint][] {
  const windows: [bigint, bigint][] = [];
  let low = from;
  let high = to;
  for (let index = 0; index < budget && low <= high; index++) {
    if (index < 2 || index % 2 === 0) {
      const end = low + cap - 1n < high ? low + cap - 1n : high;
      windows.push([low, end]);
      low = end + 1n;
    } else {
      const start = high - cap + 1n > low ? high - cap + 1n : low;
      windows.push([start, high]);
      high = start - 1n;
    }
  }
  return windows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The cap a refusal names ("limited to 300", "max 100"), if the refusal is about the range. */
export function rangeCap(message: string, span: bigint): bigint | undefined {
  if (!RANGE_REFUSAL.test(message)) return undefined;
  const named = [...message.matchAll(/\b(\d{1,9})\b/g)]
    .map((match) => BigInt(match[1] as string))
    .filter((value) => value > 0n && value < span);
  const stated = named.at(-1);
  if (stated !== undefined) return stated;
  return UNSTATED_RANGE_CAP < span ? UNSTATED_RANGE_CAP : span / 2n || 1n;
}

async function tracedCalls(
  client: PublicClient,
  { token, fromBlock, toBlock }: { token: Address; fromBlock: bigint; toBlock: bigint },
): Promise<{ found: PrivilegeCandidate[]; reading: TraceReading }> {
  const request = client.request as unknown as (
    args: { method: string; params: unknown[] },
    options: { retryCount: number; retryDelay: number },
  ) => Promise<unknown>;
  const blocks = toBlock >= fromBlock ? toBlock - fromBlock + 1n : 0n;
  const reading: TraceReading = {
    blocks_read: 0,
    blocks: Number(blocks),
    requests: 0,
    traces: 0,
    error: null,
  };
  const entries: TraceEntry[] = [];
  // Retried: a node busy with the scan's own simulations can be slow to answer, and a lost answer
  // loses every caller it would have named. A provider without trace_filter answers nothing.
  const read = async ([from, to]: [bigint, bigint]) => {
    reading.requests++;
    const traces = await request(
      {
        method: 'trace_filter',
        params: [
          { fromBlock: numberToHex(from), toBlock: numberToHex(to), toAddress: [token], count: MAX_TRACES },
        ],
      },
      { retryCount: 2, retryDelay: 250 },
    );
    if (!Array.isArray(traces)) throw new Error('trace_filter answered no list');
    entries.push(...(traces as TraceEntry[]));
    reading.blocks_read += Number(to - from + 1n);
  };
  if (blocks > 0n) {
    const whole = await read([fromBlock, toBlock]).then(
      () => undefined,
      (error: unknown) => messageOf(error),
    );
    const cap = whole === undefined ? undefined : rangeCap(whole, blocks);
    if (whole !== undefined && cap === undefined) reading.error = whole;
    if (cap !== undefined) {
      const windows = traceWindows(fromBlock, toBlock, cap, MAX_TRACE_REQUESTS - 1);
      const settled = await Promise.allSettled(windows.map(read));
      const refused = settled.find((entry) => entry.status === 'rejected');
      if (refused) reading.error = messageOf(refused.reason);
    }
  }
  reading.traces = entries.length;
  const found: PrivilegeCandidate[] = [];
  for (const trace of entries) {
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
  return { found, reading };
}

function messageOf(error: unknown): string {
  if (error instanceof BaseError) return (error.details || error.shortMessage).slice(0, 200);
  return String(error instanceof Error ? error.message : error).slice(0, 200);
}
