import {
  type Address,
  BaseError,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  keccak256,
  type PublicClient,
  parseEther,
  stringToHex,
  zeroAddress,
} from 'viem';
import { decodeRevertReason } from './decodeRevertReason.ts';
import { type DetectorLeg, toLeg } from './detectorLeg.ts';
import { HONEYPOT_DETECTOR_CODE, honeypotDetectorAbi, probeHolderAddress } from './honeypotDetector.ts';

/**
 * Where the detector that creates the probe's ordinary holder is put: derived from a label, so it
 * is nothing anywhere.
 */
const PROBE_HOLDER_FACTORY: Address = `0x${keccak256(stringToHex('vigil.probe-holder-factory')).slice(-40)}`;
/**
 * The probe's ordinary holder: an address with no code, as a person's wallet has, which the
 * factory creates anew in each step and which acts only while being created (see ProbeHolder).
 */
export const PROBE_VICTIM: Address = probeHolderAddress(PROBE_HOLDER_FACTORY);
/** An ordinary wallet with no powers, whose transaction a caller's calls run in when tx.origin matters. */
export const PROBE_ORIGIN: Address = `0x${keccak256(stringToHex('vigil.probe-origin')).slice(-40)}`;
/**
 * Gas one probe's eth_call asks for: under the 50M that geth, reth and erigon let a call spend by
 * default (each caps a larger ask to its own allowance, and eth_call is exempt from a transaction's
 * 2^24 cap), so most batches fit one round trip. The detector stops before a call it has no gas
 * left for and the rest go in the next round trip, so a node that allows less costs round trips,
 * not calls.
 */
const PROBE_GAS = 48_000_000n;
/**
 * In eth_simulateV1 the staged calls and the probe share one allowance (geth's RPC gas cap): the
 * probe there asks for half, beside twenty staged calls of STAGED_GAS.
 */
const STAGED_PROBE_GAS = 25_000_000n;
/** The gas of one step of the detector's probe, unless the token is heavy (as HoneypotDetector.sol's). */
export const EFFECT_GAS = 1_200_000n;
/** What the ordinary holder buys with when no larger buy is asked for, or a larger one is refused. */
const VICTIM_BUY_WEI = parseEther('0.01');

/** Shares of a pool's native coin the ordinary holder may buy with, largest first. */
const HOLDER_POOL_SHARES = [50n, 200n, 1000n] as const;
/**
 * The most a holder is given to buy with: a Uniswap V2 reserve is a uint112, and the actor's
 * balance override (twice the buy) must fit a word.
 */
const MAX_BUY_WEI = 2n ** 112n;

export interface HolderBuySize {
  wei: bigint;
  /** The share of the pool's native coin it is, as "1/50". */
  share: string;
}

/**
 * What the ordinary holder may buy with on a pool holding `reserveNative`, largest first: a
 * fiftieth, a two-hundredth and a thousandth of it, those above VICTIM_BUY_WEI. With a fiftieth
 * the holder sells about half a percent of the pool's tokens (it sends half of what it bought,
 * then sells half of the rest): a sell a market's holders make, not dust under every threshold,
 * and less than the corpus's ordinary holder sells (about 1.2 %). Power discovery keeps the
 * largest whose buy, send and sell work whole with no call (discoverPowers' chooseHolderBuy).
 */
export function holderBuySizes(reserveNative: bigint): HolderBuySize[] {
  return HOLDER_POOL_SHARES.map((share) => ({ wei: reserveNative / share, share: `1/${share}` })).filter(
    ({ wei }) => wei > VICTIM_BUY_WEI && wei < MAX_BUY_WEI,
  );
}

export interface ProbeCall {
  label: string;
  data: Hex;
}

export interface CallEffect {
  label: string;
  ok: boolean;
  revertReason: string | null;
  gasUsed: bigint;
  supplyBefore: bigint;
  supplyAfter: bigint;
  victimBefore: bigint;
  victimAfter: bigint;
  ownerAfter: Address | null;
  /** The victim sending half its tokens afterwards. */
  victimTransfer: DetectorLeg;
  /**
   * Then an eighth to the pair (`sellTo`), as a sell does at the token, before the victim receives
   * anything; not attempted without a pair.
   */
  victimEarlySell: DetectorLeg;
  /** Then, after the victim receives one unit (sent to itself), half of what it holds to the pair. */
  victimSell: DetectorLeg;
  /** Wei of the native coin the victim bought its tokens with, in this probe. */
  holderBuyWei: bigint;
  /** The token's balances of the caller, the pair and the token contract, and the pair's wrapped native coin. */
  around: {
    actorBefore: bigint;
    actorAfter: bigint;
    pairBefore: bigint;
    pairAfter: bigint;
    selfBefore: bigint;
    selfAfter: bigint;
    pairWethBefore: bigint;
    pairWethAfter: bigint;
  };
}

/** A call made as its own transaction in an earlier block (see probePrivileges' `staged`). */
export interface StagedCall {
  from: Address;
  data: Hex;
}

/**
 * Gas each staged call may use: a setter's worth, so twenty of them and the probe (STAGED_PROBE_GAS)
 * stay within the 50M a node lets one simulation spend (geth's RPC gas cap).
 */
const STAGED_GAS = 1_000_000n;
/**
 * Blocks between the pinned block and the probe's, at most: nodes refuse a simulation that reaches
 * more than 256 blocks past its base (geth, reth, erigon, nethermind).
 */
const MAX_SIMULATED_BLOCKS = 255n;

export interface ProbePrivilegesReturnType {
  actor: Address;
  victim: Address;
  /** The victim's buy through the router, when a router was given. */
  victimBuy: DetectorLeg | null;
  /** The victim's transfer with no privileged call before it. */
  baseline: DetectorLeg;
  /** The same no-call step whole: the victim's transfer and sell, supply and balance. */
  baselineEffect: CallEffect;
  effects: CallEffect[];
  /** Whether each staged call worked, when there were any. */
  stagedOk: boolean[];
  /**
   * Every step had more gas than EFFECT_GAS: the token is heavy, its step with no call needed more
   * (HEAVY_EFFECT_GAS in HoneypotDetector.sol).
   */
  heavy: boolean;
  /** eth_calls made: more than one where the calls needed more gas than one call is given. */
  roundTrips: number;
  /** The larger buy asked for (`buyWei`) was refused, and the probe ran again with VICTIM_BUY_WEI. */
  buyRefused: boolean;
}

/**
 * Calls privileged functions of `token` as `actor` would, without a transaction: the detector's
 * code is put at the actor's address (and at the factory of an ordinary holder) with a state override, and it
 * makes each call from there, each on the same starting state, recording what changed: supply,
 * the holder's balance, owner(), and whether the holder can still transfer. Runs at `blockNumber`.
 */
export async function probePrivileges(
  client: PublicClient,
  parameters: {
    token: Address;
    actor: Address;
    calls: readonly ProbeCall[];
    router?: Address | undefined;
    /** Where the victim's "sell" transfer goes (the pair); none → no sell leg. */
    sellTo?: Address | undefined;
    blockNumber: bigint;
    /** Runs the calls that many seconds after the block (and a block per 12 s later). */
    timeOffsetSeconds?: number;
    /** The block's timestamp, needed with a time offset. */
    blockTimestamp?: bigint;
    /** The gas price the simulation pays (simulationGasPrice); 0 when omitted. */
    gasPrice?: bigint;
    /** The transaction's sender (tx.origin) when not the actor itself; it pays the gas. */
    origin?: Address;
    /**
     * Calls made to the token in a block of their own before the probe's (each from its account,
     * as a transaction): the probe then runs in a later block, `timeOffsetSeconds` after the pinned
     * one. Simulated with eth_simulateV1; `stagedOk` says which of them worked.
     */
    staged?: readonly StagedCall[];
    /**
     * Calls made in a block of their own between the staged calls' and the probe's (a confirmation
     * a proposal waits for): in the block right after the staged calls', or with `thenHalfway`
     * halfway to the probe's in time and number; with `staged` only. `stagedOk` has their outcomes
     * after the staged ones'.
     */
    thenStaged?: readonly StagedCall[];
    thenHalfway?: boolean;
    /** Wei the actor is given beyond its buys and gas: what a call that trades first spends. */
    tradingWei?: bigint;
    /**
     * Wei the ordinary holder buys with (VICTIM_BUY_WEI when omitted). A token that refuses this
     * buy (a launch cap on a transaction or a wallet) is probed again with VICTIM_BUY_WEI.
     */
    buyWei?: bigint;
    /**
     * Asked before each further round trip of calls that did not fit the first (discovery's time
     * budget): once true, the probe answers with the effects it has, fewer than its calls.
     */
    stopping?: () => boolean;
  },
): Promise<ProbePrivilegesReturnType> {
  // The pair's own probe has the detector's code in the pair's place: no buy goes through it.
  const buyWei =
    parameters.actor.toLowerCase() === parameters.sellTo?.toLowerCase()
      ? VICTIM_BUY_WEI
      : (parameters.buyWei ?? VICTIM_BUY_WEI);
  // A buy no pool could hold is one refused.
  const result = buyWei < MAX_BUY_WEI ? await probeBuyingWith(client, parameters, buyWei) : undefined;
  if (result && (buyWei <= VICTIM_BUY_WEI || !result.victimBuy || result.victimBuy.ok)) return result;
  const again = await probeBuyingWith(client, parameters, VICTIM_BUY_WEI);
  return { ...again, roundTrips: again.roundTrips + (result?.roundTrips ?? 0), buyRefused: true };
}

/**
 * probePrivileges with the holder buying with `buyWei` and nothing else: a refused buy leaves the
 * holder with nothing to send or sell (`buyRefused` is never set).
 */
export async function probeBuyingWith(
  client: PublicClient,
  parameters: Omit<Parameters<typeof probePrivileges>[1], 'buyWei'>,
  buyWei: bigint,
): Promise<ProbePrivilegesReturnType> {
  const { token, actor, calls, router, blockNumber } = parameters;
  const offset = BigInt(parameters.timeOffsetSeconds ?? 0);
  const blockOverrides =
    offset > 0n && parameters.blockTimestamp !== undefined
      ? { time: parameters.blockTimestamp + offset, number: blockNumber + offset / 12n }
      : undefined;
  const origin = parameters.origin ?? actor;
  const gasFee = PROBE_GAS * (parameters.gasPrice ?? 0n);
  const stateOverride = [
    {
      address: actor,
      code: HONEYPOT_DETECTOR_CODE,
      balance: buyWei * 2n + (parameters.tradingWei ?? 0n) + (origin === actor ? gasFee : 0n),
    },
    { address: PROBE_HOLDER_FACTORY, code: HONEYPOT_DETECTOR_CODE },
    ...(origin === actor ? [] : [{ address: origin, balance: gasFee }]),
  ];
  const once = async (batch: readonly ProbeCall[]) => {
    const probeData = encodeFunctionData({
      abi: honeypotDetectorAbi,
      functionName: 'probe',
      args: [
        token,
        router ?? zeroAddress,
        PROBE_HOLDER_FACTORY,
        router ? buyWei : 0n,
        parameters.sellTo ?? zeroAddress,
        batch.map((call) => call.data),
      ],
    });
    let data: Hex | undefined;
    let stagedOk: boolean[] = [];
    try {
      if (parameters.staged && parameters.staged.length > 0)
        ({ data, stagedOk } = await simulateAfter(client, {
          staged: [parameters.staged, ...(parameters.thenStaged?.length ? [parameters.thenStaged] : [])],
          token,
          probe: { from: origin, to: actor, data: probeData },
          stateOverride,
          blockNumber,
          later: blockOverrides,
          spreadFrom: parameters.thenHalfway ? parameters.blockTimestamp : undefined,
          gasPrice: parameters.gasPrice ?? 0n,
        }));
      else
        ({ data } = await client.call({
          account: origin,
          to: actor,
          data: probeData,
          gas: PROBE_GAS,
          ...(parameters.gasPrice ? { gasPrice: parameters.gasPrice } : {}),
          stateOverride,
          blockNumber,
          ...(blockOverrides ? { blockOverrides } : {}),
        }));
    } catch (error) {
      const reason = error instanceof BaseError ? error.shortMessage : String(error);
      throw new Error(`privilege probe of ${token} as ${actor} failed: ${reason}`, { cause: error });
    }
    if (data === undefined) throw new Error(`privilege probe of ${token} as ${actor} returned nothing`);
    const [victimBuy, baseline, effects, stepGas] = decodeFunctionResult({
      abi: honeypotDetectorAbi,
      functionName: 'probe',
      data,
    });
    return { victimBuy, baseline, effects, stepGas, stagedOk };
  };
  // The detector stops where the gas left would not carry the next call (HoneypotDetector.probe):
  // the calls after it are sent again, on the same starting state, until every one has run.
  const first = await once(calls);
  const { victimBuy, baseline } = first;
  const effects = [...first.effects];
  let roundTrips = 1;
  while (effects.length < calls.length && !parameters.stopping?.()) {
    const more = await once(calls.slice(effects.length));
    roundTrips++;
    if (more.effects.length === 0)
      throw new Error(
        `privilege probe of ${token} as ${actor} had no gas for a call after the holder's own steps`,
      );
    effects.push(...more.effects);
  }
  const baselineEffect = toEffect(baseline, 'no call', router ? buyWei : 0n);
  return {
    actor,
    victim: PROBE_VICTIM,
    victimBuy: router ? toLeg(victimBuy) : null,
    baseline: baselineEffect.victimTransfer,
    baselineEffect,
    effects: effects.map((effect, index) =>
      toEffect(effect, calls[index]?.label ?? `call ${index}`, router ? buyWei : 0n),
    ),
    stagedOk: first.stagedOk,
    heavy: first.stepGas > EFFECT_GAS,
    roundTrips,
    buyRefused: false,
  };
}

/** What eth_simulateV1 answers per block, as far as it is read here. */
interface SimulatedBlock {
  calls: { status: Hex; returnData: Hex; error?: { message?: string } }[];
}

/**
 * The staged calls in a block of their own (each list in the block after the one before, or, given
 * `spreadFrom`, the pinned block's time, each list after the first that part of the way to the
 * probe's block: the second of two halfway, in time and number), then the probe in a later one (at
 * `later`'s time, at most MAX_SIMULATED_BLOCKS on), on
 * the state they left: eth_simulateV1 (geth, erigon, reth, nethermind, anvil), the only standard
 * way to have a call see an earlier call's block. The calls pay `gasPrice`, as every other probe
 * does (a token may refuse a transaction that pays nothing), from balances given to their senders;
 * the probe's block has the gas limit the probe needs.
 */
async function simulateAfter(
  client: PublicClient,
  {
    staged,
    token,
    probe,
    stateOverride,
    blockNumber,
    later,
    spreadFrom,
    gasPrice,
  }: {
    staged: readonly (readonly StagedCall[])[];
    token: Address;
    probe: { from: Address; to: Address; data: Hex };
    stateOverride: readonly { address: Address; code?: Hex; balance?: bigint }[];
    blockNumber: bigint;
    later: { time: bigint; number: bigint } | undefined;
    spreadFrom: bigint | undefined;
    gasPrice: bigint;
  },
): Promise<{ data: Hex | undefined; stagedOk: boolean[] }> {
  const hex = (value: bigint): Hex => `0x${value.toString(16)}`;
  const overrides = Object.fromEntries(
    stateOverride.map(({ address, code, balance }) => [
      address,
      { ...(code ? { code } : {}), ...(balance === undefined ? {} : { balance: hex(balance) }) },
    ]),
  );
  const all = staged.flat();
  const senders = [...new Set(all.map(({ from }) => from))];
  const stagedFee = STAGED_GAS * BigInt(all.length) * gasPrice;
  const price = gasPrice > 0n ? { gasPrice: hex(gasPrice) } : {};
  const number = later
    ? later.number < blockNumber + MAX_SIMULATED_BLOCKS
      ? later.number
      : blockNumber + MAX_SIMULATED_BLOCKS
    : undefined;
  // A list after the first is made the same part of the way to the probe's block (a confirmation
  // that opens minutes after its proposal, a power that waits a while after its confirmation).
  const along = (index: number) =>
    later && number !== undefined && spreadFrom !== undefined && index > 0
      ? {
          blockOverrides: {
            time: hex(spreadFrom + ((later.time - spreadFrom) * BigInt(index)) / BigInt(staged.length)),
            number: hex(blockNumber + ((number - blockNumber) * BigInt(index)) / BigInt(staged.length)),
          },
        }
      : {};
  // A raw request: viem's simulateBlocks would reformat every block, of which one call is read.
  const request = client.request as (args: {
    method: string;
    params: unknown[];
  }) => Promise<SimulatedBlock[]>;
  const answer = await request({
    method: 'eth_simulateV1',
    params: [
      {
        blockStateCalls: [
          ...staged.map((calls, index) => ({
            ...along(index),
            ...(index === 0 && stagedFee > 0n
              ? {
                  stateOverrides: Object.fromEntries(
                    senders.map((from) => [from, { balance: hex(stagedFee) }]),
                  ),
                }
              : {}),
            calls: calls.map(({ from, data }) => ({
              from,
              to: token,
              data,
              gas: hex(STAGED_GAS),
              ...price,
            })),
          })),
          {
            blockOverrides: {
              ...(later && number !== undefined ? { time: hex(later.time), number: hex(number) } : {}),
              gasLimit: hex(STAGED_PROBE_GAS),
            },
            stateOverrides: overrides,
            calls: [{ ...probe, gas: hex(STAGED_PROBE_GAS), ...price }],
          },
        ],
        validation: false,
      },
      hex(blockNumber),
    ],
  });
  // The staging blocks are answered first, one after the other; a node fills the numbers skipped
  // before the probe's block with empty blocks of its own, and the probe's is the last.
  const stagingBlocks = answer.slice(0, staged.length);
  const result = answer.at(-1)?.calls[0];
  if (!result || stagingBlocks.length < staged.length || answer.length <= staged.length)
    throw new Error('eth_simulateV1 answered fewer blocks than it was sent');
  if (result.status !== '0x1')
    throw new Error(`the probe reverted in the later block: ${result.error?.message ?? result.returnData}`);
  return {
    data: result.returnData,
    stagedOk: stagingBlocks.flatMap((block) => block.calls.map((call) => call.status === '0x1')),
  };
}

type RawEffect = ReturnType<typeof decodeFunctionResult<typeof honeypotDetectorAbi, 'probe'>>[2][number];

function toEffect(effect: RawEffect, label: string, holderBuyWei: bigint): CallEffect {
  return {
    label,
    ok: effect.ok,
    revertReason: effect.ok ? null : decodeRevertReason(effect.revertData),
    gasUsed: effect.gasUsed,
    supplyBefore: effect.supplyBefore,
    supplyAfter: effect.supplyAfter,
    victimBefore: effect.victimBefore,
    victimAfter: effect.victimAfter,
    ownerAfter: effect.ownerAfter === zeroAddress ? null : effect.ownerAfter,
    victimTransfer: toLeg(effect.victimTransfer),
    victimEarlySell: toLeg(effect.victimEarlySell),
    victimSell: toLeg(effect.victimSell),
    holderBuyWei,
    around: { ...effect.around },
  };
}

/** The call raised the supply: a mint that works. */
export function minted(effect: CallEffect): boolean {
  return effect.ok && effect.supplyAfter > effect.supplyBefore;
}

/**
 * The call changed an ordinary holder's balance without the holder doing anything: taken away,
 * or set without the supply following (a mint to the holder raises both equally, and is a mint).
 */
export function changedBalance(effect: CallEffect): boolean {
  if (!effect.ok || effect.victimAfter === effect.victimBefore) return false;
  if (effect.victimAfter < effect.victimBefore) return true;
  return effect.victimAfter - effect.victimBefore !== effect.supplyAfter - effect.supplyBefore;
}

/** The holder could transfer before the call and cannot after it. */
export function blockedHolder(effect: CallEffect, baseline: DetectorLeg): boolean {
  return effect.ok && baseline.ok && effect.victimTransfer.attempted && !effect.victimTransfer.ok;
}
