import {
  type Address,
  BaseError,
  type Hex,
  type PublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  parseEther,
  zeroAddress,
} from 'viem';
import { decodeRevertReason } from './decodeRevertReason.ts';
import {
  HONEYPOT_DETECTOR_ADDRESS,
  HONEYPOT_DETECTOR_CODE,
  honeypotDetectorAbi,
} from './honeypotDetector.ts';

export { HONEYPOT_DETECTOR_ADDRESS } from './honeypotDetector.ts';

/** Small enough to pass max-transaction limits and to move the price of a thin pool very little. */
export const DEFAULT_ROUND_TRIP_AMOUNT_IN = parseEther('0.01');
/**
 * Gas for the whole call. Fixed rather than estimated: a pair's gas cost depends on whether its
 * block timestamp moved, so estimates vary; this stays below the usual eth_call caps and the
 * EIP-7825 per-transaction limit.
 */
export const ROUND_TRIP_GAS = 12_000_000n;

export interface SimulateRoundTripParameters {
  /** A Uniswap V2 style router (WETH(), factory(), the fee-on-transfer swap functions). */
  router: Address;
  token: Address;
  /** Native currency spent on the buy, in wei. */
  amountIn?: bigint;
  /** Simulate on top of this block; the latest block otherwise. */
  blockNumber?: bigint;
  gas?: bigint;
}

export interface RoundTripLeg {
  /** False when an earlier leg left nothing to do (no pair, a failed buy, nothing bought). */
  attempted: boolean;
  ok: boolean;
  /** Buy: wei spent. Transfer and sell: raw token units sent. */
  amountIn: bigint;
  /**
   * What a token without taxes would deliver for amountIn: buy, tokens (the router's quote);
   * transfer, tokens (amountIn itself); sell, wei (the router's quote).
   */
  expected: bigint;
  received: bigint;
  /**
   * (expected - received) / expected in basis points, when the leg succeeded and expected > 0.
   * A sell compares wei at the pre-sell reserves, so for a taxed token the pool's curve moves the
   * figure slightly below the true rate (by about the rate times the trade's share of the pool).
   */
  taxBps: number | null;
  /** Gas the leg used inside the simulation; it varies with pool state, so compare loosely. */
  gasUsed: bigint;
  /** Readable revert reason; for a sell, the token's own reason when it has one. */
  revertReason: string | null;
  revertData: Hex | null;
}

export interface SimulateRoundTripReturnType {
  token: Address;
  router: Address;
  weth: Address;
  /** The token's WETH pair on the router's factory; null when there is none (nothing was traded). */
  pair: Address | null;
  amountIn: bigint;
  blockNumber: bigint | null;
  buy: RoundTripLeg;
  /** Wallet to wallet, to a fresh address: a quarter of what was bought. */
  transfer: RoundTripLeg;
  /** Through the router, of everything left after the transfer. */
  sell: RoundTripLeg;
}

/**
 * Buys `token` with native currency through `router`, sends part of it to a fresh wallet, and
 * sells the rest back, all inside one eth_call: the detector contract's code and the currency it
 * spends are injected with a state override, so nothing is sent and nothing is deployed. Works on
 * any node that accepts eth_call state overrides.
 */
export async function simulateRoundTrip(
  client: PublicClient,
  parameters: SimulateRoundTripParameters,
): Promise<SimulateRoundTripReturnType> {
  const { router, token } = parameters;
  const amountIn = parameters.amountIn ?? DEFAULT_ROUND_TRIP_AMOUNT_IN;
  let data: Hex | undefined;
  try {
    ({ data } = await client.call({
      to: HONEYPOT_DETECTOR_ADDRESS,
      data: encodeFunctionData({
        abi: honeypotDetectorAbi,
        functionName: 'roundTrip',
        args: [router, token, amountIn],
      }),
      gas: parameters.gas ?? ROUND_TRIP_GAS,
      stateOverride: [
        { address: HONEYPOT_DETECTOR_ADDRESS, code: HONEYPOT_DETECTOR_CODE, balance: amountIn },
      ],
      ...(parameters.blockNumber === undefined ? {} : { blockNumber: parameters.blockNumber }),
    }));
  } catch (error) {
    throw new RoundTripSimulationError(parameters, error);
  }
  if (data === undefined)
    throw new RoundTripSimulationError(parameters, new Error('the call returned no data'));
  const result = decodeFunctionResult({ abi: honeypotDetectorAbi, functionName: 'roundTrip', data });
  return {
    token,
    router,
    weth: result.weth,
    pair: result.pair === zeroAddress ? null : result.pair,
    amountIn,
    blockNumber: parameters.blockNumber ?? null,
    buy: toLeg(result.buy),
    transfer: toLeg(result.transfer),
    sell: toLeg(result.sell),
  };
}

/**
 * The simulation call itself failed: the RPC is unreachable, rejects state overrides, or the
 * router is not a Uniswap V2 router. Token misbehaviour never lands here; it shows in the legs.
 */
export class RoundTripSimulationError extends Error {
  override readonly name = 'RoundTripSimulationError';
  readonly token: Address;
  readonly router: Address;
  readonly blockNumber: bigint | null;

  constructor(parameters: SimulateRoundTripParameters, cause: unknown) {
    // viem's short message leaves out the request details, and with them the RPC URL.
    const reason =
      cause instanceof BaseError
        ? cause.shortMessage
        : cause instanceof Error
          ? cause.message
          : String(cause);
    super(
      `round-trip simulation of ${parameters.token} through router ${parameters.router} failed: ${reason}`,
      { cause },
    );
    this.token = parameters.token;
    this.router = parameters.router;
    this.blockNumber = parameters.blockNumber ?? null;
  }
}

interface RawLeg {
  attempted: boolean;
  ok: boolean;
  amountIn: bigint;
  expected: bigint;
  received: bigint;
  gasUsed: bigint;
  revertData: Hex;
}

function toLeg(raw: RawLeg): RoundTripLeg {
  const failed = raw.attempted && !raw.ok;
  return {
    attempted: raw.attempted,
    ok: raw.ok,
    amountIn: raw.amountIn,
    expected: raw.expected,
    received: raw.received,
    taxBps:
      raw.ok && raw.expected > 0n ? Number(((raw.expected - raw.received) * 10_000n) / raw.expected) : null,
    gasUsed: raw.gasUsed,
    revertReason: failed ? decodeRevertReason(raw.revertData) : null,
    revertData: failed ? raw.revertData : null,
  };
}

/** JSON-safe form of a leg: raw integer amounts as decimal strings. */
export interface RoundTripLegJson extends Omit<
  RoundTripLeg,
  'amountIn' | 'expected' | 'received' | 'gasUsed'
> {
  amountIn: string;
  expected: string;
  received: string;
  gasUsed: string;
}

export interface SimulateRoundTripJson extends Omit<
  SimulateRoundTripReturnType,
  'amountIn' | 'blockNumber' | 'buy' | 'transfer' | 'sell'
> {
  amountIn: string;
  blockNumber: string | null;
  buy: RoundTripLegJson;
  transfer: RoundTripLegJson;
  sell: RoundTripLegJson;
}

/** For activity results, stored documents and logs, none of which can carry bigints. */
export function roundTripToJson(result: SimulateRoundTripReturnType): SimulateRoundTripJson {
  const leg = (value: RoundTripLeg): RoundTripLegJson => ({
    ...value,
    amountIn: value.amountIn.toString(),
    expected: value.expected.toString(),
    received: value.received.toString(),
    gasUsed: value.gasUsed.toString(),
  });
  return {
    ...result,
    amountIn: result.amountIn.toString(),
    blockNumber: result.blockNumber === null ? null : result.blockNumber.toString(),
    buy: leg(result.buy),
    transfer: leg(result.transfer),
    sell: leg(result.sell),
  };
}
