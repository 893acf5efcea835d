import {
  type Address,
  concatHex,
  decodeAbiParameters,
  encodeAbiParameters,
  type Hex,
  getAddress,
  keccak256,
  numberToHex,
  pad,
  type PublicClient,
  slice,
  stringToHex,
  toFunctionSelector,
  zeroAddress,
} from 'viem';
import pLimit from 'p-limit';
import { argumentlessSelectors } from './argumentReads.ts';
import { lapTimer } from './laps.ts';
import { isRpcUnreachable, isUnsupportedMethod, scrubUrls } from '../../clients/chains/rpcErrors.ts';
import { isOutOfTime, OutOfTimeError } from './outOfTime.ts';
import { type BalanceSlot, balanceKey } from './balanceSlot.ts';
import type { PrivilegeCandidate } from './privilegeCandidates.ts';
import {
  type CallEffect,
  PROBE_ORIGIN,
  type ProbeCall,
  type ProbePrivilegesReturnType as ProbeResult,
  probeBuyingWith,
  probePrivileges,
  type StagedCall,
  type HolderBuySize,
} from './probePrivileges.ts';
import {
  argumentWords,
  asAccount,
  type CallTrace,
  harvestComparisons,
  harvestTimes,
  traceCalls,
} from './traceComparisons.ts';

/**
 * Power discovery that does not depend on names. Every selector the dispatcher compares against
 * (the implementation's too) is called from every account that might hold a privilege, with
 * argument words an attacker's function would read: the holder, the caller, the pair, zero, one,
 * small, whole-supply and huge amounts, a list of one holder. Solidity ignores calldata past the
 * arguments a function declares and rejects malformed addresses and booleans, so a handful of word
 * sequences covers every common shape without knowing it. What decides a finding is the effect on
 * an ordinary holder (the probe's victim, who bought on the pool first), never the function's
 * name: the supply raised so far that the holder's share shrinks by a third (mint), the holder's
 * share taken (leak), or the holder's transfer or sell stopped or taxed above 10 % (limit). Calls
 * that revert are tried again with the clock moved a day and a year on, for powers that wait.
 *
 * Hand-written because no library does this: bytecode decompilers (whatsabi and the like) recover
 * selectors reliably but not argument types, and an effect-based probe needs no types.
 */

export type PowerClass = 'mint' | 'leak' | 'limit';

interface EarlierCall {
  selector: Hex;
  /** The contract the call went to, when not the token (elsewhere: a policy, an oracle). */
  target: Address | null;
  signature: string | null;
  args: string[];
  calldata: Hex;
  /**
   * Who made it, when not the finding's caller: the later-block round's first call, made as a
   * transaction of its own in a block before the finding's call (see `earlierBlock`).
   */
  caller?: Address;
  /** Made in an earlier block than the call it prepared, as its own transaction. */
  earlierBlock?: true;
  /**
   * Made in a block between the first call's (a block of its own too) and the finding's: the block
   * right after the first call's, or halfway between the two.
   */
  middleBlock?: MiddleBlock;
}

export interface PowerFinding {
  class: PowerClass;
  selector: Hex;
  /** The contract the call went to, when not the token (a contract the token relies on). */
  target: Address | null;
  /** A readable name when the selector is a well-known one; null otherwise (most hidden powers). */
  signature: string | null;
  caller: Address;
  callerSource: string;
  /** The transaction's sender (tx.origin) when not the caller itself; null when the caller sent it. */
  origin: Address | null;
  /** The argument words sent after the selector, named. */
  args: string[];
  /** The call made just before it, in the same simulation, when the power takes two calls or three. */
  prelude: EarlierCall | null;
  /** The first call, when the power takes three (`prelude` is the second). */
  first: EarlierCall | null;
  /** How many times the call was made in a row (a mint capped per call, made until it tells). */
  repeats: number;
  /** The one call made `repeats` times, when more than once (`calldata` is then the whole run). */
  repeatedCall: Hex | null;
  calldata: Hex;
  timeOffsetSeconds: number;
  /** The call went to the token inside another function's argument (ranked after plain calls). */
  wrapped?: true;
  /**
   * The market traded between the prelude and the call (ten buys for fresh wallets, a tenth of
   * the pool's wrapped coin in all), and the diff counts from the end of the trading.
   */
  afterTrading?: true;
  /**
   * The call was sent as its own transaction and what it did measured in a later block, an hour
   * on (a freeze that bites from the next block): the later-block round.
   */
  measuredLater?: true;
  diff: {
    supply_before: string;
    supply_after: string;
    holder_balance_before: string;
    holder_balance_after: string;
    holder_transfer: string;
    /** The holder's sell before it receives anything (a receipt may arm or trip a lock). */
    holder_sell_before_receipt: string;
    holder_sell: string;
    /** Wei the holder bought its tokens with in the probe that showed it (a later probe may have fallen back to 0.01). */
    holder_buy_wei: string;
    caller_balance_before: string;
    caller_balance_after: string;
    pair_balance_before: string;
    pair_balance_after: string;
  };
}

export interface DiscoveryResult {
  findings: PowerFinding[];
  /** Selectors called (after the standard ERC-20 ones were left out). */
  selectorsTried: number;
  calls: number;
  /** eth_call round trips spent. */
  roundTrips: number;
  /**
   * Round trips that failed whole and were sent again as two halves (a step that reverted the
   * probe itself), and those that ran out of gas for their last calls, sent again in the next.
   */
  retried: { split: number; resumed: number };
  /**
   * Functions found to read no argument (argumentlessSelectors), and the calls not simulated
   * because each made the same call as one that was: its effect was given to them.
   */
  sameCalls: { functions: number; calls: number };
  /** Probes that could not run (an RPC refusal, say); the scan carries on without them. */
  failures: string[];
  /**
   * The ordinary holder's buy (chooseHolderBuy): the size kept (null: the probe's default, 0.01 of
   * the native coin), the sizes tried for it, and whether a later probe found it refused and the
   * rest of the discovery bought the default.
   */
  holderBuy: { wei: bigint | null; share: string | null; tried: number; refused: boolean };
  /**
   * Probes whose every step had HEAVY_EFFECT_GAS: the token's own sends and reads cost more than a
   * step's 1.2M (HoneypotDetector.sol), so fewer steps fit each round trip.
   */
  heavyProbes: number;
  /** Two-call simulations: how many were made, of how many the first round suggested. */
  pairs: { tried: number; planned: number };
  /** Three-call simulations: how many were made, of how many the two-call round suggested. */
  triples: { tried: number; planned: number };
  /** Calls repeated with a stored small number at another scale (per mille, basis points). */
  rescaled: number;
  /** Calls that moved something short of a finding, made again and again in one simulation. */
  repeated: number;
  /** Toggles: a call, the market trading, then a call the first one opened (togglePlan). */
  toggled: number;
  /**
   * The comparison round: refused calls traced, comparison steps read in them, calls made again
   * with what the comparisons wanted, calls made again at a time the call compared the clock
   * with, accounts explored because a function compared its caller with them, and the first
   * error a trace answered (a node without debug_traceCall).
   */
  comparisons: {
    traced: number;
    comparisons: number;
    calls: number;
    timed: number;
    /** Calls that had the token call itself with a call refused to every other caller. */
    wrapped: number;
    callers: number;
    error: string | null;
  };
  /**
   * The later-block round: simulations of a first call made as its own transaction and, an hour
   * on in a later block, calls of the functions that did nothing for anyone at the block (how
   * many simulations were made, of how many planned; their calls; the first error a node gave,
   * one without eth_simulateV1 say).
   */
  laterBlock: { tried: number; planned: number; calls: number; error: string | null };
  /** Each stage's wall time, one after the other: the accounts explored, the comparison round, the later-block round. */
  timingsMs: Record<string, number>;
  /**
   * Set when discovery ran out of its time budget (`timeBudgetMs`): when it stopped, how many
   * planned calls it did not make, and whether the comparison or later-block round was left out.
   * What it found until then stands; nothing it did not try is ruled out (a failure says so).
   */
  outOfTime: { afterMs: number; callsNotMade: number; roundsLeftOut: string[] } | null;
  /** Some probe's ordinary holder sent or sold with no call made: a call's effect on holders was measurable. */
  holderTraded: boolean;
}

/**
 * A selector no contract is meant to have (bytes4(keccak256("vigil.fallback"))): calling it reaches
 * the fallback function, where a power can hide behind a dispatcher that names nothing.
 */
const FALLBACK: Hex = keccak256(stringToHex('vigil.fallback')).slice(0, 10) as Hex;
/** A read every ERC-20 answers: the last step of a repeated run, so the run's `ok` means it ran. */
const TOTAL_SUPPLY: Hex = toFunctionSelector('totalSupply()');
/** Marks a call that is several calls (the detector's SEQUENCE): bytes4(keccak256("vigil.sequence")). */
const SEQUENCE: Hex = keccak256(stringToHex('vigil.sequence')).slice(0, 10) as Hex;
/** Marks a call to another contract (the detector's ELSEWHERE): bytes4(keccak256("vigil.elsewhere")). */
const ELSEWHERE: Hex = keccak256(stringToHex('vigil.elsewhere')).slice(0, 10) as Hex;
/**
 * Marks calls around a market's trading (the detector's CHURN): bytes4(keccak256("vigil.churn")),
 * then (router, calls before, calls after); the effect is measured from the end of the trading.
 */
const CHURN: Hex = keccak256(stringToHex('vigil.churn')).slice(0, 10) as Hex;
/** Toggles (a call, the market trading, a call the first one opened) per account: two round trips. */
const MAX_TOGGLES_PER_CANDIDATE = 16;
/**
 * Toggle candidates checked per account first, as plain two-call simulations (no trading): which
 * refused function the first call opens. Two round trips.
 */
const MAX_TOGGLE_CHECKS_PER_CANDIDATE = 96;
/** Toggles per eth_call: each trades ten times, on up to 4M gas, of the call's 48M. */
const TOGGLES_PER_ROUND_TRIP = 8;
/**
 * What a toggle's trading may spend: the detector buys a tenth of the pool's wrapped coin, so pools
 * of up to ten million coins trade (a larger one's buys fail, and the toggle shows nothing).
 */
const TOGGLE_TRADING_WEI = 10n ** 24n;
/** A first call that cost this much wrote to storage (a changed slot costs 2,900-22,100 gas). */
const WRITE_GAS = 5_000n;
/** A function every call to which worked for less than this only read a slot or two. */
const GETTER_MAX_GAS = 3_000n;
/** Two-call simulations per account: three round trips. */
const MAX_PAIRS_PER_CANDIDATE = 288;
/** Two-call simulations a year on per account, for first calls the clock let through: two round trips. */
const MAX_LATER_PAIRS_PER_CANDIDATE = 96;
/** Three-call simulations per account: two round trips. */
const MAX_TRIPLES_PER_CANDIDATE = 96;
/** Calls repeated with a stored small number at another scale, per account: two round trips. */
const MAX_RESCALES_PER_CANDIDATE = 96;
/**
 * A rate or limit a setter accepted and stored, tried again at the scales setters count in: 99 %
 * in percent, per mille and basis points. A setter capped at its own scale refuses a percent-sized
 * number above the cap, and reads a small one as a fraction of a percent.
 */
const RESCALES = [99n, 990n, 9_900n] as const;
/** The most times one call is made in a row: a mint capped at 1 % of the supply a call shows in 51. */
const MAX_REPEATS = 60;
/** Repeated calls per account: one round trip. */
const MAX_REPEATED_PER_CANDIDATE = 16;
/** Repeated calls per eth_call: each may take most of an effect's 1M gas, of the call's 48M. */
const REPEATS_PER_ROUND_TRIP = 16;
/**
 * A mint that worked with a small amount, tried at a tenth, a fortieth and a hundredth of the
 * supply a call, as many times as half the supply takes: what a cap per call still lets through.
 */
const LADDER = [10n, 40n, 100n] as const;
/** How far the clock is moved: a day (calls that reverted at the pinned block) and a year (all). */
const TIME_OFFSETS_SECONDS = [86_400, 365 * 86_400] as const;
/** Calls per eth_call: a call with its transfer and sell measured after it costs up to ~400k gas, and a probe asks for 48M (PROBE_GAS). */
const CALLS_PER_ROUND_TRIP = 48;
/**
 * Requests one discovery has at the node at once. A node runs simulations a few at a time whatever
 * it is sent: the dozens a costly token's rounds would send together only queue there, each
 * waiting towards its timeout (a scan of the wild set lost its engine so, under load).
 */
const MAX_REQUESTS_IN_FLIGHT = 6;
/** Functions an account is tried on, at least, for their argument reads to be traced first. */
const MIN_TRACED_SELECTORS = 8;
/** Smallest batch split further when a batch fails as a whole (a node limit, a broken step). */
const MIN_CHUNK = 6;
/** A raise of at least half the supply (the holder keeps two thirds of their share or less). */
const MINT_MIN_RAISE_DENOMINATOR = 2n;
/**
 * A holder's share falling by at least one part in a million: the balance of a holder who did
 * nothing never moves down from another account's call, and rounding (one unit of the smallest
 * denomination, where reflection or rebasing maths divides) stays some 10^15 times below it for a
 * holder of the probe's size. A reflected balance restated without its rate moves a holder by a
 * few parts in ten thousand after light trading.
 */
const LEAK_MIN_SHARE_LOSS_PPM = 1n;
/** The pool's tokens falling by at least 1 % with no swap paying for them (swaps' rounding and fees stay below it). */
const LEAK_MIN_POOL_LOSS_BPS = 100n;
/** A transfer or sell losing more than this to the token, beyond what it lost before the call. */
const LIMIT_MAX_TAX_BPS = 1_000;

/**
 * Selectors every ERC-20 has that only read, or hand ownership on. transfer, approve and the
 * allowance changes stay: a token can hide a power in them for one wallet (a send to itself that
 * mints, an approval that blocks the spender), as transferFrom can in an allowance it skips.
 */
const HARMLESS = new Set<Hex>(
  [
    'balanceOf(address)',
    'allowance(address,address)',
    'totalSupply()',
    'decimals()',
    'name()',
    'symbol()',
    'owner()',
    'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
    'nonces(address)',
    'DOMAIN_SEPARATOR()',
    'renounceOwnership()',
    'transferOwnership(address)',
    'supportsInterface(bytes4)',
    'eip712Domain()',
  ].map((signature) => toFunctionSelector(signature)),
);

/** Names for the evidence when a selector happens to be a well-known one. */
const KNOWN_NAMES = new Map<Hex, string>(
  [
    'transfer(address,uint256)',
    'approve(address,uint256)',
    'transferFrom(address,address,uint256)',
    'mint(address,uint256)',
    'mint(uint256)',
    'burn(address,uint256)',
    'burnFrom(address,uint256)',
    'pause()',
    'unpause()',
    'setBalance(address,uint256)',
  ]
    .map((signature): [Hex, string] => [toFunctionSelector(signature), signature])
    .concat([[FALLBACK, 'fallback()']]),
);

/**
 * Selectors probed on their own and made again and again, but never a step of two or three calls:
 * an approval or a send writes storage from any account, and the fallback refuses most calls, so
 * as first calls or as "functions that refused everything" they would fill the budgets every
 * token's setters need.
 */
const ALONE = new Set<Hex>([
  ...[
    'transfer(address,uint256)',
    'approve(address,uint256)',
    'increaseAllowance(address,uint256)',
    'decreaseAllowance(address,uint256)',
  ].map((signature) => toFunctionSelector(signature)),
  FALLBACK,
]);
const chained = (entry: Planned) => !ALONE.has(entry.selector);
/** How many of argumentSequences the selectors probed ALONE are called with. */
const ALONE_SHAPES = 7;

type Word = { name: string; value: bigint };

/** Word names a rescaled call replaces (a small number) and keeps (an account it applies to). */
const SMALL_WORDS = new Set(['1/true', '99']);
const ACCOUNT_WORDS = new Set(['holder', 'pair']);

/**
 * The same call with its small numbers (1 and 99) at each of RESCALES, when its words are only
 * small numbers and the accounts they apply to (the holder, the pair): `setRate(99)`,
 * `setAccountRate(holder, 1)`. Other shapes give none.
 */
export function rescaled(words: readonly Word[]): Word[][] {
  if (!words.some((word) => SMALL_WORDS.has(word.name))) return [];
  if (!words.every((word) => SMALL_WORDS.has(word.name) || ACCOUNT_WORDS.has(word.name))) return [];
  return RESCALES.map((value) =>
    words.map((word) => (SMALL_WORDS.has(word.name) ? { name: `${value} (rescaled)`, value } : word)),
  ).filter((variant) => variant.some((word, index) => word.value !== words[index]?.value));
}

/**
 * The two-call round: a first call that names the caller or the holder, or sets a number (a
 * minter, an account to reclaim, a staged cap), then a second that mints to the caller or takes
 * from the holder, or applies what was staged (any arguments do for a function that takes none).
 * Indexes into argumentSequences.
 */
const PRELUDES = [0, 1, 2, 3] as const;
const TRIGGERS = [4, 5, 6] as const;

interface WordContext {
  token: Address;
  victim: Address;
  actor: Address;
  pair: Address | undefined;
  router?: Address | undefined;
  supply: bigint;
  balanceSlot?: BalanceSlot | undefined;
  holderHashes?: readonly bigint[] | undefined;
  holderReadsCodeHash?: boolean | undefined;
  holderCompared?: readonly bigint[] | undefined;
  /** The actor is a wallet (no code, or an EIP-7702 delegation): whoever holds its key sends what it holds. */
  actorIsWallet?: boolean | undefined;
}

const MAX_WORD = 2n ** 256n - 1n;
/** Hashes of the holder's transfer tried as keys, at most. */
const MAX_HOLDER_HASHES = 3;

/** The code hash of an account with no code that exists (has sent a transaction): keccak256 of nothing. */
const WALLET_CODE_HASH = BigInt(keccak256('0x'));

/** Replaced by the detector with half the holder's balance at the time of the call. */
const HOLDER_HALF = BigInt(keccak256(stringToHex('vigil.holder-half')));
/** How the evidence names HOLDER_HALF (and how the forged round knows a take of it). */
const HOLDER_HALF_NAME = "half the holder's balance";
/** Replaced by the detector with all the caller holds of the token at the time of the call. */
const CALLER_ALL = BigInt(keccak256(stringToHex('vigil.caller-all')));
/** A wallet nobody holds, that an account sends everything it has to. */
const ELSEWHERE_WALLET = getAddress(slice(keccak256(stringToHex('vigil.elsewhere-wallet')), 12));

const address = (name: string, value: Address): Word => ({ name, value: BigInt(value) });
const amount = (name: string, value: bigint): Word => ({ name, value });
// Dynamic arguments: a head word per argument (an array's offset), then each array's length and
// elements.
const at = (offset: number) => amount(`offset ${offset}`, BigInt(offset));
/** A command's op code: the only word of its shape a comparison may want 0 or 1 in (an enum's first members). */
const OP_CODE = 'op code 0';
const length = (count: number) => amount(`length ${count}`, BigInt(count));

/** The named words argument shapes are made of, for one account's calls. */
function wordsFor(context: WordContext) {
  return {
    victim: address('holder', context.victim),
    actor: address('caller', context.actor),
    zero: amount('0', 0n),
    one: amount('1/true', 1n),
    huge: amount('1000× supply', context.supply * 1000n + 1n),
    whole: amount('1× supply', context.supply + 1n),
    half: amount(HOLDER_HALF_NAME, HOLDER_HALF),
    fee: amount('99', 99n),
    max: amount('max', MAX_WORD),
  };
}

/** The argument sequences tried for every selector (extra words are ignored by the callee). */
function argumentSequences(context: WordContext): Word[][] {
  const { victim, actor, zero, one, huge, whole, half, fee, max } = wordsFor(context);
  const length1 = length(1);
  const sequences: Word[][] = [
    // The first seven, in this order, are also the two-call round's (PRELUDES, TRIGGERS).
    [actor, one],
    [victim, one],
    [zero],
    [one, one],
    [actor, huge, one],
    [victim, half],
    [victim, actor, half],
    [huge, one],
    [actor, whole, one],
    [victim, zero, zero],
    // The amount before the account, and the receiver last.
    [half, victim],
    [victim, half, actor],
    [fee, fee, fee],
    // A deadline or expiry last (a struct of account, amount, deadline reads the same words).
    [actor, huge, max],
    [victim, half, max],
    // address[] holding the holder; with a bool after it; address[] of the caller with an amount;
    // address[] and uint256[] side by side.
    [at(32), one, victim],
    [at(64), one, length1, victim],
    [at(64), huge, length1, actor],
    [at(64), at(128), length1, actor, length1, huge],
    [at(64), at(128), length1, victim, length1, half],
    // One bytes argument holding a command: an op code (0: the comparison round reads which codes
    // it wanted), an account and an amount, as `abi.decode(command, (uint8, address, uint256))`.
    [at(32), length(96), amount(OP_CODE, 0n), victim, half],
  ];
  if (context.pair) {
    const pair = address('pair', context.pair);
    sequences.push([pair, one], [pair, zero]);
  }
  return sequences;
}

/**
 * Shapes tried at the pinned block only, after argumentSequences: batches of two (a function that
 * refuses a batch of one, as airdrops and reward drops may) of the caller with huge amounts and of
 * the holder with half its balance, and an array of one (from, to, amount, deadline) record taking
 * the holder's tokens for the caller (an order book or batch transfer settled by an agent).
 */
function blockOnlySequences(context: WordContext): Word[][] {
  const { victim, actor, zero, one, huge, half } = wordsFor(context);
  const deadline = amount('2100-01-01', DEADLINE);
  const shapes = [
    [at(64), at(160), length(2), actor, actor, length(2), huge, huge],
    [at(64), at(160), length(2), victim, victim, length(2), half, half],
    [at(32), length(1), victim, actor, half, deadline],
    // One value to each of two accounts, the value half of 2^256: a batch that multiplies its
    // total debit unchecked (the 2018 batchOverflow) debits nothing and credits both.
    [at(64), amount('2^255 each', 2n ** 255n), length(2), actor, victim],
    // A flash loan to the caller (ERC-3156: receiver, token, amount, data; the detector answers
    // the callback and lets the lender take back what it says is owed) of 2^128: a lender that
    // books the loan in a 128-bit field asks back nothing.
    [actor, address('the token', context.token), amount('2^128', 2n ** 128n), at(128), length(0)],
  ];
  // A key the holder's own transfer hashed (a list keyed by a hash of the account), set: with a
  // true after it for a function that takes one. The balances mapping's own entries are not keys
  // a list needs.
  const balances = context.balanceSlot;
  const own = balances ? BigInt(balanceKey(balances, context.victim)) : undefined;
  for (const hash of (context.holderHashes ?? [])
    .filter((value) => value !== own)
    .slice(0, MAX_HOLDER_HASHES))
    shapes.push([amount("a hash the holder's transfer computed", hash), one]);
  // A transfer that reads code hashes may keep a list of them: an ordinary wallet's (one that has
  // sent a transaction) is keccak256 of no code, set.
  if (context.holderReadsCodeHash)
    shapes.push([amount("an ordinary wallet's code hash", WALLET_CODE_HASH), one]);
  // The router where an account goes: a fee wallet a sell pays out to, set to a contract that
  // refuses the payment (the router takes ETH from WETH alone), makes every sell revert.
  if (context.router) shapes.push([address('router', context.router), one]);
  // A raw storage write (a slot and a word): the holder's balance entry emptied, the caller's
  // written up.
  if (balances) {
    const entry = (name: string, account: Address) => amount(name, BigInt(balanceKey(balances, account)));
    shapes.push(
      [entry("the holder's balance slot", context.victim), zero],
      [entry("the caller's balance slot", context.actor), huge],
    );
  }
  // Everything the caller holds sent to a wallet nobody holds: a sell cap read from an insider's
  // balance (a "reserve" that covers sells) falls to nothing with an ordinary transfer. Only from a
  // wallet: a contract (a rewards pool, a burn address with code) sends only what its code lets
  // it, and the detector's code in its place would send what it never could.
  if (context.actorIsWallet) shapes.push(sendEverything());
  // Last (the contracts the token relies on are called with these too): a level the holder's
  // transfer compared a stored word with, stored.
  return [...shapes, ...comparedSequences(context)];
}

/** EIP-7702's delegation designator: an account whose key still signs for it. */
const DELEGATION_PREFIX = '0xef0100';

/**
 * Whether `address` is a wallet at the block: no code, or only an EIP-7702 delegation. Unknown (a
 * read the node refused) counts as not.
 */
async function isWallet(client: PublicClient, address: Address, blockNumber: bigint): Promise<boolean> {
  try {
    const code = await client.getCode({ address, blockNumber });
    return code === undefined || code === '0x' || (code.length === 48 && code.startsWith(DELEGATION_PREFIX));
  } catch (error) {
    if (isRpcUnreachable(error)) throw error;
    return false;
  }
}

/** Everything the caller holds, to a wallet nobody holds. */
function sendEverything(): Word[] {
  return [
    address('a wallet nobody holds', ELSEWHERE_WALLET),
    amount("the caller's whole balance", CALLER_ALL),
  ];
}

/** A value the holder's transfer compared a stored word with, as a function's one argument. */
function comparedSequences(context: WordContext): Word[][] {
  return (context.holderCompared ?? []).map((value) => [
    amount(`${value}, a value the holder's transfer compared a stored word with`, value),
  ]);
}

function encode(selector: Hex, words: Word[]): Hex {
  return concatHex([selector, ...words.map((word) => pad(numberToHex(word.value), { size: 32 }))]);
}

/** A deadline that fits the uint32 or uint64 a record may keep it in: 2100-01-01. */
const DEADLINE = 4_102_444_800n;

/**
 * The functions a call can be handed to inside another (a batch, an execute): all but the
 * standard ones and the fallback.
 */
function batchTargets(selectors: ReadonlySet<Hex>): Hex[] {
  return [...selectors].filter(
    (selector) => !HARMLESS.has(selector) && !ALONE.has(selector) && selector !== FALLBACK,
  );
}

/** The same function called again, with other words in the same shape. */
function withWords(entry: Planned, words: Word[]): Planned {
  const data = encode(entry.selector, words);
  return {
    selector: entry.selector,
    sequence: entry.sequence,
    args: words.map((word) => word.name),
    call: { label: entry.selector, data },
  };
}

/** A call to `target` instead of the token, as the detector's ELSEWHERE step. */
function elsewhereCall(target: Address, data: Hex): Hex {
  return concatHex([
    ELSEWHERE,
    encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [target, data]),
  ]);
}

export interface DiscoverPowersParameters {
  token: Address;
  selectors: ReadonlySet<Hex>;
  candidates: readonly PrivilegeCandidate[];
  victim: Address;
  router: Address | undefined;
  pair: Address | undefined;
  supply: bigint;
  blockNumber: bigint;
  blockTimestamp: bigint;
  /** The gas price the simulations pay (simulationGasPrice); 0 when omitted. */
  gasPrice?: bigint;
  /**
   * Wall time discovery may take, in milliseconds (SCAN_DISCOVERY_BUDGET_MS): past it, no further
   * round trip starts (those in flight finish), and the result says what was left (`outOfTime`).
   * Discovery is bounded in calls; on a slow node, calls alone can take longer than a scan's step.
   */
  timeBudgetMs?: number;
  /**
   * The code reads tx.origin (the ORIGIN opcode): every account is then also tried inside an
   * ordinary wallet's transaction, where an insider's own transactions may be exempt from a limit
   * and a helper contract's calls may only count.
   */
  readsOrigin?: boolean;
  /**
   * The token's code reads nothing of the block and calls no other contract (analyzeBytecode's
   * readsBlock and callsOut, no proxy): moving the clock changes nothing it does, so no call is
   * made again a day or a year on (the later-block round, whose staged calls come from other
   * accounts, still runs).
   */
  clockBlind?: boolean;
  /** Where the token keeps its balances, when found (findBalanceSlot). */
  balanceSlot?: BalanceSlot;
  /** Hashes an ordinary holder's transfer computed (traceHolderHashes): keys a list may use. */
  holderHashes?: readonly bigint[];
  /** The token reads an account's code hash (in its code, or in that transfer): a list may be of code hashes. */
  holderReadsCodeHash?: boolean;
  /**
   * Small values that transfer compared a stored word with (harvestStoredComparisons): a level or
   * mode a setter may store, each tried as a function's one argument, on the token and on the
   * contracts it relies on.
   */
  holderCompared?: readonly bigint[];
  /**
   * Contracts the token relies on (one its holder's transfer calls, one whose address it keeps):
   * their functions are called too, from every account, and what they do to the token's holder
   * is measured the same way (a policy contract's admin blocking sends, an oracle's reporter
   * feeding a rebase). First calls and first calls of pairs only.
   */
  elsewhere?: readonly { target: Address; selectors: readonly Hex[] }[];
  /** Accounts never explored as callers (the router, the implementation, a proxy's admin). */
  excluded?: readonly (Address | undefined)[];
  /**
   * Sizes the ordinary holder may buy with (holderBuySizes: shares of the pool, largest first), so
   * that its sell is one a market's holders make, not dust under every threshold. The largest
   * whose buy, send and sell work whole with no call is kept (chooseHolderBuy); none such, or
   * none given, and the holder buys the probe's default.
   */
  holderBuySizes?: readonly HolderBuySize[];
}

export interface Planned {
  call: ProbeCall;
  selector: Hex;
  /** Another contract the call goes to (DiscoverPowersParameters.elsewhere); the token when absent. */
  target?: Address;
  /** Which shape the arguments are: argumentSequences' index, or past them blockOnlySequences'. */
  sequence: number;
  args: string[];
  /** The call made just before, in the same simulation, when this is the second of two or the third of three. */
  prelude?: Planned;
  /** The first call, when this is the third of three (the prelude is then the second). */
  first?: Planned;
  /** This call's own calldata when `call` is a sequence of several. */
  own?: Hex;
  /** How many times `own` is made in a row, when `call` repeats one call. */
  repeats?: number;
  /** Why the call reverted, once it has. */
  revertReason?: string | null;
  /** A call handed to the token inside another function's argument (a batch, an execute). */
  wrapped?: true;
  /** Made by this account as its own transaction, in a block before the call it prepares. */
  stagedBy?: Address;
  /** Staged between the first staging call's block and the later one (a confirmation). */
  stagedMiddle?: MiddleBlock;
  /** The market traded between the prelude and this call, and the effect counts from there. */
  churned?: true;
}

export interface Outcome {
  entry: Planned;
  effect: CallEffect;
}

/**
 * Reverts that say the caller lacks the right (not the owner, no role, no allowance, not enough
 * balance): moving the clock changes none of them, so the call is not retried later. OpenZeppelin's
 * custom errors are matched by name, as decodeRevertReason renders them.
 */
const DENIED =
  /caller is not|not the owner|onlyowner|unauthori[sz]ed|access ?control|missing role|permission|forbidden|allowance|insufficient ?balance|exceeds balance|OwnableUnauthorizedAccount|ERC20Insufficient/i;

/** Of those, the reasons that are about the caller's rights, not its funds or allowance. */
const NO_RIGHT =
  /caller is not|not the owner|onlyowner|unauthori[sz]ed|access ?control|missing role|permission|forbidden|OwnableUnauthorizedAccount/i;

export function deniedToCaller(reason: string | null | undefined): boolean {
  return reason !== null && reason !== undefined && DENIED.test(reason);
}

interface RunOutcome {
  failed: Planned[];
  succeeded: Outcome[];
  baseline: CallEffect | undefined;
}
type RunAt = (
  offset: number,
  calls: Planned[],
  perTrip?: number,
  staged?: readonly StagedCall[],
) => Promise<RunOutcome>;

/**
 * One account's first round, for the comparison round: its runner, its argument shapes, the calls
 * refused for a reason other than its rights, and per function one call refused for its rights
 * (one that does not send the caller as a word, where there is one).
 */
interface Explored {
  runAt: RunAt;
  sequences: Word[][];
  refused: Planned[];
  denied: Planned[];
  /** Its first round's calls at the block that may be steps (see `stepping`). */
  steps: { succeeded: Outcome[]; failed: Planned[] };
}

/**
 * Functions that refused every account for its rights, traced once each per token at most: the
 * caller they compared with (computed at run time) or the token itself (a function for the token
 * alone) shows in the trace whatever the revert's message says.
 */
const MAX_DENIED_TRACED = 8;

/** Refused calls traced per token at most (in batches of eight), besides MAX_DENIED_TRACED. */
const MAX_TRACED_CALLS = 32;
/** Refused calls of one function traced per account: its first shapes (an account word, a number). */
const MAX_TRACED_PER_FUNCTION = 3;
/** Calls made with what the comparisons wanted, per account. */
const MAX_WANTED_CALLS_PER_CANDIDATE = 48;
/** Of those, a call that worked then one refused, per account at most. */
const MAX_WANTED_PAIRS_PER_CANDIDATE = 8;
/** Functions found refusing every caller but the token itself, wrapped per token at most. */
const MAX_SELF_ONLY_FUNCTIONS = 2;
/**
 * Accounts each such function is wrapped for, at most, in the candidates' order: who may call
 * the function that has the token call itself (a keeper, the owner) is not what refused the inner one.
 */
const MAX_SELF_ONLY_ACCOUNTS = 4;
/** Wrapping calls per function and account at most. */
const MAX_WRAPPING_CALLS = 48;

/**
 * Ways a function takes a call for the token to make itself (multicall, batch, execute): a
 * bytes[] of calls, one bytes, a target and its bytes, a target, a value and its bytes. `shown`
 * names the inner call in the evidence.
 */
function wrappings(token: Address, inner: Hex, shown: string): { args: string[]; data: Hex }[] {
  return [
    { args: [`[${shown}]`], data: encodeAbiParameters([{ type: 'bytes[]' }], [[inner]]) },
    { args: [shown], data: encodeAbiParameters([{ type: 'bytes' }], [inner]) },
    {
      args: ['the token', shown],
      data: encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }], [token, inner]),
    },
    {
      args: ['the token', '0', shown],
      data: encodeAbiParameters(
        [{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }],
        [token, 0n, inner],
      ),
    },
  ];
}

/**
 * Whether the last comparison a refused call made of its caller was an equality with the token
 * itself (`require(msg.sender == address(this))`): the function takes calls from the token alone.
 */
function refusedAllButSelf(comparisons: CallTrace['c'], caller: Address, token: Address): boolean {
  const mine = BigInt(caller);
  const self = BigInt(token);
  for (const [op, top, second] of [...comparisons].reverse()) {
    const a = BigInt(`0x${top}`);
    const b = BigInt(`0x${second}`);
    if (a !== mine && b !== mine) continue;
    return (op === 'EQ' || op === 'SUB') && (a === self || b === self);
  }
  return false;
}

const IS_TRUSTED_FORWARDER = toFunctionSelector('isTrustedForwarder(address)');
const TRANSFER = toFunctionSelector('transfer(address,uint256)');
/** Accounts a token trusts as its ERC-2771 forwarder that are tried as one, at most. */
const MAX_FORWARDERS = 2;

/**
 * The candidates, those the token trusts as its ERC-2771 forwarder (`isTrustedForwarder`, and a
 * contract: a forwarder relays requests) marked so: every call they make carries an ordinary
 * wallet's address last, where the token reads the sender of a forwarded call. Without it a word
 * of the arguments would be read as the sender (a burn of the holder's tokens that no forwarder
 * could relay). An account without code trusted as the forwarder stays as it is: whoever holds
 * its key may claim any sender, and its calls show what that can do.
 */
async function markForwarders(
  client: Parameters<typeof probePrivileges>[0],
  parameters: DiscoverPowersParameters,
): Promise<PrivilegeCandidate[]> {
  if (!parameters.selectors.has(IS_TRUSTED_FORWARDER)) return [...parameters.candidates];
  const trusted = await Promise.all(
    parameters.candidates.map(async (candidate) => {
      const [answer, code] = await Promise.all([
        client.call({
          to: parameters.token,
          data: concatHex([IS_TRUSTED_FORWARDER, pad(candidate.address)]),
          blockNumber: parameters.blockNumber,
        }),
        client.getCode({ address: candidate.address, blockNumber: parameters.blockNumber }),
      ]).catch((error: unknown) => {
        if (isRpcUnreachable(error)) throw error;
        return [{ data: undefined }, undefined] as const;
      });
      const data = answer.data;
      return (
        data !== undefined &&
        data.length >= 66 &&
        BigInt(data.slice(0, 66)) === 1n &&
        Boolean(code && code !== '0x')
      );
    }),
  );
  let marked = 0;
  return parameters.candidates.map((candidate, index) =>
    trusted[index] && marked++ < MAX_FORWARDERS
      ? {
          ...candidate,
          source: `${candidate.source}, the token's trusted forwarder (ERC-2771), relaying an ordinary wallet's request`,
          forwarder: true as const,
        }
      : candidate,
  );
}

/**
 * Through each forwarder the token trusts, every function of the token is handed a batch of one
 * call, a transfer of the holder's tokens to the forwarder with the holder's address appended, in
 * the shapes a batch takes (bytes[], bytes, a target and bytes, a deadline and bytes[]); the
 * forwarder appends an ordinary wallet's address to the whole call (runAt), as it appends the
 * signer of that wallet's own request. A batch that passes its items on as they stand (instead of
 * appending the request's sender to each) makes the holder the sender of the transfer: the
 * multicall flaw of 2023. A forwarder that checks signatures relays such a request all the same.
 */
async function forwarderRound(
  parameters: DiscoverPowersParameters,
  state: { explored: Map<PrivilegeCandidate, Explored>; known: readonly PrivilegeCandidate[] },
): Promise<void> {
  const outer = batchTargets(parameters.selectors).filter((selector) => selector !== IS_TRUSTED_FORWARDER);
  await Promise.all(
    state.known.flatMap((forwarder) => {
      const explored = state.explored.get(forwarder);
      if (!forwarder.forwarder || forwarder.origin || !explored) return [];
      const item = concatHex([
        encode(TRANSFER, [
          { name: 'caller', value: BigInt(forwarder.address) },
          { name: HOLDER_HALF_NAME, value: HOLDER_HALF },
        ]),
        parameters.victim,
      ]);
      const shown = "transfer(caller, half the holder's balance) with the holder's address appended";
      const ways = [
        ...wrappings(parameters.token, item, shown),
        {
          args: ['2100-01-01', `[${shown}]`],
          data: encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes[]' }], [DEADLINE, [item]]),
        },
      ];
      const calls: Planned[] = outer.flatMap((selector) =>
        ways.map(({ args, data }) => ({
          selector,
          sequence: 0,
          args,
          call: { label: selector, data: concatHex([selector, data]) },
          wrapped: true as const,
        })),
      );
      return calls.length > 0 ? [explored.runAt(0, calls)] : [];
    }),
  );
}

/** The standard functions that act on a holder's signature, each by its parameter list. */
const SIGNED = {
  permit: toFunctionSelector('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)'),
  permitBytes: toFunctionSelector('permit(address,address,uint256,uint256,bytes)'),
  daiPermit: toFunctionSelector('permit(address,address,uint256,uint256,bool,uint8,bytes32,bytes32)'),
  transferWithAuthorization: toFunctionSelector(
    'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
  ),
  transferWithAuthorizationBytes: toFunctionSelector(
    'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
  ),
  receiveWithAuthorization: toFunctionSelector(
    'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
  ),
  receiveWithAuthorizationBytes: toFunctionSelector(
    'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
  ),
} as const;
const TRANSFER_FROM = toFunctionSelector('transferFrom(address,address,uint256)');
/** How long a forged permit or authorization stays valid: what a wallet signs for. */
const FORGED_VALIDITY_SECONDS = 1_800n;

/**
 * Signatures nobody made handed to the standard functions that take a holder's signature instead
 * of the holder's call: EIP-2612's permit and DAI's, each followed in the same simulation by the
 * transferFrom it would allow, and EIP-3009's transferWithAuthorization and
 * receiveWithAuthorization, which move the tokens themselves; each with v, r, s or with one 65-byte
 * signature (USDC v2.2's form). Each is made for the holder (half its tokens to the caller: a
 * function that checks no signature is anyone's approval of anyone's tokens, a leak) and for the
 * zero address (a thousand supplies to the caller: for an invalid signature ecrecover answers the
 * zero address, so a check that compares its answer with the owner and never with zero passes it,
 * and a transfer that writes balances through a mint-or-move helper then mints), with two
 * signatures: none at all (r = s = 0), and one that passes the usual sanity checks (v 27, r and s
 * not zero, s in the lower half) but whose r lies past the curve's order. The permit's value is
 * what the transferFrom then takes, and both stay valid for half an hour, as a wallet signs them
 * (a check that refuses only an unlimited permit, or a deadline far off, lets them by). permit is
 * left out of every other round (HARMLESS) and the others take more words than any shape there:
 * only a forged signature shows what they allow. Made once, by the first account explored as
 * itself; any account could. OpenZeppelin's ECDSA and every correct check refuse them all.
 */
async function forgedSignatureRound(
  client: Parameters<typeof probePrivileges>[0],
  parameters: DiscoverPowersParameters,
  state: {
    explored: Map<PrivilegeCandidate, Explored>;
    explore: (candidate: PrivilegeCandidate, only?: ReadonlySet<Hex>) => Promise<void>;
    known: readonly PrivilegeCandidate[];
    result: DiscoveryResult;
    /** Whether discovery's time budget is spent: no trace starts after it. */
    spent: () => boolean;
  },
): Promise<void> {
  const has = (selector: Hex) => parameters.selectors.has(selector);
  if (!Object.values(SIGNED).some(has)) return;
  const first = state.known.find(
    (candidate) => !candidate.forwarder && !candidate.origin && state.explored.has(candidate),
  );
  const explored = first && state.explored.get(first);
  if (!first || !explored) return;
  const { failed } = await explored.runAt(0, forgedSignatures(parameters, first.address, has));
  const little = forgedLittle(parameters, first.address, has, failed);
  // A permit refused for this spender may need no signature from another: the spender word
  // compared with an account (a relayer kept in code, found nowhere the candidates come from)
  // names it, and that account makes the forged calls as spender too. Each refused permit is
  // traced once (the pair's first call, alone).
  const permits = failed
    .flatMap((entry) => (entry.prelude ? [entry.prelude] : []))
    .slice(0, MAX_FORGED_TRACED);
  // The takes a little at a time go beside the trace, in the same round trip's time.
  const [, traced] = await Promise.all([
    little.length > 0 ? explored.runAt(0, little) : undefined,
    permits.length > 0 && !leftOut(state.result, state.spent, 'forged-signature traces')
      ? traceCalls(client, {
          blockNumber: parameters.blockNumber,
          calls: permits.map((permit) => ({
            from: first.address,
            to: parameters.token,
            data: permit.call.data,
          })),
        })
      : undefined,
  ]);
  if (!traced) return;
  const { traces } = traced;
  noteRoundFailure(state.result, 'forged-signature traces', traced.unexpected);
  const seen = new Set(
    [...state.known.map(({ address }) => address), parameters.token, parameters.victim, parameters.pair]
      .filter((value): value is Address => value !== undefined)
      .map((value) => value.toLowerCase()),
  );
  const named = new Map<string, PrivilegeCandidate>();
  traces.forEach((trace, index) => {
    const permit = permits[index];
    if (!trace || !permit) return;
    const words = argumentWords(permit.call.data);
    // The spender is the second word of every permit form.
    for (const { index: at, value } of harvestComparisons(trace.c, { caller: first.address, words }).wanted) {
      const spender = at === 1 ? asAccount(value) : undefined;
      if (spender && !seen.has(spender.toLowerCase()) && named.size < MAX_FORGED_SPENDERS)
        named.set(spender.toLowerCase(), {
          address: spender,
          source: `compared with the spender by ${permit.selector}`,
        });
    }
  });
  await Promise.all(
    [...named.values()].map(async (candidate) => {
      await state.explore(candidate, new Set([TRANSFER_FROM]));
      await state.explored.get(candidate)?.runAt(0, forgedSignatures(parameters, candidate.address, has));
    }),
  );
}

/** Forged permits traced per token at most, for a spender they compared with. */
const MAX_FORGED_TRACED = 4;
/** Spenders found so whose own forged calls are made, at most. */
const MAX_FORGED_SPENDERS = 2;

/** The forged-signature round's calls with `spender` as the caller: see forgedSignatureRound. */
function forgedSignatures(
  parameters: DiscoverPowersParameters,
  spender: Address,
  has: (selector: Hex) => boolean,
  takes: readonly (readonly [Word, Word])[] = [
    [address('holder', parameters.victim), amount(HOLDER_HALF_NAME, HOLDER_HALF)],
    [address('the zero address', zeroAddress), amount('1000× supply', parameters.supply * 1000n + 1n)],
  ],
): Planned[] {
  const caller = address('caller', spender);
  const validBefore = amount('half an hour on', parameters.blockTimestamp + FORGED_VALIDITY_SECONDS);
  const nonce = amount('a fresh nonce', BigInt(keccak256(stringToHex('vigil.authorization'))));
  const zero = amount('0', 0n);
  const signatures: { v: Word; r: Word; s: Word }[] = [
    { v: amount('27', 27n), r: amount('0 (no signature)', 0n), s: amount('0 (no signature)', 0n) },
    { v: amount('27', 27n), r: amount('2^256 - 1 (past the curve order)', MAX_WORD), s: amount('1', 1n) },
  ];
  const step = (selector: Hex, words: Word[], signature?: { v: Word; r: Word; s: Word }): Planned => {
    // A bytes signature: its offset among the head words, its length, then r, s and v packed.
    const packed = signature && {
      args: [
        ...words.map(({ name }) => name),
        `signature (r ${signature.r.name}, s ${signature.s.name}, v ${signature.v.name})`,
      ],
      tail: concatHex([
        pad(numberToHex(BigInt(32 * (words.length + 1))), { size: 32 }),
        pad(numberToHex(65n), { size: 32 }),
        pad(numberToHex(signature.r.value), { size: 32 }),
        pad(numberToHex(signature.s.value), { size: 32 }),
        pad(numberToHex(signature.v.value), { size: 1, dir: 'right' }),
        pad('0x', { size: 31 }),
      ]),
    };
    const data = packed ? concatHex([encode(selector, words), packed.tail]) : encode(selector, words);
    return {
      selector,
      sequence: 0,
      args: packed ? packed.args : words.map(({ name }) => name),
      call: { label: selector, data },
    };
  };
  const forged = ([owner, value]: readonly [Word, Word]): Planned[] =>
    signatures.flatMap((signature) => {
      const vrs = [signature.v, signature.r, signature.s];
      const take = step(TRANSFER_FROM, [owner, caller, value]);
      const authorization = [owner, caller, value, zero, validBefore, nonce];
      const made: Planned[] = [];
      if (has(TRANSFER_FROM)) {
        if (has(SIGNED.permit))
          made.push(twoCalls(step(SIGNED.permit, [owner, caller, value, validBefore, ...vrs]), take));
        if (has(SIGNED.permitBytes))
          made.push(twoCalls(step(SIGNED.permitBytes, [owner, caller, value, validBefore], signature), take));
        // DAI's: holder, spender, the holder's nonce (none used yet), expiry, allowed.
        if (has(SIGNED.daiPermit))
          made.push(
            twoCalls(
              step(SIGNED.daiPermit, [owner, caller, zero, validBefore, amount('1/true', 1n), ...vrs]),
              take,
            ),
          );
      }
      // from, to, value, valid after, valid before, a nonce of the signer's choosing.
      for (const selector of [SIGNED.transferWithAuthorization, SIGNED.receiveWithAuthorization])
        if (has(selector)) made.push(step(selector, [...authorization, ...vrs]));
      for (const selector of [SIGNED.transferWithAuthorizationBytes, SIGNED.receiveWithAuthorizationBytes])
        if (has(selector)) made.push(step(selector, authorization, signature));
      return made;
    });
  return takes.flatMap(forged);
}

/**
 * The holder's forged takes again, a little at a time, for the signed functions that refused
 * half the holder's balance: a permit or authorization capped per call (a limit kept for show)
 * still lets a forged signature take a ten-millionth of the supply, again and again.
 */
function forgedLittle(
  parameters: DiscoverPowersParameters,
  spender: Address,
  has: (selector: Hex) => boolean,
  refused: readonly Planned[],
): Planned[] {
  const capped = new Set(
    refused
      .filter((entry) => entry.args.includes(HOLDER_HALF_NAME))
      .map((entry) => entry.prelude?.selector ?? entry.selector),
  );
  if (capped.size === 0) return [];
  const little = parameters.supply / 10_000_000n;
  return forgedSignatures(
    parameters,
    spender,
    (selector) => (selector === TRANSFER_FROM ? has(selector) : capped.has(selector)),
    [
      [
        address('holder', parameters.victim),
        amount('a ten-millionth of the supply', little > 0n ? little : 1n),
      ],
    ],
  );
}

/** Times (clock offsets) a token's refused calls are made again at, at most. */
const MAX_COMPARED_TIMES = 4;
/** Accounts found compared with the caller that are explored in full. */
const MAX_COMPARED_CALLERS = 3;
/** Comparison rounds one after another: the first accounts', then those of the accounts they named. */
const MAX_COMPARISON_DEPTH = 2;

const SILENT = 'reverted without a reason';
/** Refusals of an argument as malformed (the zero address where an account goes): nothing wanted. */
const MALFORMED = /ERC20Invalid|zero address|invalid (receiver|recipient|sender|spender|approver)/i;

/**
 * A call refused for its arguments' form, not their value: one its function's ABI decoder refused
 * (it reverted silently with fewer words than another call to the same function that got further:
 * worked, or was refused with a reason), or one refused for a malformed account. Its trace would
 * show the decoder's checks, nothing the function wanted.
 */
function shortOfDecoding(
  entry: Planned,
  round: { succeeded: readonly Outcome[]; failed: readonly Planned[] },
  sequences: readonly (readonly Word[])[],
): boolean {
  if (entry.revertReason && MALFORMED.test(entry.revertReason)) return true;
  if (entry.revertReason !== SILENT) return false;
  const words = (planned: Planned) => sequences[planned.sequence]?.length ?? 0;
  const further = [
    ...round.succeeded.map((outcome) => outcome.entry),
    ...round.failed.filter((other) => other.revertReason !== SILENT),
  ].filter((other) => other.selector === entry.selector && !other.prelude && other.target === entry.target);
  return further.some((other) => words(other) > words(entry));
}

/** A word as the evidence shows it: small numbers in decimal, the rest in hex. */
function shown(value: bigint): string {
  return value < 2n ** 64n ? value.toString() : numberToHex(value);
}

/**
 * Per function that refused this account for its rights (not its funds: an allowance or a
 * balance refuses every account alike) and let no call through, one of those
 * calls: the first that does not send the caller as a word (a comparison of the caller with an
 * account then names that account), else the first.
 */
function deniedOnce(
  round: { succeeded: readonly Outcome[]; failed: readonly Planned[] },
  sequences: readonly (readonly Word[])[],
  stepping: (entry: Planned) => boolean,
  shown: ReadonlySet<Hex>,
): Planned[] {
  // Let through: a call that worked, whether or not it showed a power.
  const through = new Set([...round.succeeded.map(({ entry }) => entry.selector), ...shown]);
  const chosen = new Map<Hex, Planned>();
  for (const entry of round.failed) {
    const reason = entry.revertReason;
    if (!stepping(entry) || entry.target || reason === null || reason === undefined || !NO_RIGHT.test(reason))
      continue;
    if (through.has(entry.selector)) continue;
    const sendsCaller = (sequences[entry.sequence] ?? []).some((word) => word.name === 'caller');
    const held = chosen.get(entry.selector);
    const heldSends = held && (sequences[held.sequence] ?? []).some((word) => word.name === 'caller');
    if (!held || (heldSends && !sendsCaller)) chosen.set(entry.selector, entry);
  }
  return [...chosen.values()];
}

/**
 * The comparison round (traceComparisons): the calls each account had refused for a reason other
 * than its rights are traced, and made again with what their comparisons wanted in a word's
 * place; the accounts a function compared its caller with are explored on that function as every
 * other account is. Deterministic: accounts in their candidate order, each account's refusals
 * shape by shape (every function's first shape, then every function's second).
 */
async function comparisonRound(
  client: Parameters<typeof probePrivileges>[0],
  parameters: DiscoverPowersParameters,
  state: {
    explored: Map<PrivilegeCandidate, Explored>;
    explore: (candidate: PrivilegeCandidate, only?: ReadonlySet<Hex>) => Promise<void>;
    result: DiscoveryResult;
    known: readonly PrivilegeCandidate[];
    /** Whether discovery's time budget is spent: no trace starts after it. */
    spent: () => boolean;
  },
  depth = 1,
): Promise<void> {
  if (leftOut(state.result, state.spent, depth === 1 ? 'comparisons' : `comparisons at depth ${depth}`))
    return;
  const queues = state.known
    .filter((candidate) => !candidate.origin && state.explored.has(candidate))
    .map((candidate) => {
      const perFunction = new Map<Hex, number>();
      const explored = state.explored.get(candidate);
      // An account a check named is past that check: a refusal it meets that reads as one of
      // rights ("unauthorized op") is the next check's, and what it wanted is read like any other's.
      const refused = [...(explored?.refused ?? []), ...(depth > 1 ? (explored?.denied ?? []) : [])];
      return {
        candidate,
        entries: refused
          .filter((entry) => {
            const count = perFunction.get(entry.selector) ?? 0;
            perFunction.set(entry.selector, count + 1);
            return count < MAX_TRACED_PER_FUNCTION;
          })
          .map((entry, order) => ({ entry, order }))
          .sort((a, b) => a.entry.sequence - b.entry.sequence || a.order - b.order)
          .map(({ entry }) => entry),
      };
    });
  const traced: { candidate: PrivilegeCandidate; entry: Planned; denied?: true }[] = [];
  for (let index = 0; traced.length < MAX_TRACED_CALLS; index++) {
    const row = queues.filter((queue) => index < queue.entries.length);
    if (row.length === 0) break;
    for (const queue of row)
      if (traced.length < MAX_TRACED_CALLS)
        traced.push({ candidate: queue.candidate, entry: queue.entries[index] as Planned });
  }
  // Functions every account was refused for its rights: the first account's call, once each.
  const accountsExplored = queues.map((queue) => state.explored.get(queue.candidate) as Explored);
  const [firstQueue] = queues;
  const deniedEverywhere = (firstQueue ? (state.explored.get(firstQueue.candidate)?.denied ?? []) : [])
    .filter((entry) =>
      accountsExplored.every((other) => other.denied.some((call) => call.selector === entry.selector)),
    )
    .slice(0, MAX_DENIED_TRACED);
  if (firstQueue)
    for (const entry of deniedEverywhere)
      traced.push({ candidate: firstQueue.candidate, entry, denied: true });
  if (traced.length === 0) return;
  const { traces, error, unexpected } = await traceCalls(client, {
    blockNumber: parameters.blockNumber,
    calls: traced.map(({ candidate, entry }) => ({
      from: candidate.address,
      to: parameters.token,
      data: candidate.forwarder ? concatHex([entry.call.data, PROBE_ORIGIN]) : entry.call.data,
    })),
  });
  const round = state.result.comparisons;
  round.error ??= error;
  noteRoundFailure(state.result, 'comparison traces', unexpected);

  const wantedBy = new Map<PrivilegeCandidate, Map<Hex, Planned>>();
  const seen = new Set<string>();
  for (const address of [
    ...state.known.map((candidate) => candidate.address),
    ...[...state.explored.keys()].map((candidate) => candidate.address),
    ...(parameters.excluded ?? []),
    parameters.token,
    parameters.victim,
    PROBE_ORIGIN,
    parameters.router,
    parameters.pair,
  ])
    if (address) seen.add(address.toLowerCase());
  const callers = new Map<Address, { candidate: PrivilegeCandidate; only: Set<Hex> }>();
  const name = (address: Address, selector: Hex) => {
    const named = callers.get(address);
    if (named) named.only.add(selector);
    else if (!seen.has(address.toLowerCase()))
      callers.set(address, {
        candidate: { address, source: `compared with the caller by ${selector}` },
        only: new Set([selector]),
      });
  };
  const refusals: [Address, Hex][] = [];
  // The same call at a time it compared the clock with (a window that opens after a day and
  // closes before a year), per account and offset; the offsets the rounds ran at already are left.
  const timed = new Map<PrivilegeCandidate, Map<bigint, Planned[]>>();
  const offsets = new Set<bigint>();
  // Calls a function refused because their caller was not the token itself: a power the token
  // exercises on its own behalf, which an account reaches through a function that has the token
  // call itself (multicall, batch, execute). Each is handed to every other function below.
  const selfOnly = new Map<Hex, Planned>();
  traces.forEach((trace, index) => {
    const { candidate, entry, denied } = traced[index] as (typeof traced)[number];
    const words = state.explored.get(candidate)?.sequences[entry.sequence];
    if (!trace || !words) return;
    round.traced++;
    if (
      refusedAllButSelf(trace.c, candidate.address, parameters.token) &&
      !selfOnly.has(entry.selector) &&
      selfOnly.size < MAX_SELF_ONLY_FUNCTIONS
    )
      selfOnly.set(entry.selector, entry);
    // Offsets and lengths shape the ABI encoding, and the placeholder is filled in by the
    // detector: neither is a value a function compares.
    const skip = new Set(
      words.flatMap((word, at) =>
        /^(offset|length) /.test(word.name) || word.value === HOLDER_HALF ? [at] : [],
      ),
    );
    const harvest = harvestComparisons(trace.c, {
      caller: candidate.address,
      words: argumentWords(entry.call.data),
      skip,
      open: new Set(words.flatMap((word, at) => (word.name === OP_CODE ? [at] : []))),
    });
    round.comparisons += harvest.comparisons;
    // A call refused for its caller's rights wanted another caller, not other words or another time.
    if (!denied) {
      let planned = wantedBy.get(candidate);
      if (!planned) wantedBy.set(candidate, (planned = new Map<Hex, Planned>()));
      for (const { index: at, value } of harvest.wanted) {
        const changed = words.map((word, position) =>
          position === at ? { name: `${shown(value)} (what the call compared it with)`, value } : word,
        );
        const again = withWords(entry, changed);
        if (!planned.has(again.call.data)) planned.set(again.call.data, again);
      }
      for (const offset of harvestTimes(trace, {
        timestamp: parameters.blockTimestamp,
        number: parameters.blockNumber,
      })) {
        if (TIME_OFFSETS_SECONDS.some((tried) => BigInt(tried) === offset)) continue;
        if (!offsets.has(offset) && offsets.size >= MAX_COMPARED_TIMES) continue;
        offsets.add(offset);
        let at = timed.get(candidate);
        if (!at) timed.set(candidate, (at = new Map<bigint, Planned[]>()));
        at.set(offset, [...(at.get(offset) ?? []), entry]);
      }
    }
    for (const address of harvest.callers) name(address, entry.selector);
    if (harvest.refusedBy) refusals.push([harvest.refusedBy, entry.selector]);
  });
  // The accounts named by the check that refused a call which sent its caller too, after the
  // others (which no argument could have named).
  for (const [address, selector] of refusals) name(address, selector);
  const again = [...wantedBy].flatMap(([candidate, planned]) => {
    const calls = [...planned.values()].slice(0, MAX_WANTED_CALLS_PER_CANDIDATE);
    round.calls += calls.length;
    const explored = state.explored.get(candidate);
    if (calls.length === 0 || !explored) return [];
    // What worked with the value a comparison wanted is a step too: the later-block round stages
    // it (a budget accepted only below ten times the supply, proposed at that bound).
    return [
      explored.runAt(0, calls).then((outcome) => {
        explored.steps.succeeded.push(...outcome.succeeded.filter(({ entry }) => chained(entry)));
        // A wanted call that worked and wrote, then each wanted call refused: a command that arms
        // an account, then the one that uses it (op 7, then op 11).
        const pairs = outcome.succeeded
          .filter(({ entry, effect }) => !entry.prelude && effect.gasUsed >= WRITE_GAS)
          .flatMap(({ entry: first }) =>
            outcome.failed
              .filter((second) => !second.prelude && second.call.data !== first.call.data)
              .map((second) => twoCalls(first, second)),
          )
          .slice(0, MAX_WANTED_PAIRS_PER_CANDIDATE);
        if (pairs.length === 0) return outcome;
        round.calls += pairs.length;
        return explored.runAt(0, pairs);
      }),
    ];
  });
  const later = [...timed].flatMap(([candidate, at]) => {
    const runAt = state.explored.get(candidate)?.runAt;
    if (!runAt) return [];
    return [...at].map(([offset, calls]) => {
      round.timed += calls.length;
      return runAt(Number(offset), calls);
    });
  });
  const outer = batchTargets(parameters.selectors);
  // Each function that takes calls from the token alone is handed to every other function, by the
  // first accounts: the mint to the caller first (on every function, each way), then the take of
  // the holder's tokens and their burn (the two-call round's triggers).
  const wrapped: Promise<RunOutcome>[] = [];
  const accounts = state.known
    .filter((candidate) => !candidate.origin && state.explored.has(candidate))
    .slice(0, MAX_SELF_ONLY_ACCOUNTS);
  for (const entry of selfOnly.values())
    for (const candidate of accounts) {
      const explored = state.explored.get(candidate);
      if (!explored) continue;
      const calls: Planned[] = [];
      for (const sequence of TRIGGERS) {
        const words = explored.sequences[sequence];
        if (!words) continue;
        const shownInner = `${entry.selector}(${words.map((word) => word.name).join(', ')})`;
        const ways = wrappings(parameters.token, encode(entry.selector, words), shownInner);
        for (const selector of outer)
          for (const { args, data } of ways)
            if (selector !== entry.selector && calls.length < MAX_WRAPPING_CALLS)
              calls.push({
                selector,
                sequence,
                args,
                call: { label: selector, data: concatHex([selector, data]) },
                wrapped: true,
              });
      }
      round.wrapped += calls.length;
      if (calls.length > 0) wrapped.push(explored.runAt(0, calls));
    }
  const newcomers = [...callers.values()].slice(0, MAX_COMPARED_CALLERS);
  round.callers += newcomers.length;
  await Promise.all([
    ...again,
    ...later,
    ...wrapped,
    ...newcomers.map(({ candidate, only }) => state.explore(candidate, only)),
  ]);
  // The accounts a check named are refused in their turn by the next check (an operator, then the
  // op code its command must carry): their refusals are traced once more, no further.
  if (depth < MAX_COMPARISON_DEPTH && newcomers.length > 0)
    await comparisonRound(
      client,
      parameters,
      { ...state, known: newcomers.map(({ candidate }) => candidate) },
      depth + 1,
    );
}

/** A discovery that has made no call yet, of `selectorsTried` selectors. */
export function emptyDiscovery(selectorsTried: number): DiscoveryResult {
  return {
    findings: [],
    selectorsTried,
    calls: 0,
    roundTrips: 0,
    retried: { split: 0, resumed: 0 },
    sameCalls: { functions: 0, calls: 0 },
    failures: [],
    holderBuy: { wei: null, share: null, tried: 0, refused: false },
    heavyProbes: 0,
    pairs: { tried: 0, planned: 0 },
    triples: { tried: 0, planned: 0 },
    rescaled: 0,
    repeated: 0,
    toggled: 0,
    comparisons: { traced: 0, comparisons: 0, calls: 0, timed: 0, wrapped: 0, callers: 0, error: null },
    laterBlock: { tried: 0, planned: 0, calls: 0, error: null },
    timingsMs: {},
    outOfTime: null,
    holderTraded: false,
  };
}

/** Runs the probes (a few eth_calls per account) and returns what they demonstrated. */
export async function discoverPowers(
  node: Parameters<typeof probePrivileges>[0],
  parameters: DiscoverPowersParameters,
): Promise<DiscoveryResult> {
  const selectors = [...parameters.selectors].filter((selector) => !HARMLESS.has(selector));
  if (selectors.length > 0 && !selectors.includes(FALLBACK)) selectors.push(FALLBACK);
  const result = emptyDiscovery(selectors.length);
  if (selectors.length === 0 || parameters.candidates.length === 0) return result;
  const mark = lapTimer(result.timingsMs);
  const started = performance.now();
  // Whether the budget is spent: from then on every round trip not yet started is left out.
  const spent = (): boolean => {
    if (parameters.timeBudgetMs === undefined) return false;
    const elapsed = performance.now() - started;
    if (elapsed <= parameters.timeBudgetMs) return false;
    result.outOfTime ??= { afterMs: Math.round(elapsed), callsNotMade: 0, roundsLeftOut: [] };
    return true;
  };
  // Simulations and traces queued before the budget was spent and not yet sent are refused then.
  const client = inFlight(node, MAX_REQUESTS_IN_FLIGHT, spent);

  // Without any call, at the block and a year on: the holder's transfer and sell as they are,
  // and as the clock alone leaves them.
  const openings = new Map<number, CallEffect>();
  const [known] = await Promise.all([
    markForwarders(client, parameters),
    chooseHolderBuy(client, parameters, result),
  ]);
  mark('holder_buy');
  const candidates = parameters.readsOrigin
    ? [
        ...known,
        ...known.map((candidate) => ({
          ...candidate,
          origin: PROBE_ORIGIN,
          source: `${candidate.source}, in another wallet's transaction`,
        })),
      ]
    : known;
  // Per account explored: its runner, its argument shapes, and the calls refused for a reason other
  // than its rights (what the comparison round traces).
  const explored = new Map<PrivilegeCandidate, Explored>();
  // `only`: the functions an account is tried on, when not all (an account a comparison named is
  // tried on the functions that compared it, and not on the contracts the token relies on).
  const explore = async (candidate: PrivilegeCandidate, only?: ReadonlySet<Hex>): Promise<void> => {
    const mine = only ? selectors.filter((selector) => only.has(selector)) : selectors;
    // What this account's calls read at the block: one shape for a function that read none. The
    // trace is a round trip before the first round: made where a token has functions enough to pay
    // for it (a plain token's three functions do not).
    const [argumentless, actorIsWallet] = await Promise.all([
      candidate.origin || candidate.forwarder || mine.length < MIN_TRACED_SELECTORS || spent()
        ? new Set<Hex>()
        : argumentlessSelectors(client, {
            token: parameters.token,
            from: candidate.address,
            selectors: mine.filter((selector) => selector !== FALLBACK),
            blockNumber: parameters.blockNumber,
          }),
      isWallet(client, candidate.address, parameters.blockNumber),
    ]);
    result.sameCalls.functions += argumentless.size;
    // The call a planned one makes at the block: a plain call of a function that read no argument
    // is its selector, whatever words follow it.
    const sameCall = (entry: Planned): string =>
      argumentless.has(entry.selector) &&
      !entry.prelude &&
      !entry.target &&
      !entry.wrapped &&
      !entry.repeats &&
      !entry.churned &&
      entry.call.data.startsWith(entry.selector)
        ? entry.selector
        : entry.call.data;
    const context = {
      token: parameters.token,
      victim: parameters.victim,
      actor: candidate.address,
      pair: parameters.pair,
      router: parameters.router,
      supply: parameters.supply,
      balanceSlot: parameters.balanceSlot,
      holderHashes: parameters.holderHashes,
      holderReadsCodeHash: parameters.holderReadsCodeHash,
      holderCompared: parameters.holderCompared,
      actorIsWallet,
    };
    const common = argumentSequences(context);
    // The block-only shapes follow the common ones, so a call's `sequence` indexes either.
    // Last, for the contracts the token relies on alone: a level stored for the token (a policy
    // several tokens share keeps one per token, and the token is who asks it).
    const forToken = comparedSequences(context).map((words) => [
      address('the token', context.token),
      ...words,
    ]);
    const sequences = [...common, ...blockOnlySequences(context), ...forToken];
    const ownShapes = sequences.length - forToken.length;
    const plan = (selector: Hex, words: Word[], sequence: number): Planned => ({
      selector,
      sequence,
      args: words.map((word) => word.name),
      call: { label: selector, data: encode(selector, words) },
    });
    const planned: Planned[] = mine
      .filter((selector) => !ALONE.has(selector))
      .flatMap((selector) => common.map((words, sequence) => plan(selector, words, sequence)));
    // The functions of the contracts the token relies on (not the standard token functions such a
    // contract may have too), at the block only, first calls and first calls of pairs: with the
    // common shapes, and the values the holder's transfer compared a stored field with (a policy's
    // level, stored through the policy's own setter), alone and after the token.
    // As many of those as there are values for the token.
    const compared = forToken.length;
    const theirShapes = [
      ...common.map((words, sequence) => ({ words, sequence })),
      ...sequences.slice(ownShapes - compared).map((words, index) => ({
        words,
        sequence: ownShapes - compared + index,
      })),
    ];
    const theirs: Planned[] = (only ? [] : (parameters.elsewhere ?? [])).flatMap(
      ({ target, selectors: own }) =>
        own
          .filter((selector) => !HARMLESS.has(selector) && !ALONE.has(selector))
          .flatMap((selector) =>
            theirShapes.map(({ words, sequence }): Planned => {
              const entry = plan(selector, words, sequence);
              return {
                ...entry,
                target,
                call: { label: `${target}:${selector}`, data: elsewhereCall(target, entry.call.data) },
              };
            }),
          ),
    );
    // The selectors probed alone: the first seven shapes (an account or a number, then an
    // account and an amount), at the block only, beside the first round; transfer also sends
    // everything the caller holds away.
    const everything = sequences.findIndex((words) => words[1]?.value === CALLER_ALL);
    const sendAll = sequences[everything];
    const alone: Planned[] = mine
      .filter((selector) => ALONE.has(selector))
      .flatMap((selector) => [
        ...sequences
          .slice(0, argumentless.has(selector) ? 1 : ALONE_SHAPES)
          .map((words, sequence) => plan(selector, words, sequence)),
        ...(selector === TRANSFER && sendAll ? [plan(selector, sendAll, everything)] : []),
      ]);
    // The block-only shapes, for the other selectors, in the same round trips (none for a
    // function that reads no argument: each would be its first round's call again).
    const blockOnly: Planned[] = mine
      .filter((selector) => !ALONE.has(selector) && !argumentless.has(selector))
      .flatMap((selector) =>
        sequences
          .slice(common.length, ownShapes)
          .map((words, index) => plan(selector, words, common.length + index)),
      );
    const atBlockOnly = [...alone, ...blockOnly, ...theirs];
    // Calls that reverted now are tried a day on; every call a year on, where a power that
    // waits for a date (or whose effect does) shows.
    // A year on runs beside the pinned block. A day on then retries what the clock changed: a
    // call that reverted now and either worked a year on or reverted for another reason, and
    // not for the caller's lack of rights (which no day changes).
    const clockBlind = parameters.clockBlind === true;
    const [first, later, aloneRun] = await Promise.all([
      runAt(0, planned),
      clockBlind
        ? { failed: [], succeeded: [], baseline: undefined }
        : runAt(TIME_OFFSETS_SECONDS[1], planned),
      atBlockOnly.length > 0 ? runAt(0, atBlockOnly) : undefined,
    ]);
    const now = {
      failed: [...first.failed, ...(aloneRun?.failed ?? [])],
      succeeded: [...first.succeeded, ...(aloneRun?.succeeded ?? [])],
      baseline: first.baseline ?? aloneRun?.baseline,
    };
    // What steps of two or three calls are made from: not the selectors probed ALONE, and not the
    // block-only shapes (a slot hash where an address goes makes every getter revert, and a
    // getter that reverted once would count as a setter).
    const stepping = (entry: Planned) => chained(entry) && entry.sequence < common.length;
    const atBlock = {
      succeeded: now.succeeded.filter(({ entry }) => stepping(entry)),
      failed: now.failed.filter(stepping),
    };
    explored.set(candidate, {
      runAt,
      sequences,
      steps: atBlock,
      refused: now.failed.filter(
        (entry) =>
          stepping(entry) &&
          !entry.target &&
          !deniedToCaller(entry.revertReason) &&
          !shortOfDecoding(entry, now, sequences),
      ),
      denied: deniedOnce(
        now,
        sequences,
        stepping,
        new Set(
          result.findings
            .filter((entry) => entry.caller === candidate.address && !entry.prelude && !entry.first)
            .map((entry) => entry.selector),
        ),
      ),
    });
    const steps = {
      ...atBlock,
      laterSucceeded: later.succeeded.filter(({ entry }) => stepping(entry)),
      laterFailed: later.failed.filter(stepping),
    };
    const laterReason = new Map(later.failed.map((entry) => [entry.call.data, entry.revertReason]));
    const waiting = first.failed.filter(
      (entry) =>
        !clockBlind &&
        !deniedToCaller(entry.revertReason) &&
        (!laterReason.has(entry.call.data) || laterReason.get(entry.call.data) !== entry.revertReason),
    );
    // Two calls in a row, beside the day-on retries; not for an account that has shown every
    // class already with one call.
    const shownEvery = () =>
      new Set(
        result.findings.filter((entry) => entry.caller === candidate.address).map((entry) => entry.class),
      ).size === 3;
    // An account tried again inside another wallet's transaction gets the first round only: what
    // tx.origin opens is one call, and the rounds after it would double every budget.
    const done = shownEvery() || Boolean(candidate.origin);
    const pairs = done
      ? { planned: 0, pairs: [] }
      : pairPlan(steps.succeeded, steps.failed, mine, { limit: MAX_PAIRS_PER_CANDIDATE });
    // A first call that works only once the clock has moved (a renounce for show, reclaimed
    // after a date), followed a year on, on a budget of its own.
    const refusedNow = new Set(now.failed.map((entry) => entry.call.data));
    const laterPairs =
      done || clockBlind
        ? { planned: 0, pairs: [] }
        : pairPlan(steps.laterSucceeded, steps.laterFailed, mine, {
            firstOnlyIf: (entry) => refusedNow.has(entry.call.data),
            limit: MAX_LATER_PAIRS_PER_CANDIDATE,
          });
    result.pairs.planned += pairs.planned + laterPairs.planned;
    const kept = pairs.pairs;
    const keptLater = laterPairs.pairs;
    result.pairs.tried += kept.length + keptLater.length;
    // Small numbers a function took and stored (it wrote to storage and showed nothing), again
    // at the other scales a rate is counted in: each distinct call once, on a budget.
    const rescaledCalls = new Map<Hex, Planned>();
    if (!done)
      for (const { entry, effect } of steps.succeeded) {
        if (entry.prelude || entry.target || effect.gasUsed < WRITE_GAS) continue;
        for (const words of rescaled(sequences[entry.sequence] ?? [])) {
          const again = withWords(entry, words);
          if (!rescaledCalls.has(again.call.data)) rescaledCalls.set(again.call.data, again);
        }
      }
    const rescales = [...rescaledCalls.values()].slice(0, MAX_RESCALES_PER_CANDIDATE);
    result.rescaled += rescales.length;
    // Calls that moved the supply, the holder's share or their tax, short of a finding, made
    // again and again (a mint capped per call, a fee raised a step a call).
    const repeats = done
      ? []
      : repeatPlan(now.succeeded, now.baseline, sequences, parameters.supply).slice(
          0,
          MAX_REPEATED_PER_CANDIDATE,
        );
    result.repeated += repeats.length;
    // A call, then a function it opens (checked without trading first, cheaply), then the two
    // with the market trading between: an account kept out of something and taken back in once
    // balances have moved.
    const router = parameters.pair ? parameters.router : undefined;
    const toggleChecks = done || !router ? [] : togglePlan(atBlock.succeeded, atBlock.failed);
    const [, pairRun, , , , toggleRun] = await Promise.all([
      waiting.length > 0 ? runAt(TIME_OFFSETS_SECONDS[0], waiting) : undefined,
      kept.length > 0 ? runAt(0, kept) : undefined,
      keptLater.length > 0 ? runAt(TIME_OFFSETS_SECONDS[1], keptLater) : undefined,
      rescales.length > 0 ? runAt(0, rescales) : undefined,
      repeats.length > 0 ? runAt(0, repeats, REPEATS_PER_ROUND_TRIP) : undefined,
      toggleChecks.length > 0 ? runAt(0, toggleChecks) : undefined,
    ]);
    const toggles = toggleRun && router ? tradedBetween(toggleRun.succeeded, router) : [];
    result.toggled += toggles.length;
    if (toggles.length > 0) await runAt(0, toggles, TOGGLES_PER_ROUND_TRIP, undefined, TOGGLE_TRADING_WEI);
    // Three calls: a pair whose second call stored something too and showed nothing (a role
    // nominated, then accepted), then each function that refused every call in the first round.
    const triples =
      pairRun && !shownEvery() ? triplePlan(pairRun.succeeded, steps.succeeded, steps.failed) : [];
    result.triples.planned += triples.length;
    const keptTriples = triples.slice(0, MAX_TRIPLES_PER_CANDIDATE);
    result.triples.tried += keptTriples.length;
    if (keptTriples.length > 0) await runAt(0, keptTriples);

    async function runAt(
      offset: number,
      calls: Planned[],
      perTrip = CALLS_PER_ROUND_TRIP,
      staged?: readonly StagedCall[],
      tradingWei?: bigint,
    ): Promise<RunOutcome> {
      const failed: Planned[] = [];
      const succeeded: Outcome[] = [];
      let opening: CallEffect | undefined;
      // Calls that make the same call at the block are simulated once, and its effect given to each.
      const keyOf = (entry: Planned) =>
        offset === 0 && !staged && !tradingWei ? sameCall(entry) : entry.call.data;
      const same = new Map<string, Planned[]>();
      for (const entry of calls) {
        const key = keyOf(entry);
        const group = same.get(key);
        if (group) group.push(entry);
        else same.set(key, [entry]);
      }
      const unique = [...same.values()].map((group) => group[0] as Planned);
      result.sameCalls.calls += calls.length - unique.length;
      const chunks: Planned[][] = [];
      for (let start = 0; start < unique.length; start += perTrip)
        chunks.push(unique.slice(start, start + perTrip));
      while (chunks.length > 0) {
        const chunk = chunks.shift() as Planned[];
        if (spent()) {
          notMade(result, chunk.length);
          continue;
        }
        result.calls += chunk.length;
        result.roundTrips++;
        const probe = await probePrivileges(client, {
          token: parameters.token,
          actor: candidate.address,
          calls: chunk.map((entry) =>
            candidate.forwarder
              ? { ...entry.call, data: concatHex([entry.call.data, PROBE_ORIGIN]) }
              : entry.call,
          ),
          router: parameters.router,
          sellTo: parameters.pair,
          blockNumber: parameters.blockNumber,
          timeOffsetSeconds: offset,
          blockTimestamp: parameters.blockTimestamp,
          ...(parameters.gasPrice === undefined ? {} : { gasPrice: parameters.gasPrice }),
          ...(candidate.origin ? { origin: candidate.origin } : {}),
          ...(staged ? { staged } : {}),
          ...(tradingWei ? { tradingWei } : {}),
          ...holderBuyWith(result.holderBuy),
          stopping: spent,
        }).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        if ('error' in probe) {
          if (isRpcUnreachable(probe.error)) throw probe.error;
          // Refused while it waited, once the budget was spent: not made, not split.
          if (isOutOfTime(probe.error)) {
            notMade(result, chunk.length);
            result.calls -= chunk.length;
            result.roundTrips--;
            continue;
          }
          // A node without eth_simulateV1 (or one that refuses its overrides) loses the later-block
          // round alone: the scan's other probes stand, and the round says why.
          if (staged) {
            result.laterBlock.error ??= scrubUrls(String(probe.error)).slice(0, 200);
            noteLaterBlockFailure(result, probe.error);
            continue;
          }
          // A round trip that failed whole (a node's limit, a step that broke the probe itself; one
          // out of gas resumes instead, in probePrivileges): halve and try again.
          if (chunk.length > MIN_CHUNK) {
            result.retried.split++;
            const half = Math.ceil(chunk.length / 2);
            chunks.unshift(chunk.slice(0, half), chunk.slice(half));
            continue;
          }
          result.failures.push(
            `${candidate.address}${candidate.origin ? ` (sent by ${candidate.origin})` : ''} at +${offset}s: ${scrubUrls(String(probe.error)).slice(0, 200)}`,
          );
          continue;
        }
        const done = probe.value;
        // Stopped by the budget between the round trips of one probe: the calls it did not reach.
        const unreached = chunk.length - done.effects.length;
        if (unreached > 0) {
          notMade(result, unreached);
          result.calls -= unreached;
        }
        noteProbe(result, done);
        result.roundTrips += done.roundTrips - 1;
        result.retried.resumed += done.roundTrips - 1;
        const baseline = done.baselineEffect;
        opening ??= baseline;
        // The clock's test needs a holder who could trade: not the opening of the pair's account,
        // whose code the detector replaces (the holder's buy through it fails).
        // From one kind of transaction only: a limit that exempts the insider's own transactions
        // would otherwise read as a change the clock made.
        if (!staged && !candidate.origin && !openings.has(offset) && baseline.victimTransfer.attempted)
          openings.set(offset, baseline);
        done.effects.forEach((effect, index) => {
          const made = chunk[index] as Planned;
          const kinds = effect.ok
            ? classify(asSeenBy(candidate.address, parameters.pair, effect), baseline)
            : [];
          for (const entry of same.get(keyOf(made)) ?? [made]) {
            if (!effect.ok) {
              failed.push({ ...entry, revertReason: effect.revertReason });
              continue;
            }
            if (kinds.length === 0) succeeded.push({ entry, effect });
            for (const kind of kinds) result.findings.push(finding(kind, entry, candidate, offset, effect));
          }
        });
      }
      return { failed, succeeded, baseline: opening };
    }
  };
  await Promise.all(candidates.map((candidate) => explore(candidate)));
  mark('explore');
  // A round left out once the budget is spent is named (leftOut): its traces and simulations are
  // not calls counted in `callsNotMade`, and nothing they might have shown is ruled out.
  await Promise.all([
    comparisonRound(client, parameters, { explored, explore, result, known: candidates, spent }),
    forwarderRound(parameters, { explored, known: candidates }),
    forgedSignatureRound(client, parameters, { explored, explore, known: candidates, result, spent }),
  ]);
  mark('comparisons');
  // After the comparison round: the accounts it named are explored by then.
  if (!leftOut(result, spent, 'later_block'))
    await laterBlockRound(client, parameters, { explored, known: candidates, result, openings, spent });
  mark('later_block');
  // A token whose ordinary holder could neither send nor sell in any probe, with no call made (its
  // steps ran out of gas, or reverted), had no leak or limit measured: discovery did not finish.
  if (
    parameters.router &&
    parameters.pair &&
    result.roundTrips > 0 &&
    !result.holderTraded &&
    !result.outOfTime
  )
    result.failures.push(
      "the ordinary holder could neither send nor sell in any probe with no call made, so no call's effect on a holder was measured",
    );
  if (result.outOfTime)
    result.failures.push(
      `out of time: discovery stopped after ${result.outOfTime.afterMs} ms (budget ${parameters.timeBudgetMs} ms), ${result.outOfTime.callsNotMade} planned calls not made${result.outOfTime.roundsLeftOut.length > 0 ? `, ${result.outOfTime.roundsLeftOut.join(' and ')} round left out` : ''}`,
    );
  // The clock alone: the holder could sell at the block and cannot (or is taxed) later.
  for (const offset of TIME_OFFSETS_SECONDS) {
    const later = openings.get(offset);
    if (later && limitedAgainst(openings.get(0), later))
      result.findings.push(finding('limit', undefined, CLOCK, offset, later));
  }
  // Rounds run side by side and finish in whatever order the node answers: the findings are put
  // in one order (the fewest calls, the earliest time, the accounts' order, the call) so a scan's
  // first evidence does not depend on it.
  const rank = new Map<string, number>();
  candidates.forEach((candidate, index) => {
    const address = candidate.address.toLowerCase();
    if (!rank.has(address)) rank.set(address, index);
  });
  const key = (entry: PowerFinding) =>
    [
      (entry.first ? 2 : entry.prelude ? 1 : 0) +
        (entry.wrapped ? 1 : 0) +
        (entry.repeats > 1 ? 3 : 0) +
        (entry.afterTrading ? 2 : 0),
      entry.timeOffsetSeconds,
      rank.get(entry.caller.toLowerCase()) ?? candidates.length,
      entry.origin ? 1 : 0,
    ] as const;
  result.findings.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (
      x[0] - y[0] ||
      x[1] - y[1] ||
      x[2] - y[2] ||
      x[3] - y[3] ||
      (a.calldata < b.calldata ? -1 : a.calldata > b.calldata ? 1 : 0)
    );
  });
  return result;
}

/**
 * The two-call round of one account: each first call that worked, changed state (it spent what
 * a storage write costs) and demonstrated nothing, followed by each function that is not a plain
 * getter. First calls that name the caller come first, then the holder, then numbers, so a cut
 * budget keeps the likeliest. `firstOnlyIf` narrows the first calls (to those the clock let through).
 */
export function pairPlan(
  succeeded: readonly Outcome[],
  failed: readonly Planned[],
  selectors: readonly Hex[],
  {
    firstOnlyIf = () => true,
    limit = Number.POSITIVE_INFINITY,
  }: { firstOnlyIf?: (entry: Planned) => boolean; limit?: number } = {},
): { planned: number; pairs: Planned[] } {
  const firsts = succeeded
    .filter(
      ({ entry, effect }) =>
        !entry.prelude &&
        firstOnlyIf(entry) &&
        (PRELUDES as readonly number[]).includes(entry.sequence) &&
        effect.gasUsed >= WRITE_GAS,
    )
    .map(({ entry }) => entry)
    .sort((a, b) => a.sequence - b.sequence);
  if (firsts.length === 0) return { planned: 0, pairs: [] };
  // Getters are never second calls. The token's own functions only: a contract it relies on is
  // called first, never second.
  const own = (entry: Planned) => !entry.target;
  const getter = getters(
    succeeded.filter(({ entry }) => own(entry)),
    failed.filter(own),
  );
  const seconds = [...succeeded.map(({ entry }) => entry), ...failed].filter(
    (entry) =>
      own(entry) &&
      !entry.prelude &&
      (TRIGGERS as readonly number[]).includes(entry.sequence) &&
      !getter(entry.selector),
  );
  const unique = new Map<string, Planned>();
  for (const entry of seconds) unique.set(`${entry.selector}:${entry.sequence}`, entry);
  const ordered = [...unique.values()].sort(
    (a, b) => selectors.indexOf(a.selector) - selectors.indexOf(b.selector) || a.sequence - b.sequence,
  );
  // What a cut budget keeps first: each function's first working call before its other shapes,
  // and functions that refused every call in the first round (a role or a staged value would
  // open them) before those that worked already.
  const closed = closedFunctions(succeeded);
  const leading = new Set<Planned>();
  const led = new Set<string>();
  for (const first of firsts)
    if (!led.has(`${first.target ?? ''}${first.selector}`)) {
      led.add(`${first.target ?? ''}${first.selector}`);
      leading.add(first);
    }
  const rank = (first: Planned, second: Planned) =>
    (leading.has(first) ? 0 : 2) + (closed(second.selector) ? 0 : 1);
  const pairs = firsts.flatMap((first, firstIndex) =>
    ordered
      .filter((second) => first.target !== undefined || second.selector !== first.selector)
      .map((second, secondIndex) => ({ first, second, rank: rank(first, second), firstIndex, secondIndex })),
  );
  pairs.sort((a, b) => a.rank - b.rank || a.firstIndex - b.firstIndex || a.secondIndex - b.secondIndex);
  // Encoded only once cut to the budget: a token with many setters offers thousands.
  const kept = pairs.slice(0, limit).map(({ first, second }) => twoCalls(first, second));
  return { planned: pairs.length, pairs: kept };
}

/** `second` made just after `first`, in one simulation: the two-call round's and the toggle checks' entry. */
function twoCalls(first: Planned, second: Planned): Planned {
  return {
    selector: second.selector,
    sequence: second.sequence,
    args: second.args,
    prelude: first,
    own: second.call.data,
    call: {
      label: `${first.selector}+${second.selector}`,
      data: sequenceCall([first.call.data, second.call.data]),
    },
  };
}

/**
 * How long after the block the later-block round's second calls run, each in a simulation of its
 * own: 254 blocks on at twelve seconds a block (a clock that moves as a chain's; a window that
 * closes within hours is still open), and 23 hours on, 255 blocks (a wait shorter than a day). A
 * timelock's delay (a day or more, the notice holders get to leave) still holds. Nodes refuse a
 * simulation that reaches more than 256 blocks past its base.
 */
const LATER_BLOCK_SECONDS = [254 * 12, 23 * 3_600] as const;

/** Where a middle block (a confirmation between a proposal and its use) is made. */
type MiddleBlock = 'next' | 'halfway';
/**
 * The middle block of each later block: halfway to the first (25 minutes and 127 blocks after the
 * staging block, then as long again: a confirmation that opens minutes after its proposal, a
 * power that must be used within the hour), and right after the staging block before the second
 * (a confirmation at once, then a wait of up to 254 blocks or 23 hours, in blocks or in time).
 */
function middleAt(later: number): MiddleBlock {
  return later === LATER_BLOCK_SECONDS[0] ? 'halfway' : 'next';
}
/** Simulations the later-block round makes per token, and second calls in each. */
const MAX_LATER_BLOCK_SIMULATIONS = 16;
const MAX_LATER_BLOCK_CALLS = 32;
/** Staging calls one account sends in its block, at most (one per function). */
const MAX_STAGED_CALLS = 20;
/** Calls a staging block opened for an account, each tried in a block between it and the probe's. */
const MAX_OPENED_CALLS = 2;
/**
 * Other accounts' calls tried after a call the staging opened for one account (made in the middle
 * block), per later block at most.
 */
const MAX_OTHER_ACTOR_TRIES = 4;
/** Searches for the staging call behind a class a middle block showed, per token at most. */
const MAX_MIDDLE_SEARCHES = 4;
/**
 * The shapes staging calls are sent with, one block each, in preference per function: the holder
 * (an account flagged, frozen or nominated), the caller, then a number; and an account with a
 * large amount (a mint queued to the caller, a budget proposed), or 99 (a rate in per cent, where
 * a small type refuses a large word).
 */
const STAGING_SHAPES = [
  [1, 0, 3, 2],
  [4, 8, 7, 12, 0],
] as const;
/**
 * The shapes a later block's second calls are made with: the two-call round's triggers, then 0
 * and 1 (the id of the first proposal a queue stored).
 */
const SECOND_SHAPES = [...TRIGGERS, 2, 3] as const;
/** A call that changes nothing: the control block's staging call. */
const TOTAL_SUPPLY_CALL: Hex = TOTAL_SUPPLY;

/** One account's first round at the block, for the later-block round. */
interface AccountSteps {
  candidate: PrivilegeCandidate;
  succeeded: readonly Outcome[];
  failed: readonly Planned[];
}

/** One simulation: `by`'s staging calls in a block of their own, then `actor`'s calls in a later one. */
interface LaterBlockPlanned {
  by: PrivilegeCandidate;
  actor: PrivilegeCandidate;
  staged: Planned[];
  seconds: Planned[];
}

/**
 * The later-block round's plan. A power staged by one call and applied only in a later block (a
 * mint queued and executed once a short wait has passed; a budget a council proposes and a keeper
 * executes a block later; a fee or a freeze that bites from the next block) cannot show in one
 * simulation, where every call shares a block and a clock. Each account sends all its staging
 * calls (per function, the first of a STAGING_SHAPES row that worked and wrote to storage) as
 * transactions of its own in one block; a later block has the holder trade, and calls of the
 * functions that did nothing for anyone at the block (every call refused, or worked without
 * writing) by the staging account and by every account they did not refuse for its rights (those
 * they worked for first), then the other functions that are not plain getters (an apply that also
 * writes, the staging function again). One shape per function before any gets a second. Accounts
 * take turns, so one account's simulations cannot crowd out another's;
 * MAX_LATER_BLOCK_SIMULATIONS at most.
 */
export function laterBlockPlan(accounts: readonly AccountSteps[]): {
  planned: number;
  simulations: LaterBlockPlanned[];
} {
  const own = (entry: Planned) => !entry.target && !entry.prelude;
  const succeeded = accounts.flatMap((account) => account.succeeded.filter(({ entry }) => own(entry)));
  const wrote = new Set(
    succeeded.filter(({ effect }) => effect.gasUsed >= WRITE_GAS).map(({ entry }) => entry.selector),
  );
  const getter = getters(
    succeeded,
    accounts.flatMap((account) => account.failed.filter(own)),
  );
  const dormant = (selector: Hex) => !wrote.has(selector) && !getter(selector);
  // An account reaches a function when a call of it worked, or was refused for a reason other
  // than the caller's rights (a queue still empty, a block not yet come).
  const secondsOf = ({ succeeded, failed }: AccountSteps) => {
    const worked = new Set(succeeded.filter(({ entry }) => own(entry)).map(({ entry }) => entry.selector));
    const open = new Set(
      failed
        .filter((entry) => own(entry) && !deniedToCaller(entry.revertReason))
        .map((entry) => entry.selector),
    );
    const shapes = new Map<Hex, Planned[]>();
    for (const entry of [...succeeded.map(({ entry }) => entry), ...failed])
      if (
        own(entry) &&
        !getter(entry.selector) &&
        (SECOND_SHAPES as readonly number[]).includes(entry.sequence) &&
        (worked.has(entry.selector) || open.has(entry.selector)) &&
        !shapes.get(entry.selector)?.some((kept) => kept.sequence === entry.sequence)
      )
        shapes.set(entry.selector, [...(shapes.get(entry.selector) ?? []), entry]);
    // The dormant functions' first shapes, their other shapes, then the other functions' first.
    const order = (entry: Planned) => (SECOND_SHAPES as readonly number[]).indexOf(entry.sequence);
    const lists = [...shapes.entries()].map(
      ([selector, entries]) => [selector, entries.sort((a, b) => order(a) - order(b))] as const,
    );
    const firstOf = (keep: (selector: Hex) => boolean) =>
      lists.filter(([selector]) => keep(selector)).map(([, entries]) => entries[0] as Planned);
    const seconds = [
      ...firstOf(dormant),
      ...lists.filter(([selector]) => dormant(selector)).flatMap(([, entries]) => entries.slice(1)),
      ...firstOf((selector) => !dormant(selector)),
    ];
    return {
      dormant: seconds.some((entry) => dormant(entry.selector)),
      worked: [...worked].some(dormant),
      seconds: seconds.slice(0, MAX_LATER_BLOCK_CALLS),
    };
  };
  const reached = new Map(accounts.map((account) => [account, secondsOf(account)]));
  const stagedBy = (account: AccountSteps, preference: readonly number[]) => {
    const chosen = new Map<Hex, Planned>();
    for (const { entry, effect } of account.succeeded) {
      const rank = preference.indexOf(entry.sequence);
      const kept = chosen.get(entry.selector);
      if (
        own(entry) &&
        rank >= 0 &&
        effect.gasUsed >= WRITE_GAS &&
        (!kept || preference.indexOf(kept.sequence) > rank)
      )
        chosen.set(entry.selector, entry);
    }
    return [...chosen.values()].slice(0, MAX_STAGED_CALLS);
  };
  const turns = accounts.flatMap((account) => {
    // Accounts a dormant function worked for, then those it did not refuse for their rights, then
    // those that reach only functions that did something (an apply that also writes).
    const rank = (actor: AccountSteps) => {
      const reach = reached.get(actor);
      return reach?.worked ? 0 : reach?.dormant ? 1 : 2;
    };
    const others = accounts
      .filter((actor) => actor !== account && (reached.get(actor)?.seconds.length ?? 0) > 0)
      .sort((a, b) => rank(a) - rank(b));
    const blocks = STAGING_SHAPES.map((preference) => stagedBy(account, preference)).filter(
      (staged, index, all) =>
        staged.length > 0 &&
        !all
          .slice(0, index)
          .some(
            (earlier) =>
              earlier.length === staged.length && earlier.every((entry, at) => entry === staged[at]),
          ),
    );
    if (blocks.length === 0) return [];
    // Then each block of several calls again in the reverse order: a call that undoes another
    // (a proposal withdrawn) masks it only when sent after it.
    const reversed = blocks.filter((staged) => staged.length > 1).map((staged) => [...staged].reverse());
    return [
      [...blocks, ...reversed].flatMap((staged) =>
        [account, ...others].map((actor) => ({
          by: account.candidate,
          actor: actor.candidate,
          staged,
          seconds: reached.get(actor)?.seconds ?? [],
        })),
      ),
    ];
  });
  const simulations: LaterBlockPlanned[] = [];
  for (let index = 0; turns.some((turn) => index < turn.length); index++)
    for (const turn of turns) if (index < turn.length) simulations.push(turn[index] as LaterBlockPlanned);
  return { planned: simulations.length, simulations: simulations.slice(0, MAX_LATER_BLOCK_SIMULATIONS) };
}

/**
 * The size the ordinary holder buys with: of `holderBuySizes` (largest first), the first whose
 * buy, send and sell, with no call before them, all work and lose at most LIMIT_MAX_TAX_BPS, from
 * an account with no powers at the block. A token that treats larger holders otherwise (a fixed
 * cap, a whale tax, an "anti-sniper" freeze of large buyers, a launch cap on buys) would leave a
 * larger holder nothing a call could take away, and hide what an insider can do to smaller ones:
 * the holder is then the largest that is whole, down to the probe's default. One round trip per
 * size tried; a node that refuses the probe leaves the default.
 */
async function chooseHolderBuy(
  client: Parameters<typeof probePrivileges>[0],
  parameters: DiscoverPowersParameters,
  result: DiscoveryResult,
): Promise<void> {
  if (!parameters.router || !parameters.pair) return;
  for (const size of parameters.holderBuySizes ?? []) {
    result.holderBuy.tried++;
    const probe = await probeBuyingWith(
      client,
      {
        token: parameters.token,
        actor: PROBE_ORIGIN,
        calls: [],
        router: parameters.router,
        sellTo: parameters.pair,
        blockNumber: parameters.blockNumber,
        ...(parameters.gasPrice === undefined ? {} : { gasPrice: parameters.gasPrice }),
      },
      size.wei,
    ).catch((error: unknown) => {
      if (isRpcUnreachable(error)) throw error;
      return undefined;
    });
    if (!probe) return;
    result.roundTrips += probe.roundTrips;
    if (probe.heavy) result.heavyProbes++;
    // A refused buy leaves the holder nothing to send: not whole.
    if (holderWhole(probe.baselineEffect)) {
      result.holderBuy.wei = size.wei;
      result.holderBuy.share = size.share;
      return;
    }
  }
}

/**
 * What the ordinary holder buys with across one discovery: the size chooseHolderBuy kept until a
 * probe finds it refused (a launch cap, trading not open), then the probe's default, so a token
 * that refuses it pays for the refusal once per probe in flight, not in every probe.
 */
function holderBuyWith(holderBuy: DiscoveryResult['holderBuy']): { buyWei?: bigint } {
  return holderBuy.wei === null || holderBuy.refused ? {} : { buyWei: holderBuy.wei };
}

/** What a probe says of the discovery as a whole: the holder's buy refused, the token heavy. */
function noteProbe(result: DiscoveryResult, done: ProbeResult): ProbeResult {
  if (done.buyRefused) result.holderBuy.refused = true;
  if (done.heavy) result.heavyProbes++;
  const { victimTransfer, victimSell } = done.baselineEffect;
  if ((victimTransfer.attempted && victimTransfer.ok) || (victimSell.attempted && victimSell.ok))
    result.holderTraded = true;
  return done;
}

/** Calls left unmade because the budget is spent (which set `outOfTime`). */
function notMade(result: DiscoveryResult, calls: number): void {
  if (result.outOfTime) result.outOfTime.callsNotMade += calls;
}

/** Whether a round is left out because the budget is spent; the round is named in `outOfTime` once. */
function leftOut(result: DiscoveryResult, spent: () => boolean, round: string): boolean {
  if (!spent()) return false;
  const rounds = result.outOfTime?.roundsLeftOut;
  if (rounds && !rounds.includes(round)) rounds.push(round);
  return true;
}

/**
 * A round that did not run whole: a trace that failed for a reason other than the node's lack of
 * tracing (a tracer's timeout on a costly call, which the token chooses), or a later-block
 * simulation's like failure (noteLaterBlockFailure). A failure, once per round.
 */
function noteRoundFailure(result: DiscoveryResult, round: string, unexpected: string | null): void {
  if (!unexpected) return;
  const failure = `${round}: ${scrubUrls(unexpected).slice(0, 200)}`;
  if (!result.failures.some((each) => each.startsWith(`${round}: `))) result.failures.push(failure);
}

/**
 * A later-block simulation that failed: a node without eth_simulateV1 (or its block overrides)
 * loses the round as a matter of what it offers; anything else (a timeout, a probe that had no gas
 * left) is a round that did not run whole: a failure, once.
 */
function noteLaterBlockFailure(result: DiscoveryResult, error: unknown): void {
  if (isUnsupportedMethod(error) || isOutOfTime(error)) return;
  const message = scrubUrls((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '');
  noteRoundFailure(result, 'later-block round', message || 'failed');
}

/**
 * Runs the later-block round (laterBlockPlan) at each of LATER_BLOCK_SECONDS, after the
 * comparison round (the accounts it named act too). What a simulation shows (a second call's power; or, by
 * the staging account's own, a holder who could trade at the block and cannot in the later one,
 * which the clock alone does not do) counts once one staging call, sent alone, shows it too: that
 * call is the evidence, and a token whose setters only harm together shows nothing. Not for a
 * token every class was shown on already.
 */
async function laterBlockRound(
  client: Parameters<typeof probePrivileges>[0],
  parameters: DiscoverPowersParameters,
  state: {
    explored: Map<PrivilegeCandidate, Explored>;
    known: readonly PrivilegeCandidate[];
    result: DiscoveryResult;
    /** The holder's opening (no call) at the block, and the day-on one (what the clock alone does). */
    openings: ReadonlyMap<number, CallEffect>;
    /** Whether discovery's time budget is spent: no simulation starts after it. */
    spent: () => boolean;
  },
): Promise<void> {
  const { result } = state;
  const round = result.laterBlock;
  if (new Set(result.findings.map((entry) => entry.class)).size === 3) return;
  const named = [...state.explored.keys()].filter((candidate) => !state.known.includes(candidate));
  const accounts = [...state.known, ...named]
    .filter((candidate) => !candidate.origin && !candidate.forwarder && state.explored.has(candidate))
    .map((candidate) => {
      const { steps } = state.explored.get(candidate) as Explored;
      return { candidate, succeeded: steps.succeeded, failed: steps.failed };
    });
  const { planned, simulations } = laterBlockPlan(accounts);
  // Each plan is simulated at every later block.
  round.planned += planned * LATER_BLOCK_SECONDS.length;
  const atBlock = state.openings.get(0);
  const dayOn = state.openings.get(TIME_OFFSETS_SECONDS[0]);
  // The clock alone limits the holder within a day: no later block's limit can be told from it.
  const clockLimits = Boolean(atBlock && dayOn && limitedAgainst(atBlock, dayOn));
  const simulate = async (
    by: PrivilegeCandidate,
    actor: PrivilegeCandidate,
    staged: Hex[],
    calls: Planned[],
    later: number,
    then: Hex[] = [],
    thenBy: PrivilegeCandidate = actor,
  ) => {
    if (state.spent()) {
      notMade(result, calls.length);
      return undefined;
    }
    round.calls += calls.length;
    try {
      return await probePrivileges(client, {
        token: parameters.token,
        actor: actor.address,
        calls: calls.map((entry) => entry.call),
        router: parameters.router,
        sellTo: parameters.pair,
        blockNumber: parameters.blockNumber,
        timeOffsetSeconds: later,
        blockTimestamp: parameters.blockTimestamp,
        ...(parameters.gasPrice === undefined ? {} : { gasPrice: parameters.gasPrice }),
        staged: staged.map((data) => ({ from: by.address, data })),
        ...(then.length > 0
          ? {
              thenStaged: then.map((data) => ({ from: thenBy.address, data })),
              thenHalfway: middleAt(later) === 'halfway',
            }
          : {}),
        ...holderBuyWith(result.holderBuy),
      }).then((done) => noteProbe(result, done));
    } catch (error) {
      // Whatever the node answers (no eth_simulateV1, a refusal over HTTP, a timeout), this round
      // alone is lost: the scan's other probes stand, and the round says why.
      if (isOutOfTime(error)) return undefined;
      const message = error instanceof Error ? error.message : String(error);
      round.error ??= scrubUrls(message.split('\n')[0] ?? '').slice(0, 200);
      noteLaterBlockFailure(result, error);
      return undefined;
    }
  };
  // What one simulation shows: per class, the second call that showed it (none: the holder's
  // own trade in the later block, after the staging calls alone).
  const shown = (done: ProbeResult, actor: PrivilegeCandidate, calls: Planned[]) => {
    const kinds = new Map<PowerClass, { entry?: Planned; effect: CallEffect }>();
    done.effects.forEach((effect, index) => {
      for (const kind of classify(asSeenBy(actor.address, parameters.pair, effect), done.baselineEffect))
        if (!kinds.has(kind)) kinds.set(kind, { entry: calls[index] as Planned, effect });
    });
    if (!clockLimits && !kinds.has('limit') && limitedAgainst(atBlock, done.baselineEffect))
      kinds.set('limit', { effect: done.baselineEffect });
    return kinds;
  };
  /**
   * Two staging calls that show a class together where neither does alone (a recipient set and an
   * amount proposed, both needed): each staging call left out in turn, those whose absence hides
   * it, when they are two, sent alone in their order.
   */
  const stagedTogether = async (
    by: PrivilegeCandidate,
    actor: PrivilegeCandidate,
    staged: readonly Planned[],
    calls: Planned[],
    later: number,
    kind: PowerClass,
  ): Promise<{ calls: Planned[]; done: ProbeResult } | undefined> => {
    if (staged.length < 2) return undefined;
    const without = await Promise.all(
      staged.map((_, left) =>
        simulate(
          by,
          actor,
          staged.filter((__, index) => index !== left).map((entry) => entry.call.data),
          calls,
          later,
        ),
      ),
    );
    const needed = staged.filter((_, index) => {
      const done = without[index];
      return done !== undefined && !shown(done, actor, calls).has(kind);
    });
    if (needed.length !== 2) return undefined;
    const done = await simulate(
      by,
      actor,
      needed.map((entry) => entry.call.data),
      calls,
      later,
    );
    if (!done || !done.stagedOk.every(Boolean) || !shown(done, actor, calls).has(kind)) return undefined;
    return { calls: needed, done };
  };
  let middleSearches = 0;
  /**
   * The classes a staging block, then `middle` by `middleBy` (the actor, or another account the
   * staging opened it for) in a middle block (`middleAt`), then the actor's calls in the later
   * block show that the staging alone did not; each with the one staging call that does it
   * (beside a control staging block whose one call changes nothing) as evidence.
   */
  const confirmedAfter = async (
    by: PrivilegeCandidate,
    actor: PrivilegeCandidate,
    staged: readonly Planned[],
    middle: Planned,
    calls: Planned[],
    later: number,
    middleBy: PrivilegeCandidate = actor,
  ): Promise<PowerFinding[]> => {
    const kept: PowerFinding[] = [];
    round.tried++;
    const stagedData = staged.map((entry) => entry.call.data);
    const [done, without] = await Promise.all([
      simulate(by, actor, stagedData, calls, later, [middle.call.data], middleBy),
      simulate(by, actor, stagedData, calls, later),
    ]);
    if (!done || !without) return kept;
    const before = shown(without, actor, calls);
    for (const [kind, hit] of shown(done, actor, calls)) {
      if (!hit.entry || before.has(kind) || result.findings.some((entry) => entry.class === kind)) continue;
      // The search for the one staging call that does it costs a simulation per staging call: a
      // token whose middle call shows a class no single staging call confirms would pay it in
      // every plan at both later blocks.
      if (middleSearches >= MAX_MIDDLE_SEARCHES) continue;
      middleSearches++;
      const call = [hit.entry];
      const [control, ...alone] = await Promise.all([
        simulate(by, actor, [TOTAL_SUPPLY_CALL], call, later, [middle.call.data], middleBy),
        ...staged.map((entry) =>
          simulate(by, actor, [entry.call.data], call, later, [middle.call.data], middleBy),
        ),
      ]);
      if (!control || shown(control, actor, call).has(kind)) continue;
      const index = alone.findIndex(
        (single) => single?.stagedOk[0] && single.stagedOk[1] && shown(single, actor, call).has(kind),
      );
      const single = alone[index];
      const first = staged[index];
      if (!single || !first) continue;
      const again = shown(single, actor, call).get(kind) as { entry?: Planned; effect: CallEffect };
      kept.push(
        finding(
          kind,
          {
            ...hit.entry,
            prelude: { ...middle, stagedBy: middleBy.address, stagedMiddle: middleAt(later) },
            first: {
              ...first,
              args: first.args.map((name) => (name === 'caller' ? 'its sender' : name)),
              stagedBy: by.address,
            },
          },
          actor,
          later,
          again.effect,
        ),
      );
    }
    return kept;
  };
  // One later block after the other, the simulations of each side by side; what they confirm is
  // kept in the plan's order, once per class, so a scan's evidence does not depend on which
  // answer came first. True once every class is shown.
  const keep = (found: readonly PowerFinding[]) => {
    for (const finding of found)
      if (!result.findings.some((entry) => entry.class === finding.class)) result.findings.push(finding);
    return new Set(result.findings.map((entry) => entry.class)).size === 3;
  };
  for (const later of LATER_BLOCK_SECONDS) {
    // The calls each plan's staging opened for its actor, for the other accounts to act after.
    const openedBy: { plan: LaterBlockPlanned; middle: Planned }[][] = simulations.map(() => []);
    const confirmed = await Promise.all(
      simulations.map(async (plan, planIndex) => {
        const { by, actor, staged, seconds } = plan;
        const kept: PowerFinding[] = [];
        round.tried++;
        const done = await simulate(
          by,
          actor,
          staged.map((entry) => entry.call.data),
          seconds,
          later,
        );
        if (!done) return kept;
        for (const [kind, hit] of shown(done, actor, seconds)) {
          // A class shown already needs no more simulations (a token whose owner mints at will
          // would otherwise confirm that mint after every staging block).
          if ((!hit.entry && actor !== by) || result.findings.some((entry) => entry.class === kind)) continue;
          const calls = hit.entry ? [hit.entry] : [];
          // Which staging call alone does it: each in a simulation of its own, beside a control
          // block whose one call changes nothing.
          const [control, ...alone] = await Promise.all([
            simulate(by, actor, [TOTAL_SUPPLY_CALL], calls, later),
            ...staged.map((entry) => simulate(by, actor, [entry.call.data], calls, later)),
          ]);
          if (!control || shown(control, actor, calls).has(kind)) continue;
          const index = alone.findIndex(
            (single) => single?.stagedOk[0] && shown(single, actor, calls).has(kind),
          );
          const evidence =
            index >= 0
              ? { calls: [staged[index] as Planned], done: alone[index] as ProbeResult }
              : await stagedTogether(by, actor, staged, calls, later, kind);
          if (!evidence) continue;
          const again = shown(evidence.done, actor, calls).get(kind) as {
            entry?: Planned;
            effect: CallEffect;
          };
          // The staging calls' words were chosen for their own sender.
          const [first, second] = evidence.calls.map((entry): Planned => ({
            ...entry,
            args: entry.args.map((name) => (name === 'caller' ? 'its sender' : name)),
            stagedBy: by.address,
          })) as [Planned, Planned | undefined];
          const last = second ?? first;
          kept.push(
            again.entry
              ? finding(
                  kind,
                  { ...again.entry, prelude: last, ...(second ? { first } : {}) },
                  actor,
                  later,
                  again.effect,
                )
              : {
                  ...finding(kind, second ? { ...second, prelude: first } : first, by, later, again.effect),
                  measuredLater: true,
                },
          );
        }
        // Calls the staging opened for the actor (refused at the block, or working there, and
        // spending a write's gas more after it: a confirmation), each made in a block of its own
        // between the staging and the probe's (`middleAt`): a power applied only in a block after a
        // proposal's confirmation, itself in a block after the proposal. The gas each call used at
        // the block counts none for one refused there.
        const atBlock = state.explored.get(actor)?.steps;
        const gasAtBlock = new Map<Hex, bigint>([
          ...(atBlock?.failed ?? []).map((entry): [Hex, bigint] => [entry.call.data, 0n]),
          ...(atBlock?.succeeded ?? []).map(({ entry, effect }): [Hex, bigint] => [
            entry.call.data,
            effect.gasUsed,
          ]),
        ]);
        const opened = seconds
          .filter((entry, index) => {
            const effect = done.effects[index];
            const before = gasAtBlock.get(entry.call.data);
            return effect?.ok === true && before !== undefined && effect.gasUsed >= before + WRITE_GAS;
          })
          .slice(0, MAX_OPENED_CALLS);
        for (const middle of opened) {
          openedBy[planIndex]?.push({ plan, middle });
          kept.push(...(await confirmedAfter(by, actor, staged, middle, seconds, later)));
        }
        return kept;
      }),
    );
    if (keep(confirmed.flat())) return;
    // A confirmation by one account and the power by another (a guardian confirms, the owner
    // mints): each call opened for one account made in the middle block, then the calls of each
    // other account that acts after the same staging block, a few tries a later block. Each
    // opened call once per account that follows it (the same call opened by each of a staging
    // account's blocks is one try), calls opened for a third account (neither the staging account
    // nor the one that follows) first: a call the staging account opened for itself (a memo) is
    // the cheaper decoy.
    const seen = new Set<string>();
    const tries = openedBy
      .flat()
      .flatMap(({ plan, middle }) =>
        simulations
          .filter((other) => other.staged === plan.staged && other.actor !== plan.actor)
          .map((other) => ({ other, middle, middleBy: plan.actor })),
      )
      .filter(({ other, middle, middleBy }) => {
        const key = `${middleBy.address} ${middle.call.data} ${other.by.address} ${other.actor.address}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .sort((a, b) => Number(a.middleBy === a.other.by) - Number(b.middleBy === b.other.by))
      .slice(0, MAX_OTHER_ACTOR_TRIES);
    const byOthers = await Promise.all(
      tries.map(({ other, middle, middleBy }) =>
        confirmedAfter(other.by, other.actor, other.staged, middle, other.seconds, later, middleBy),
      ),
    );
    if (keep(byOthers.flat())) return;
  }
}

/**
 * The three-call round of one account: each two-call sequence that worked, whose second call
 * also wrote to storage and demonstrated nothing, followed by each function that refused every
 * call in the first round (what a nomination and its acceptance would open), in the pairs' order.
 */
export function triplePlan(
  pairs: readonly Outcome[],
  succeeded: readonly Outcome[],
  failed: readonly Planned[],
): Planned[] {
  const staged = pairs.filter(
    ({ entry, effect }) => entry.prelude && !entry.first && entry.own && effect.gasUsed >= WRITE_GAS,
  );
  if (staged.length === 0) return [];
  const closed = closedFunctions(succeeded);
  const thirds = new Map<string, Planned>();
  for (const entry of failed)
    if (
      !entry.prelude &&
      !entry.target &&
      (TRIGGERS as readonly number[]).includes(entry.sequence) &&
      closed(entry.selector)
    )
      thirds.set(`${entry.selector}:${entry.sequence}`, entry);
  return staged.flatMap(({ entry: pair }) => {
    const first = pair.prelude as Planned;
    const second: Planned = {
      selector: pair.selector,
      sequence: pair.sequence,
      args: pair.args,
      call: { label: pair.selector, data: pair.own as Hex },
    };
    return [...thirds.values()]
      .filter((third) => third.selector !== first.selector && third.selector !== second.selector)
      .map((third) => ({
        selector: third.selector,
        sequence: third.sequence,
        args: third.args,
        first,
        prelude: second,
        own: third.call.data,
        call: {
          label: `${first.selector}+${second.selector}+${third.selector}`,
          data: sequenceCall([first.call.data, second.call.data, third.call.data]),
        },
      }));
  });
}

/** The accounts a toggle may name, in the order toggles are tried. */
const TOGGLED_ACCOUNTS = ['pair', 'caller', 'holder'];

/** The account a toggle's calls name: their arguments are that account, then at most a 0 or a 1. */
function toggledAccount(entry: Planned): string | undefined {
  const [account, ...rest] = entry.args;
  if (account === undefined || !TOGGLED_ACCOUNTS.includes(account) || rest.length > 1) return undefined;
  return rest.every((word) => word === '0' || word === '1/true') ? account : undefined;
}

/**
 * The toggle round of one account, its first half: a call that named an account and stored
 * something (an account kept out of the reflections, say), then a function that refused the same
 * arguments at the block (not for the caller's rights: the account taken back in), as a plain
 * two-call simulation, which tells whether the first call opens the second. One per pair of
 * functions and account, the pool's first, then the caller's, then the holder's.
 */
export function togglePlan(succeeded: readonly Outcome[], failed: readonly Planned[]): Planned[] {
  const firsts = succeeded
    .filter(
      ({ entry, effect }) =>
        !entry.prelude &&
        !entry.repeats &&
        !entry.target &&
        effect.gasUsed >= WRITE_GAS &&
        toggledAccount(entry) !== undefined,
    )
    .map(({ entry }) => entry);
  const seconds = failed.filter(
    (entry) =>
      !entry.prelude &&
      !entry.target &&
      !deniedToCaller(entry.revertReason) &&
      toggledAccount(entry) !== undefined,
  );
  const planned = new Map<string, { first: Planned; second: Planned; rank: number }>();
  for (const first of firsts) {
    const account = toggledAccount(first) as string;
    for (const second of seconds) {
      const key = `${first.selector}:${second.selector}:${account}`;
      if (second.selector === first.selector || first.sequence !== second.sequence || planned.has(key))
        continue;
      planned.set(key, { first, second, rank: TOGGLED_ACCOUNTS.indexOf(account) });
    }
  }
  return [...planned.values()]
    .sort((a, b) => a.rank - b.rank)
    .slice(0, MAX_TOGGLE_CHECKS_PER_CANDIDATE)
    .map(({ first, second }) => twoCalls(first, second));
}

/**
 * The toggle round's second half: each checked pair whose second call worked after the first
 * (the first opened it), made again with the market trading between (the detector's CHURN: ten
 * buys for fresh wallets) and measured from the end of the trading. What the second call does to
 * balances the trading moved shows only there: a reflection token that takes an account back in
 * without restating its reflected balance at the new rate hands it the reflections every other
 * holder earned meanwhile.
 */
export function tradedBetween(opened: readonly Outcome[], router: Address): Planned[] {
  return opened.slice(0, MAX_TOGGLES_PER_CANDIDATE).map(({ entry }) => {
    const first = entry.prelude as Planned;
    return {
      ...entry,
      churned: true,
      call: {
        label: `${first.selector}+trading+${entry.selector}`,
        data: concatHex([
          CHURN,
          encodeAbiParameters(
            [{ type: 'address' }, { type: 'bytes[]' }, { type: 'bytes[]' }],
            [router, [first.call.data], [entry.own as Hex]],
          ),
        ]),
      },
    };
  });
}

/**
 * The repeat round of one account: a first-round call that worked and moved something in a
 * harmful direction short of a finding (the supply or the caller's balance up, the holder's
 * balance taken, the holder's transfer or sell taxed more) is made again as many times in a row
 * as would carry that step past the finding's threshold, when that is no more than MAX_REPEATS;
 * and a mint that took a small amount is made with its first amount at each LADDER rung of the
 * supply, as many times as half the supply takes. One of each per function (the first shape that
 * moved something, in the first round's order), never for a call that raised the holder's own
 * balance (a holder given half the supply trips every max-wallet limit, which is no harm). The run
 * ends with a read of totalSupply(), so a repeat the contract refuses partway (a cap in all) is
 * measured at what went through, not dropped.
 */
export function repeatPlan(
  succeeded: readonly Outcome[],
  baseline: CallEffect | undefined,
  sequences: readonly (readonly Word[])[],
  supply: bigint,
): Planned[] {
  const planned = new Map<Hex, Planned>();
  const add = (entry: Planned, words: readonly Word[], times: number) => {
    const data = encode(entry.selector, [...words]);
    if (times < 2 || times > MAX_REPEATS || planned.has(data)) return;
    planned.set(data, {
      selector: entry.selector,
      sequence: entry.sequence,
      args: words.map((word) => word.name),
      own: data,
      repeats: times,
      call: {
        label: `${entry.selector}×${times}`,
        data: sequenceCall([...Array<Hex>(times).fill(data), TOTAL_SUPPLY]),
      },
    });
  };
  const repeated = new Set<Hex>();
  const laddered = new Set<Hex>();
  for (const { entry, effect } of succeeded) {
    if (entry.prelude || entry.repeats || entry.target || effect.victimAfter > effect.victimBefore) continue;
    const words = sequences[entry.sequence];
    if (!words) continue;
    const times = repeated.has(entry.selector) ? undefined : timesToTell(effect, baseline);
    if (times !== undefined) {
      repeated.add(entry.selector);
      add(entry, words, times);
    }
    if (supply === 0n || mintedBy(effect) === 0n || laddered.has(entry.selector)) continue;
    if (words.some((word) => word.name === 'holder')) continue;
    const index = words.findIndex((word) => AMOUNT_WORDS.has(word.name));
    if (index < 0) continue;
    laddered.add(entry.selector);
    for (const rung of LADDER)
      add(
        entry,
        words.map((other, at) =>
          at === index ? { name: `1/${rung} of the supply`, value: supply / rung } : other,
        ),
        Number(rung / MINT_MIN_RAISE_DENOMINATOR) + 1,
      );
  }
  return [...planned.values()];
}

/** Word names that are amounts a ladder rung may replace. */
const AMOUNT_WORDS = new Set(['1/true', '99', HOLDER_HALF_NAME, '1× supply', '1000× supply']);

/** Tokens one call brought into being: the supply's rise, or the balances' rise beyond it. */
function mintedBy(effect: CallEffect): bigint {
  const { raised, held } = rises(effect);
  return held > raised ? held : raised;
}

/**
 * What one call raised: the supply, and the balances of the caller, the pair and the token
 * contract together (where a move from them would show as a fall); `held` is negative when they fell.
 */
function rises({ supplyBefore: s0, supplyAfter: s1, around }: CallEffect): { raised: bigint; held: bigint } {
  return {
    raised: s1 > s0 ? s1 - s0 : 0n,
    held:
      around.actorAfter +
      around.pairAfter +
      around.selfAfter -
      (around.actorBefore + around.pairBefore + around.selfBefore),
  };
}

/**
 * How many times in a row a call that moved something short of a finding must be made for the
 * step to reach the finding's threshold (one more, for rounding); undefined when it moved nothing
 * harmful, or would take more than MAX_REPEATS.
 */
function timesToTell(effect: CallEffect, baseline: CallEffect | undefined): number | undefined {
  const { supplyBefore: s0, supplyAfter: s1, victimBefore: v0, victimAfter: v1 } = effect;
  const counts: bigint[] = [];
  const minted = mintedBy(effect);
  // Half the supply again.
  if (minted > 0n && s0 > 0n) counts.push(ceilDiv(s0, minted * MINT_MIN_RAISE_DENOMINATOR) + 1n);
  // The holder's share down by LEAK_MIN_SHARE_LOSS_PPM, their balance taken (not only diluted).
  if (v0 > 0n && v1 < v0 && s1 > 0n && v1 * s0 < v0 * s1) {
    const lost = v0 * s1 - v1 * s0;
    counts.push(ceilDiv(v0 * s1 * LEAK_MIN_SHARE_LOSS_PPM, lost * 1_000_000n) + 1n);
  }
  // The holder's transfer or sell taxed past LIMIT_MAX_TAX_BPS.
  for (const [was, now] of holderLegs(baseline, effect)) {
    if (!was?.ok || !now.ok) continue;
    const step = (now.taxBps ?? 0) - (was.taxBps ?? 0);
    if (step > 0) counts.push(BigInt(Math.floor(LIMIT_MAX_TAX_BPS / step) + 2));
  }
  if (counts.length === 0) return undefined;
  const fewest = counts.reduce((a, b) => (a < b ? a : b));
  return fewest > BigInt(MAX_REPEATS) ? undefined : Number(fewest);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** Functions that refused every call of a round (what a staged value or a granted role would open). */
/** A getter: every call to it worked and cost no more than reading a slot or two. */
function getters(succeeded: readonly Outcome[], failed: readonly Planned[]): (selector: Hex) => boolean {
  const gas = new Map<Hex, bigint>();
  for (const { entry, effect } of succeeded)
    if (effect.gasUsed > (gas.get(entry.selector) ?? 0n)) gas.set(entry.selector, effect.gasUsed);
  const everFailed = new Set(failed.map((entry) => entry.selector));
  return (selector) => !everFailed.has(selector) && (gas.get(selector) ?? 0n) < GETTER_MAX_GAS;
}

function closedFunctions(succeeded: readonly Outcome[]): (selector: Hex) => boolean {
  const worked = new Set(succeeded.map(({ entry }) => entry.selector));
  return (selector) => !worked.has(selector);
}

/** Calls made one after another in one simulation: the detector's SEQUENCE. */
function sequenceCall(steps: readonly Hex[]): Hex {
  return concatHex([SEQUENCE, encodeAbiParameters([{ type: 'bytes[]' }], [steps])]);
}

const CLOCK: PrivilegeCandidate = { address: '0x0000000000000000000000000000000000000000', source: 'nobody' };

/** When the pair itself is the caller, its balance is the caller's: counted once, as the caller's. */
function asSeenBy(actor: Address, pair: Address | undefined, effect: CallEffect): CallEffect {
  if (!pair || actor.toLowerCase() !== pair.toLowerCase()) return effect;
  return { ...effect, around: { ...effect.around, pairBefore: 0n, pairAfter: 0n } };
}

/** The classes one call's effect demonstrates, measured against the same block without the call. */
export function classify(effect: CallEffect, baseline: CallEffect): PowerClass[] {
  const classes: PowerClass[] = [];
  if (!effect.ok) return classes;
  const { supplyBefore: s0, supplyAfter: s1, victimBefore: v0, victimAfter: v1, around } = effect;
  // Shares compared by cross-multiplication: v1/s1 against v0/s0.
  if (
    (s1 > s0 && (s1 - s0) * MINT_MIN_RAISE_DENOMINATOR >= s0 && v1 * s0 * 3n <= v0 * s1 * 2n) ||
    hiddenMint(effect)
  )
    classes.push('mint');
  if (
    (v0 > 0n &&
      v1 < v0 &&
      s1 > 0n &&
      v1 * s0 * 1_000_000n <= v0 * s1 * (1_000_000n - LEAK_MIN_SHARE_LOSS_PPM)) ||
    // The pool's tokens taken: the pair is a holder too, and a swap would have paid it.
    (around.pairBefore > 0n &&
      around.pairAfter * 10_000n < around.pairBefore * (10_000n - LEAK_MIN_POOL_LOSS_BPS) &&
      around.pairWethAfter <= around.pairWethBefore)
  )
    classes.push('leak');
  if (limitedAgainst(baseline, effect)) classes.push('limit');
  return classes;
}

/**
 * Balances raised without the supply: the caller's balance (with the pair's and the token
 * contract's, where a move from them would show as a fall) grew by half the supply or more beyond
 * what the supply rose, so tokens were written into being that totalSupply() does not count.
 */
function hiddenMint(effect: CallEffect): boolean {
  const { raised, held } = rises(effect);
  return (
    effect.supplyBefore > 0n &&
    held > 0n &&
    (held - raised) * MINT_MIN_RAISE_DENOMINATOR >= effect.supplyBefore
  );
}

/** The holder's transfer, sell before a receipt and sell after it: without the call, and after it. */
function holderLegs(before: CallEffect | undefined, after: CallEffect) {
  return [
    [before?.victimTransfer, after.victimTransfer],
    [before?.victimEarlySell, after.victimEarlySell],
    [before?.victimSell, after.victimSell],
  ] as const;
}

/** The holder sent and sold (and, where it sold first, that too) and lost at most 10 % in each. */
function holderWhole(effect: CallEffect): boolean {
  const whole = (leg: CallEffect['victimSell']) =>
    leg.attempted && leg.ok && (leg.taxBps ?? 0) <= LIMIT_MAX_TAX_BPS;
  return (
    whole(effect.victimTransfer) &&
    whole(effect.victimSell) &&
    (!effect.victimEarlySell.attempted || whole(effect.victimEarlySell))
  );
}

/** The holder could transfer or sell in `before` and cannot (or loses > 10 % more) in `after`. */
function limitedAgainst(before: CallEffect | undefined, after: CallEffect): boolean {
  if (!before) return false;
  return holderLegs(before, after).some(([was, now]) => {
    if (!was?.attempted || !was.ok || !now.attempted) return false;
    if (!now.ok) return true;
    return (now.taxBps ?? 0) - (was.taxBps ?? 0) > LIMIT_MAX_TAX_BPS && (now.taxBps ?? 0) > LIMIT_MAX_TAX_BPS;
  });
}

function finding(
  kind: PowerClass,
  entry: Planned | undefined,
  candidate: PrivilegeCandidate,
  offset: number,
  effect: CallEffect,
): PowerFinding {
  const leg = (value: CallEffect['victimTransfer']) =>
    !value.attempted
      ? 'not attempted'
      : value.ok
        ? `ok${value.taxBps ? `, ${value.taxBps / 100} % taken` : ''}`
        : `reverted${value.revertReason ? `: ${value.revertReason}` : ''}`;
  return {
    class: kind,
    selector: entry?.selector ?? '0x',
    target: entry?.target ?? null,
    signature: entry
      ? entry.target
        ? null
        : (KNOWN_NAMES.get(entry.selector) ?? null)
      : 'no call: the clock alone',
    caller: candidate.address,
    callerSource: entry ? candidate.source : 'nobody: the clock alone',
    origin: candidate.origin ?? null,
    args: entry?.args ?? [],
    prelude: entry?.prelude ? earlierCall(entry.prelude) : null,
    first: entry?.first ? earlierCall(entry.first) : null,
    repeats: entry?.repeats ?? 1,
    repeatedCall: entry?.repeats ? (entry.own ?? null) : null,
    calldata: entry ? (entry.target && !entry.prelude ? innerCall(entry) : entry.call.data) : '0x',
    timeOffsetSeconds: offset,
    ...(entry?.wrapped ? { wrapped: true as const } : {}),
    ...(entry?.churned ? { afterTrading: true as const } : {}),
    diff: {
      supply_before: effect.supplyBefore.toString(),
      supply_after: effect.supplyAfter.toString(),
      holder_balance_before: effect.victimBefore.toString(),
      holder_balance_after: effect.victimAfter.toString(),
      holder_transfer: leg(effect.victimTransfer),
      holder_sell_before_receipt: leg(effect.victimEarlySell),
      holder_sell: leg(effect.victimSell),
      holder_buy_wei: effect.holderBuyWei.toString(),
      caller_balance_before: effect.around.actorBefore.toString(),
      caller_balance_after: effect.around.actorAfter.toString(),
      pair_balance_before: effect.around.pairBefore.toString(),
      pair_balance_after: effect.around.pairAfter.toString(),
    },
  };
}

function earlierCall(entry: Planned): EarlierCall {
  return {
    selector: entry.selector,
    target: entry.target ?? null,
    signature: entry.target ? null : (KNOWN_NAMES.get(entry.selector) ?? null),
    args: entry.args,
    calldata: entry.target ? innerCall(entry) : (entry.own ?? entry.call.data),
    ...(entry.stagedBy ? { caller: entry.stagedBy, earlierBlock: true as const } : {}),
    ...(entry.stagedMiddle ? { middleBlock: entry.stagedMiddle } : {}),
  };
}

/** The call an ELSEWHERE step carries, as sent to its contract. */
function innerCall(entry: Planned): Hex {
  const [, data] = decodeAbiParameters(
    [{ type: 'address' }, { type: 'bytes' }],
    `0x${entry.call.data.slice(10)}`,
  );
  return data;
}

/** The client with its requests (calls, simulations, traces) `limit` at a time; reads alike. */
function inFlight(client: PublicClient, limit: number, spent: () => boolean): PublicClient {
  const queue = pLimit(limit);
  // A simulation or trace that gets its slot after the budget is spent is refused there, unsent.
  const gate = <T>(method: string, send: () => Promise<T>) =>
    queue(() =>
      BUDGETED_METHODS.has(method) && spent() ? Promise.reject(new OutOfTimeError(method)) : send(),
    );
  const call: PublicClient['call'] = (args) => gate('eth_call', () => client.call(args));
  const request = ((args: Parameters<PublicClient['request']>[0]) =>
    gate((args as { method: string }).method, () => client.request(args))) as PublicClient['request'];
  return { ...client, call, request };
}

/** The requests discovery's budget stops: its simulations and traces (reads of code and storage go on). */
const BUDGETED_METHODS = new Set(['eth_call', 'eth_simulateV1', 'debug_traceCall']);
