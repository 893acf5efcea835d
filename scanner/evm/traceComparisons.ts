import type { Address, Hex, PublicClient } from 'viem';
import { getAddress, numberToHex } from 'viem';
import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';

/**
 * What a refused call wanted, read from its own execution: input-to-state correspondence, the idea
 * behind REDQUEEN's fuzzing (Aschermann et al., NDSS 2019), for power discovery. A call that
 * reverted for a reason other than the caller's rights is traced once (debug_traceCall, the stack
 * only), and every comparison (EQ, LT, GT, SLT, SGT) one of whose operands is an argument word the
 * call sent names what the function wanted in that word's place: the other operand, and for an
 * order its neighbours too (a rate accepted only between two bounds, an exact "knock" amount, an
 * op code). A comparison with the caller's own address names the account the function wanted as
 * its caller instead: one computed at run time (an XOR of two constants, a CREATE2 address) that
 * no storage read or code scan finds.
 *
 * Hand-written because no library reads comparisons out of an EVM trace; the struct logger it
 * reads is the one geth, anvil, reth and erigon share. A node without debug_traceCall answers an
 * error, and the scan carries on without these calls.
 */

const COMPARISONS = new Set(['EQ', 'LT', 'GT', 'SLT', 'SGT']);
/** Steps a trace keeps at most: a refused call stops early; a long one is cut, not fetched whole. */
const MAX_STEPS = 20_000;
/** Gas a traced call may burn: enough for any gate and a loop or two, not for a runaway. */
const TRACE_GAS = 2_000_000n;
/** Replacements one traced call yields at most. */
const MAX_WANTED_PER_CALL = 8;
const MAX_WORD = 2n ** 256n - 1n;
/** An account compared with the caller is a 160-bit word with many bits set (not a small constant). */
const MIN_ACCOUNT = 2n ** 96n;
const MAX_ACCOUNT = 2n ** 160n;

export interface StructLog {
  op: string;
  stack?: string[];
}

/** A word the function compared an argument word with: put `value` at argument `index` instead. */
interface Wanted {
  index: number;
  value: bigint;
}

export interface ComparisonHarvest {
  wanted: Wanted[];
  /** Accounts the function compared its caller with. */
  callers: Address[];
  /** Comparison steps read. */
  comparisons: number;
}

function word(value: string): bigint {
  return BigInt(value.startsWith('0x') ? value : `0x${value}`);
}

/**
 * The comparisons of one trace, against the words the call sent (its argument words, after the
 * selector) and its caller. Pure: the struct log in, what the function wanted out.
 */
export function harvestComparisons(
  logs: readonly StructLog[],
  call: { caller: Address; words: readonly bigint[] },
): ComparisonHarvest {
  const caller = BigInt(call.caller);
  const sent = new Set(call.words);
  const wanted = new Map<string, Wanted>();
  const callers = new Set<Address>();
  let comparisons = 0;
  for (const step of logs) {
    if (!COMPARISONS.has(step.op) || !step.stack || step.stack.length < 2) continue;
    comparisons++;
    const a = word(step.stack[step.stack.length - 1] as string);
    const b = word(step.stack[step.stack.length - 2] as string);
    for (const [mine, other] of [
      [a, b],
      [b, a],
    ] as const) {
      if (mine === other) continue;
      if (mine === caller && other >= MIN_ACCOUNT && other < MAX_ACCOUNT)
        callers.add(getAddress(numberToHex(other, { size: 20 })));
      if (sent.has(other)) continue;
      call.words.forEach((value, index) => {
        if (value !== mine) return;
        const values = step.op === 'EQ' ? [other] : [other - 1n, other, other + 1n];
        for (const candidate of values) {
          if (candidate < 0n || candidate > MAX_WORD || sent.has(candidate)) continue;
          const key = `${index}:${candidate}`;
          if (!wanted.has(key) && wanted.size < MAX_WANTED_PER_CALL)
            wanted.set(key, { index, value: candidate });
        }
      });
    }
  }
  return { wanted: [...wanted.values()], callers: [...callers], comparisons };
}

export interface TracedCall {
  from: Address;
  data: Hex;
}

export interface TraceComparisonsResult {
  /** One harvest per call, in order; null where that call's trace failed. */
  harvests: (ComparisonHarvest | null)[];
  /** The first error a trace answered (the node has no debug_traceCall, say); null when none. */
  error: string | null;
}

/** The argument words of a call's data (after the selector), whole words only. */
export function argumentWords(data: Hex): bigint[] {
  const body = data.slice(10);
  const words: bigint[] = [];
  for (let at = 0; at + 64 <= body.length; at += 64) words.push(BigInt(`0x${body.slice(at, at + 64)}`));
  return words;
}

/**
 * Traces each call at `blockNumber` (the requests made together travel as one JSON-RPC batch) and
 * harvests its comparisons. Throws only when the node is unreachable.
 */
export async function traceComparisons(
  client: PublicClient,
  { token, blockNumber, calls }: { token: Address; blockNumber: bigint; calls: readonly TracedCall[] },
): Promise<TraceComparisonsResult> {
  const request = client.request as unknown as (args: {
    method: string;
    params: unknown[];
  }) => Promise<unknown>;
  let error: string | null = null;
  const harvests = await Promise.all(
    calls.map(async (call) => {
      try {
        const trace = (await request({
          method: 'debug_traceCall',
          params: [
            { from: call.from, to: token, data: call.data, gas: numberToHex(TRACE_GAS) },
            numberToHex(blockNumber),
            { disableMemory: true, disableStorage: true, enableReturnData: false, limit: MAX_STEPS },
          ],
        })) as { structLogs?: StructLog[] } | null;
        if (!trace || !Array.isArray(trace.structLogs))
          throw new Error('debug_traceCall answered no struct log');
        return harvestComparisons(trace.structLogs, { caller: call.from, words: argumentWords(call.data) });
      } catch (failure) {
        if (isRpcUnreachable(failure)) throw failure;
        error ??=
          failure instanceof Error
            ? (failure.message.split('\n')[0]?.slice(0, 200) ?? 'trace failed')
            : String(failure);
        return null;
      }
    }),
  );
  return { harvests, error };
}

const HASHES = new Set(['SHA3', 'KECCAK256']);

/** The keccak256 results of one trace, in the order computed (each read off the next step's stack). */
export function harvestHashes(logs: readonly (StructLog & { depth?: number })[]): bigint[] {
  const hashes: bigint[] = [];
  logs.forEach((step, index) => {
    if (!HASHES.has(step.op)) return;
    const next = logs[index + 1];
    const top = next?.stack?.[next.stack.length - 1];
    if (!next || top === undefined || next.depth !== step.depth) return;
    const value = word(top);
    if (!hashes.includes(value)) hashes.push(value);
  });
  return hashes;
}

/**
 * The hashes an ordinary holder's transfer computes: the keys of the mappings the token looks the
 * holder up in, a list keyed by a hash of the account (and the token) among them. Traced once (a
 * send of one unit, refused or not: the lookups that refuse it come first). Empty when the node
 * cannot trace.
 */
export async function traceHolderHashes(
  client: PublicClient,
  { token, holder, to, blockNumber }: { token: Address; holder: Address; to: Address; blockNumber: bigint },
): Promise<bigint[]> {
  const request = client.request as unknown as (args: {
    method: string;
    params: unknown[];
  }) => Promise<unknown>;
  const data = `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${'1'.padStart(64, '0')}` as Hex;
  try {
    const trace = (await request({
      method: 'debug_traceCall',
      params: [
        { from: holder, to: token, data, gas: numberToHex(TRACE_GAS) },
        numberToHex(blockNumber),
        { disableMemory: true, disableStorage: true, enableReturnData: false, limit: MAX_STEPS },
      ],
    })) as { structLogs?: (StructLog & { depth?: number })[] } | null;
    return trace && Array.isArray(trace.structLogs) ? harvestHashes(trace.structLogs) : [];
  } catch (failure) {
    if (isRpcUnreachable(failure)) throw failure;
    return [];
  }
}
