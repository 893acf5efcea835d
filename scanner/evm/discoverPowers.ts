import {
  type Address,
  concatHex,
  type Hex,
  keccak256,
  numberToHex,
  pad,
  stringToHex,
  toFunctionSelector,
} from 'viem';
import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';
import type { PrivilegeCandidate } from './privilegeCandidates.ts';
import { type CallEffect, type ProbeCall, probePrivileges } from './probePrivileges.ts';

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

export interface PowerFinding {
  class: PowerClass;
  selector: Hex;
  /** A readable name when the selector is a well-known one; null otherwise (most hidden powers). */
  signature: string | null;
  caller: Address;
  callerSource: string;
  /** The argument words sent after the selector, named. */
  args: string[];
  calldata: Hex;
  timeOffsetSeconds: number;
  diff: {
    supply_before: string;
    supply_after: string;
    holder_balance_before: string;
    holder_balance_after: string;
    holder_transfer: string;
    holder_sell: string;
  };
}

export interface DiscoveryResult {
  findings: PowerFinding[];
  /** Selectors called (after the standard ERC-20 ones were left out). */
  selectorsTried: number;
  calls: number;
  /** eth_call round trips spent. */
  roundTrips: number;
  /** Probes that could not run (an RPC refusal, say); the scan carries on without them. */
  failures: string[];
}

/** How far the clock is moved: a day (calls that reverted at the pinned block) and a year (all). */
const TIME_OFFSETS_SECONDS = [86_400, 365 * 86_400] as const;
/** Calls per eth_call: each effect costs ~60-150k gas, and nodes cap a call near 25-50M. */
const CALLS_PER_ROUND_TRIP = 96;
/** Smallest batch split further when a batch fails as a whole (out of gas, a node limit). */
const MIN_CHUNK = 6;
/** A raise of at least half the supply (the holder keeps two thirds of their share or less). */
const MINT_MIN_RAISE_DENOMINATOR = 2n;
/** A holder's share falling by at least 1 % (rounding of reflection maths stays below it). */
const LEAK_MIN_SHARE_LOSS_BPS = 100n;
/** A transfer or sell losing more than this to the token, beyond what it lost before the call. */
const LIMIT_MAX_TAX_BPS = 1_000;

/** Selectors every ERC-20 has whose use by their caller harms nobody else. transferFrom stays. */
const HARMLESS = new Set<Hex>(
  [
    'balanceOf(address)',
    'allowance(address,address)',
    'totalSupply()',
    'decimals()',
    'name()',
    'symbol()',
    'owner()',
    'transfer(address,uint256)',
    'approve(address,uint256)',
    'increaseAllowance(address,uint256)',
    'decreaseAllowance(address,uint256)',
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
    'transferFrom(address,address,uint256)',
    'mint(address,uint256)',
    'mint(uint256)',
    'burn(address,uint256)',
    'burnFrom(address,uint256)',
    'pause()',
    'unpause()',
    'setBalance(address,uint256)',
  ].map((signature) => [toFunctionSelector(signature), signature]),
);

type Word = { name: string; value: bigint };

interface WordContext {
  victim: Address;
  actor: Address;
  pair: Address | undefined;
  supply: bigint;
}

/** Replaced by the detector with half the holder's balance at the time of the call. */
const HOLDER_HALF = BigInt(keccak256(stringToHex('vigil.holder-half')));

/** The argument sequences tried for every selector (extra words are ignored by the callee). */
function argumentSequences(context: WordContext): Word[][] {
  const address = (name: string, value: Address): Word => ({ name, value: BigInt(value) });
  const victim = address('holder', context.victim);
  const actor = address('caller', context.actor);
  const amount = (name: string, value: bigint): Word => ({ name, value });
  const zero = amount('0', 0n);
  const one = amount('1/true', 1n);
  const huge = amount('1000× supply', context.supply * 1000n + 1n);
  const whole = amount('1× supply', context.supply + 1n);
  const half = amount("half the holder's balance", HOLDER_HALF);
  const fee = amount('99', 99n);
  const sequences: Word[][] = [
    [actor, huge, one],
    [huge, one],
    [actor, whole, one],
    [victim, zero, zero],
    [victim, one],
    [victim, half],
    [victim, actor, half],
    [zero],
    [one, one],
    [fee, fee, fee],
    // A dynamic address[] holding the holder: offset, length, element.
    [amount('offset 32', 32n), one, victim],
  ];
  if (context.pair) {
    const pair = address('pair', context.pair);
    sequences.push([pair, one], [pair, zero]);
  }
  return sequences;
}

function encode(selector: Hex, words: Word[]): Hex {
  return concatHex([selector, ...words.map((word) => pad(numberToHex(word.value), { size: 32 }))]);
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
}

interface Planned {
  call: ProbeCall;
  selector: Hex;
  args: string[];
  /** Why the call reverted, once it has. */
  revertReason?: string | null;
}

/**
 * Reverts that say the caller lacks the right (not the owner, no role, no allowance, not enough
 * balance): moving the clock changes none of them, so the call is not retried later. OpenZeppelin's
 * custom errors are matched by name, as decodeRevertReason renders them.
 */
const DENIED =
  /caller is not|not the owner|onlyowner|unauthori[sz]ed|access ?control|missing role|permission|forbidden|allowance|insufficient ?balance|exceeds balance|OwnableUnauthorizedAccount|ERC20Insufficient/i;

export function deniedToCaller(reason: string | null | undefined): boolean {
  return reason !== null && reason !== undefined && DENIED.test(reason);
}

/** Runs the probes (a few eth_calls per account) and returns what they demonstrated. */
export async function discoverPowers(
  client: Parameters<typeof probePrivileges>[0],
  parameters: DiscoverPowersParameters,
): Promise<DiscoveryResult> {
  const selectors = [...parameters.selectors].filter((selector) => !HARMLESS.has(selector));
  const result: DiscoveryResult = {
    findings: [],
    selectorsTried: selectors.length,
    calls: 0,
    roundTrips: 0,
    failures: [],
  };
  if (selectors.length === 0 || parameters.candidates.length === 0) return result;

  // Without any call, at the block and a year on: the holder's transfer and sell as they are,
  // and as the clock alone leaves them.
  const openings = new Map<number, CallEffect>();
  await Promise.all(
    parameters.candidates.map(async (candidate) => {
      const planned: Planned[] = selectors.flatMap((selector) =>
        argumentSequences({
          victim: parameters.victim,
          actor: candidate.address,
          pair: parameters.pair,
          supply: parameters.supply,
        }).map((words) => ({
          selector,
          args: words.map((word) => word.name),
          call: { label: selector, data: encode(selector, words) },
        })),
      );
      // Calls that reverted now are tried a day on; every call a year on, where a power that
      // waits for a date (or whose effect does) shows.
      // A year on runs beside the pinned block. A day on then retries what the clock changed: a
      // call that reverted now and either worked a year on or reverted for another reason, and
      // not for the caller's lack of rights (which no day changes).
      const [now, later] = await Promise.all([runAt(0, planned), runAt(TIME_OFFSETS_SECONDS[1], planned)]);
      const laterReason = new Map(later.map((entry) => [entry.call.data, entry.revertReason]));
      const waiting = now.filter(
        (entry) =>
          !deniedToCaller(entry.revertReason) &&
          (!laterReason.has(entry.call.data) || laterReason.get(entry.call.data) !== entry.revertReason),
      );
      if (waiting.length > 0) await runAt(TIME_OFFSETS_SECONDS[0], waiting);

      async function runAt(offset: number, calls: Planned[]): Promise<Planned[]> {
        const failedAgain: Planned[] = [];
        const chunks: Planned[][] = [];
        for (let start = 0; start < calls.length; start += CALLS_PER_ROUND_TRIP)
          chunks.push(calls.slice(start, start + CALLS_PER_ROUND_TRIP));
        while (chunks.length > 0) {
          const chunk = chunks.shift() as Planned[];
          result.calls += chunk.length;
          result.roundTrips++;
          const probe = await probePrivileges(client, {
            token: parameters.token,
            actor: candidate.address,
            calls: chunk.map((entry) => entry.call),
            router: parameters.router,
            sellTo: parameters.pair,
            blockNumber: parameters.blockNumber,
            timeOffsetSeconds: offset,
            blockTimestamp: parameters.blockTimestamp,
          }).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          if ('error' in probe) {
            if (isRpcUnreachable(probe.error)) throw probe.error;
            // A costly token can exhaust one call's gas with many effects: halve and try again.
            if (chunk.length > MIN_CHUNK) {
              const half = Math.ceil(chunk.length / 2);
              chunks.unshift(chunk.slice(0, half), chunk.slice(half));
              continue;
            }
            result.failures.push(`${candidate.address} at +${offset}s: ${String(probe.error).slice(0, 200)}`);
            continue;
          }
          const done = probe.value;
          const baseline = done.baselineEffect;
          if (!openings.has(offset)) openings.set(offset, baseline);
          done.effects.forEach((effect, index) => {
            const entry = chunk[index] as Planned;
            if (!effect.ok) {
              failedAgain.push({ ...entry, revertReason: effect.revertReason });
              return;
            }
            for (const kind of classify(effect, baseline))
              result.findings.push(finding(kind, entry, candidate, offset, effect));
          });
        }
        return failedAgain;
      }
    }),
  );
  // The clock alone: the holder could sell at the block and cannot (or is taxed) later.
  for (const offset of TIME_OFFSETS_SECONDS) {
    const later = openings.get(offset);
    if (later && limitedAgainst(openings.get(0), later))
      result.findings.push(finding('limit', undefined, CLOCK, offset, later));
  }
  return result;
}

const CLOCK: PrivilegeCandidate = { address: '0x0000000000000000000000000000000000000000', source: 'nobody' };

/** The classes one call's effect demonstrates, measured against the same block without the call. */
export function classify(effect: CallEffect, baseline: CallEffect): PowerClass[] {
  const classes: PowerClass[] = [];
  if (!effect.ok) return classes;
  const { supplyBefore: s0, supplyAfter: s1, victimBefore: v0, victimAfter: v1 } = effect;
  // Shares compared by cross-multiplication: v1/s1 against v0/s0.
  if (s1 > s0 && (s1 - s0) * MINT_MIN_RAISE_DENOMINATOR >= s0 && v1 * s0 * 3n <= v0 * s1 * 2n)
    classes.push('mint');
  if (v0 > 0n && v1 < v0 && s1 > 0n && v1 * s0 * 10_000n < v0 * s1 * (10_000n - LEAK_MIN_SHARE_LOSS_BPS))
    classes.push('leak');
  if (limitedAgainst(baseline, effect)) classes.push('limit');
  return classes;
}

/** The holder could transfer or sell in `before` and cannot (or loses > 10 % more) in `after`. */
function limitedAgainst(before: CallEffect | undefined, after: CallEffect): boolean {
  if (!before) return false;
  const legs = [
    [before.victimTransfer, after.victimTransfer],
    [before.victimSell, after.victimSell],
  ] as const;
  return legs.some(([was, now]) => {
    if (!was.attempted || !was.ok || !now.attempted) return false;
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
    signature: entry ? (KNOWN_NAMES.get(entry.selector) ?? null) : 'no call: the clock alone',
    caller: candidate.address,
    callerSource: entry ? candidate.source : 'nobody: the clock alone',
    args: entry?.args ?? [],
    calldata: entry?.call.data ?? '0x',
    timeOffsetSeconds: offset,
    diff: {
      supply_before: effect.supplyBefore.toString(),
      supply_after: effect.supplyAfter.toString(),
      holder_balance_before: effect.victimBefore.toString(),
      holder_balance_after: effect.victimAfter.toString(),
      holder_transfer: leg(effect.victimTransfer),
      holder_sell: leg(effect.victimSell),
    },
  };
}
