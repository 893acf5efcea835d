import type { Address, Hex, PublicClient } from 'viem';
import { encodeFunctionData, erc20Abi, getAddress, numberToHex } from 'viem';
import { isUnsupportedMethod } from '../../clients/chains/rpcErrors.ts';
import { isOutOfTime } from './outOfTime.ts';

/**
 * What a refused call wanted, read from its own execution: input-to-state correspondence, the idea
 * behind REDQUEEN's fuzzing (Aschermann et al., NDSS 2019), for power discovery. A call that
 * reverted for a reason other than the caller's rights is traced once, and every comparison (EQ,
 * LT, GT, SLT, SGT) one of whose operands is an argument word the call sent names what the
 * function wanted in that word's place: the other operand, and for an order its neighbours too (a
 * rate accepted only between two bounds, an exact amount, an op code). A comparison with the
 * caller's own address names the account the function wanted as its caller instead: one computed
 * at run time (an XOR of two constants, a CREATE2 address) that no storage read or code scan finds.
 *
 * The trace is debug_traceCall with a small JavaScript tracer (geth's tracer API, which geth,
 * erigon, reth and anvil run) that keeps only comparison operands, keccak256 results, the storage
 * slots read and the contracts called, each list capped: what comes back is a few kilobytes
 * whatever the token does, unlike the struct logger's full stack at every step. Hand-written
 * because no library reads comparisons out of an EVM trace. A node without debug_traceCall or
 * JavaScript tracers answers an error: every error here is an answer of "nothing found", never a
 * failed scan.
 */

/** Gas a traced call may burn: a gate and a loop or two, not a runaway the tracer would step through. */
const TRACE_GAS = 500_000n;
/** How long the node may trace one call (geth and erigon honour it). */
const TRACE_TIMEOUT = '2s';
/** Replacements one traced call yields at most. */
const MAX_WANTED_PER_CALL = 8;
/** Traces sent together (one JSON-RPC batch each; the tracer's answers are a few kilobytes). */
const TRACES_PER_BATCH = 8;
const MAX_WORD = 2n ** 256n - 1n;
/** An account compared with the caller is a 160-bit word with many bits set (not a small constant). */
const MIN_ACCOUNT = 2n ** 96n;
const MAX_ACCOUNT = 2n ** 160n;
const ADDRESS_MASK = MAX_ACCOUNT - 1n;
const COMMON = new Set([0n, 1n, MAX_WORD]);

/**
 * The tracer: comparisons (op and the two operands, top first; the last 400, in order: the one
 * that refused is near the end; a SUB whose result a JUMPI takes at once counts as EQ, as solc
 * compiles `if (a == b)` to a jump on a - b; kept as 'SUB', read as an equality ranked after the rest), keccak256 results
 * read off the next step at the same depth (32), storage slots read (256), the addresses of
 * the contracts called (16), the comparisons and masks (AND) made within twelve steps of a storage
 * read's answer at the same depth (the last 64: a stored field unpacked and compared), the block's
 * time and number as the call read them (the value TIMESTAMP or NUMBER pushed, read off the next
 * step), and whether it read any account's code hash (EXTCODEHASH). Plain ES5, as the tracer
 * engines take it.
 */
export const COMPARISON_TRACER = `{
  c: [], cn: 0, h: [], s: {}, sn: 0, a: [], pending: 0, clock: '', t: '', n: '', x: 0,
  k: [], kn: 0, i: 0, ld: -1, li: 0, loaded: 0, sub: null, si: 0, sd: -1,
  step: function (log) {
    var depth = log.getDepth();
    this.i++;
    if (this.pending) {
      if (this.pending === depth && this.h.length < 32) this.h.push(log.stack.peek(0).toString(16));
      this.pending = 0;
    }
    if (this.loaded) {
      if (this.loaded === depth) { this.ld = depth; this.li = this.i; }
      this.loaded = 0;
    }
    if (this.clock === 't') this.t = log.stack.peek(0).toString(16);
    if (this.clock === 'n') this.n = log.stack.peek(0).toString(16);
    this.clock = '';
    var op = log.op.toString();
    if (op === 'TIMESTAMP' && !this.t) this.clock = 't';
    else if (op === 'NUMBER' && !this.n) this.clock = 'n';
    var compares = op === 'EQ' || op === 'LT' || op === 'GT' || op === 'SLT' || op === 'SGT';
    if ((compares || op === 'AND') && depth === this.ld && this.i - this.li <= 12) {
      this.k[this.kn % 64] = [op, log.stack.peek(0).toString(16), log.stack.peek(1).toString(16)];
      this.kn++;
    }
    if (compares) {
      this.c[this.cn % 400] = [op, log.stack.peek(0).toString(16), log.stack.peek(1).toString(16)];
      this.cn++;
    } else if (op === 'SUB') {
      this.sub = [log.stack.peek(0).toString(16), log.stack.peek(1).toString(16)];
      this.si = this.i;
      this.sd = depth;
    } else if (op === 'JUMPI') {
      if (this.sub && depth === this.sd && this.i - this.si <= 2) {
        this.c[this.cn % 400] = ['SUB', this.sub[0], this.sub[1]];
        this.cn++;
      }
      this.sub = null;
    } else if (op === 'SHA3' || op === 'KECCAK256') {
      this.pending = depth;
    } else if (op === 'SLOAD') {
      if (this.sn < 256) { this.s[log.stack.peek(0).toString(16)] = 1; this.sn++; }
      this.loaded = depth;
    } else if (op === 'CALL' || op === 'STATICCALL' || op === 'DELEGATECALL' || op === 'CALLCODE') {
      if (this.a.length < 16) this.a.push(log.stack.peek(1).toString(16));
    } else if (op === 'EXTCODEHASH') {
      this.x = 1;
    }
  },
  fault: function () {},
  result: function () {
    var at = this.cn % 400;
    var c = this.cn > 400 ? this.c.slice(at).concat(this.c.slice(0, at)) : this.c;
    var kat = this.kn % 64;
    var k = this.kn > 64 ? this.k.slice(kat).concat(this.k.slice(0, kat)) : this.k;
    return { c: c, h: this.h, s: Object.keys(this.s), a: this.a, t: this.t, n: this.n, x: this.x, k: k };
  }
}`;

/** What the tracer returns (hex words without a prefix). */
export interface CallTrace {
  c: [op: string, top: string, second: string][];
  h: string[];
  s: string[];
  a: string[];
  /** The block's timestamp and number as the call read them; empty when it read neither. */
  t?: string;
  n?: string;
  /** 1 when the call read an account's code hash (EXTCODEHASH); absent from older answers. */
  x?: number;
  /**
   * Comparisons and masks (AND) made soon after a storage read's answer, as `c` (the last 64);
   * absent from older answers.
   */
  k?: [op: string, top: string, second: string][];
}

/** A word the function compared an argument word with: put `value` at argument `index` instead. */
interface Wanted {
  index: number;
  value: bigint;
}

export interface ComparisonHarvest {
  wanted: Wanted[];
  /** Accounts the function compared its caller with (from a call that did not send its caller). */
  callers: Address[];
  /**
   * From a call that sent its caller as a word too: the account of the trace's last comparison,
   * an equality with the caller (the check that refused).
   */
  refusedBy?: Address;
  /** Comparison steps read. */
  comparisons: number;
}

function word(value: string): bigint {
  return BigInt(`0x${value.replace(/^0x/i, '')}`);
}

/**
 * The comparisons of one trace, against the words the call sent (its argument words, after the
 * selector) and its caller. The last comparisons first: the one nearest the revert is the one that
 * refused, and the ABI decoder's checks come before it. Words at `skip` (offsets, lengths, a
 * placeholder the detector fills in) are not replaced; words at `open` (a command's op code, which
 * no other shape fills) are replaced by 0 and 1 too. An account compared with the caller is
 * taken from every comparison of a call none of whose words is the caller (`callers`), and from a
 * call that sent the caller too only where the trace's last comparison, the check that refused,
 * is an equality of the caller with it (`refusedBy`: `msg.sender == pass.ownerOf(1)`; an earlier
 * one could be an argument compared with a list). Pure: the trace in, what the function wanted out.
 */
/** A compared word read as an account: 160 bits with many set (not a small constant), else undefined. */
export function asAccount(value: bigint): Address | undefined {
  return value >= MIN_ACCOUNT && value < MAX_ACCOUNT
    ? getAddress(numberToHex(value, { size: 20 }))
    : undefined;
}

/** An equality: EQ, or a SUB whose result a jump took at once (the tracer's 'SUB'). */
const equality = (op: string | undefined) => op === 'EQ' || op === 'SUB';

export function harvestComparisons(
  comparisons: CallTrace['c'],
  call: {
    caller: Address;
    words: readonly bigint[];
    skip?: ReadonlySet<number>;
    open?: ReadonlySet<number>;
  },
): ComparisonHarvest {
  const caller = BigInt(call.caller);
  const sent = new Set(call.words);
  const callerSent = sent.has(caller);
  const wanted = new Map<string, Wanted>();
  const callers = new Set<Address>();
  const account = asAccount;
  // Where the caller was sent too, only the comparison that refused names one: the trace's last,
  // an equality of the caller with an account.
  const [finalOp, finalTop, finalSecond] = comparisons.at(-1) ?? [];
  const refusedBy =
    callerSent && equality(finalOp) && finalTop !== undefined && finalSecond !== undefined
      ? word(finalTop) === caller
        ? account(word(finalSecond))
        : word(finalSecond) === caller
          ? account(word(finalTop))
          : undefined
      : undefined;
  // The last first; the equalities read off a SUB and a jump after every comparison the code made
  // as one, so that constants it only subtracts (decoys after the real check) cannot push out
  // what a compiled EQ compared.
  const ordered = [...comparisons].reverse();
  for (const [op, top, second] of [
    ...ordered.filter(([op]) => op !== 'SUB'),
    ...ordered.filter(([op]) => op === 'SUB'),
  ]) {
    const a = word(top);
    const b = word(second);
    for (const [mine, other] of [
      [a, b],
      [b, a],
    ] as const) {
      if (mine === other) continue;
      const named = callerSent || mine !== caller ? undefined : account(other);
      if (named) callers.add(named);
      if (sent.has(other)) continue;
      call.words.forEach((value, index) => {
        if (value !== mine || call.skip?.has(index)) return;
        const values = equality(op) ? [other] : [other - 1n, other, other + 1n];
        for (const candidate of values) {
          // 0, 1 and the largest word are among every call's shapes already (`x > 1` still wants 2),
          // but in a word only one shape fills.
          const common = COMMON.has(candidate) && !call.open?.has(index);
          if (candidate < 0n || candidate > MAX_WORD || sent.has(candidate) || common) continue;
          const key = `${index}:${candidate}`;
          if (!wanted.has(key) && wanted.size < MAX_WANTED_PER_CALL)
            wanted.set(key, { index, value: candidate });
        }
      });
    }
  }
  return {
    wanted: [...wanted.values()],
    callers: [...callers],
    ...(refusedBy ? { refusedBy } : {}),
    comparisons: comparisons.length,
  };
}

/** How far ahead a compared time may lie and still be tried: ten years. */
const MAX_AHEAD_SECONDS = 10n * 365n * 86_400n;
/** Seconds a block takes, as the detector moves the block number with the clock. */
const BLOCK_SECONDS = 12n;

/**
 * The times a refused call compared the clock with: the other operand of each comparison of the
 * block's timestamp (or number) as the call read it, when it lies ahead, as the seconds to move
 * the clock on from `now` so the call runs one second (one block) past it. A power open only in
 * a window (from two days after launch to thirty) shows neither at the block, a day on nor a year
 * on; its own comparison says when. Latest comparisons first; pure.
 */
export function harvestTimes(
  trace: Pick<CallTrace, 'c' | 't' | 'n'>,
  now: { timestamp: bigint; number: bigint },
): bigint[] {
  const clocks: [read: bigint, toOffset: (other: bigint) => bigint, ahead: bigint][] = [];
  if (trace.t) clocks.push([word(trace.t), (other) => other + 1n - now.timestamp, MAX_AHEAD_SECONDS]);
  if (trace.n)
    clocks.push([
      word(trace.n),
      (other) => (other + 1n - now.number) * BLOCK_SECONDS,
      MAX_AHEAD_SECONDS / BLOCK_SECONDS,
    ]);
  const offsets = new Set<bigint>();
  for (const [, top, second] of [...trace.c].reverse()) {
    const a = word(top);
    const b = word(second);
    for (const [read, toOffset, ahead] of clocks)
      for (const [mine, other] of [
        [a, b],
        [b, a],
      ] as const) {
        if (mine !== read || other <= read || other - read > ahead) continue;
        const offset = toOffset(other);
        if (offset > 0n) offsets.add(offset);
      }
  }
  return [...offsets];
}

/** The argument words of a call's data (after the selector), whole words only. */
export function argumentWords(data: Hex): bigint[] {
  const body = data.slice(10);
  const words: bigint[] = [];
  for (let at = 0; at + 64 <= body.length; at += 64) words.push(BigInt(`0x${body.slice(at, at + 64)}`));
  return words;
}

/** A trace answer as the tracer shapes it, or null for anything else a node might answer. */
function asTrace(answer: unknown): CallTrace | null {
  if (!answer || typeof answer !== 'object') return null;
  const { c, h, s, a } = answer as Record<string, unknown>;
  const strings = (value: unknown) =>
    Array.isArray(value) &&
    value.every((entry) => typeof entry === 'string' && /^(0x)?[0-9a-f]{1,64}$/i.test(entry));
  if (!strings(h) || !strings(s) || !strings(a) || !Array.isArray(c)) return null;
  const { t, n, k } = answer as Record<string, unknown>;
  const clock = (value: unknown) => value === undefined || value === '' || strings([value]);
  if (!clock(t) || !clock(n)) return null;
  const triples = (value: unknown[]) =>
    value.every(
      (entry) =>
        Array.isArray(entry) && entry.length === 3 && typeof entry[0] === 'string' && strings(entry.slice(1)),
    );
  if (!triples(c)) return null;
  // What the storage reads were compared with is an extra: a malformed list is dropped alone.
  const { k: _dropped, ...rest } = answer as CallTrace;
  return Array.isArray(k) && triples(k) ? (answer as CallTrace) : rest;
}

export interface TracedCall {
  from: Address;
  to: Address;
  data: Hex;
  /** Storage words to set first, by contract (the node's state overrides). */
  storage?: Record<Address, Record<Hex, Hex>>;
}

export interface TraceCallsResult {
  /** One trace per call, in order; null where that call's trace failed. */
  traces: (CallTrace | null)[];
  /** The first error a trace answered (the node has no debug_traceCall, say); null when none. */
  error: string | null;
  /**
   * The first error that was not the node's lack of tracing (isUnsupportedMethod): a trace this
   * call could not finish (a tracer out of time on a costly call); null when none.
   */
  unexpected: string | null;
}

/** Traces each call at `blockNumber`, a few at a time. Never throws: a failed trace is null. */
export async function traceCalls(
  client: PublicClient,
  { blockNumber, calls }: { blockNumber: bigint; calls: readonly TracedCall[] },
): Promise<TraceCallsResult> {
  const request = client.request as unknown as (args: {
    method: string;
    params: unknown[];
  }) => Promise<unknown>;
  let error: string | null = null;
  let unexpected: string | null = null;
  const traces: (CallTrace | null)[] = [];
  for (let start = 0; start < calls.length; start += TRACES_PER_BATCH) {
    const batch = calls.slice(start, start + TRACES_PER_BATCH);
    traces.push(
      ...(await Promise.all(
        batch.map(async (call) => {
          try {
            const trace = asTrace(
              await request({
                method: 'debug_traceCall',
                params: [
                  { from: call.from, to: call.to, data: call.data, gas: numberToHex(TRACE_GAS) },
                  numberToHex(blockNumber),
                  {
                    tracer: COMPARISON_TRACER,
                    timeout: TRACE_TIMEOUT,
                    ...(call.storage
                      ? {
                          stateOverrides: Object.fromEntries(
                            Object.entries(call.storage).map(([account, words]) => [
                              account,
                              { stateDiff: words },
                            ]),
                          ),
                        }
                      : {}),
                  },
                ],
              }),
            );
            if (!trace) throw new Error('debug_traceCall answered something other than the tracer’s result');
            return trace;
          } catch (failure) {
            error ??= messageOf(failure);
            if (!isUnsupportedMethod(failure) && !isOutOfTime(failure)) unexpected ??= messageOf(failure);
            return null;
          }
        }),
      )),
    );
    // A node that cannot trace says so on the first batch: the rest would say it again.
    if (traces.every((trace) => trace === null)) {
      for (let rest = traces.length; rest < calls.length; rest++) traces.push(null);
      break;
    }
  }
  return { traces, error, unexpected };
}

function messageOf(failure: unknown): string {
  const text = failure instanceof Error ? failure.message : String(failure);
  return (text.split('\n')[0] ?? 'trace failed').slice(0, 200);
}

/** Values past this are no mode, level or flag (amounts, accounts, hashes). */
const MAX_COMPARED_CONSTANT = 2n ** 64n;
/** Values kept from one holder's transfer. */
const MAX_COMPARED = 6;

/**
 * The values a transfer compared a stored word with: in each comparison or mask (AND) made soon
 * after a storage read (`k`: a stored field, unpacked, against a constant), a small operand is a
 * value that field would take the transfer another way: a level, a mode or a phase a policy checks
 * (`level != 4`), a flag it tests (`flags & 4`), which a setter that stores it will accept without
 * showing anything. For an order, its neighbours too. Only values up to 2^64 (a mode, not an
 * amount or an account), never 0 or 1 (every call's shapes hold them), nor a word the call sent
 * or the clock it read, nor from a comparison with one (the amount against a balance, the time
 * against a stored time). Equalities and masks first, then orders, the latest first in each; at
 * most six. Pure.
 */
export function harvestStoredComparisons(
  trace: Pick<CallTrace, 'k' | 't' | 'n'>,
  sent: readonly bigint[],
): bigint[] {
  // The clock as the call read it is compared with stored times, which the clock rounds move.
  const words = new Set([...sent, ...[trace.t, trace.n].flatMap((value) => (value ? [word(value)] : []))]);
  const exact: bigint[] = [];
  const ordered: bigint[] = [];
  for (const [op, top, second] of [...(trace.k ?? [])].reverse()) {
    const operands = [word(top), word(second)];
    // A comparison with a word the call sent (the amount) is the call's, not a field's.
    if (operands.some((value) => words.has(value))) continue;
    for (const value of operands) {
      // A mask of all ones (0xff, 0xffff, ...) is the compiler cleaning a packed field, no flag.
      if (value >= MAX_COMPARED_CONSTANT || (op === 'AND' && (value & (value + 1n)) === 0n)) continue;
      if (op === 'EQ' || op === 'AND') exact.push(value);
      else ordered.push(value - 1n, value, value + 1n);
    }
  }
  const found = new Set<bigint>();
  for (const value of [...exact, ...ordered])
    if (value >= 0n && !words.has(value) && !COMMON.has(value) && found.size < MAX_COMPARED) found.add(value);
  return [...found];
}

/** What an ordinary holder's transfer showed: the keys it hashed, and the contracts it called. */
export interface HolderTransferTrace {
  /** keccak256 results that were not themselves read as a storage slot: mapping keys, not entries. */
  hashes: bigint[];
  /** Values it compared a stored word with (harvestStoredComparisons). */
  compared: bigint[];
  /** Contracts the transfer called (its policy, its fee module, the router of a swap-back). */
  callees: Address[];
  /** It read an account's code hash: a list it keeps may be of code hashes. */
  readsCodeHash: boolean;
  /** It ran with the storage it was given (the node took the overrides). */
  funded: boolean;
  error: string | null;
}

/**
 * An ordinary holder's send of one unit, traced once (refused or not: the lookups that refuse it
 * come first). A hash the transfer read storage at directly is a mapping's entry (the holder's
 * balance, its allowance); one that was hashed again or compared is a key a list may be kept by
 * (`keccak256(account, token)` in a blocklist). A small value it compared a stored word with is
 * one a setter may store to take the transfer another way. `storage` is set first (the holder's
 * balance written in, say); a node that refuses that is asked again without it. Empty when the
 * node cannot trace.
 */
export async function traceHolderTransfer(
  client: PublicClient,
  {
    token,
    holder,
    to,
    blockNumber,
    storage,
  }: {
    token: Address;
    holder: Address;
    to: Address;
    blockNumber: bigint;
    storage?: Record<Address, Record<Hex, Hex>>;
  },
): Promise<HolderTransferTrace> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 1n] });
  const traced = (set?: Record<Address, Record<Hex, Hex>>) =>
    traceCalls(client, {
      blockNumber,
      calls: [{ from: holder, to: token, data, ...(set ? { storage: set } : {}) }],
    });
  let { traces, error } = await traced(storage);
  // A node that takes no state overrides in a trace is asked again without them.
  const funded = storage !== undefined && traces[0] !== null;
  if (storage && !funded) ({ traces, error } = await traced());
  const trace = traces[0];
  if (!trace) return { hashes: [], compared: [], callees: [], readsCodeHash: false, funded, error };
  const read = new Set(trace.s.map(word));
  const hashes = [...new Set(trace.h.map(word))].filter((hash) => !read.has(hash));
  const callees = [...new Set(trace.a.map((value) => word(value) & ADDRESS_MASK))]
    .filter((value) => value > 0xffffn)
    .map((value) => getAddress(numberToHex(value, { size: 20 })));
  // The words it was sent, and the words it was given (a balance), are the call's, not a field's.
  const given = Object.values((funded && storage) || {}).flatMap((words) =>
    Object.values(words).map((value) => BigInt(value)),
  );
  const compared = harvestStoredComparisons(trace, [BigInt(to), 1n, ...given]);
  return { hashes, compared, callees, readsCodeHash: trace.x === 1, funded, error: null };
}
