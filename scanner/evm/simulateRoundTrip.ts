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
import { type DetectorLeg, type DetectorLegJson, legToJson, toLeg } from './detectorLeg.ts';
import {
  HONEYPOT_DETECTOR_ADDRESS,
  HONEYPOT_DETECTOR_CODE,
  honeypotDetectorAbi,
} from './honeypotDetector.ts';

export { HONEYPOT_DETECTOR_ADDRESS } from './honeypotDetector.ts';
export type { DetectorLeg as RoundTripLeg } from './detectorLeg.ts';

/** Small enough to pass max-transaction limits and to move the price of a thin pool very little. */
const DEFAULT_ROUND_TRIP_AMOUNT_IN = parseEther('0.01');
/**
 * Gas for the whole call. Fixed rather than estimated: a pair's gas cost depends on whether its
 * block timestamp moved, so estimates vary; this stays below the usual eth_call caps and the
 * EIP-7825 per-transaction limit.
 */
const ROUND_TRIP_GAS = 15_000_000n;

export interface SimulateRoundTripParameters {
  /** A Uniswap V2 style router (WETH(), factory(), the fee-on-transfer swap functions). */
  router: Address;
  token: Address;
  /** Native currency spent on the buy, in wei. */
  amountIn?: bigint;
  /**
   * Native currency for a large buy by a fresh wallet, undone afterwards, that shows size limits
   * (max transaction, max wallet). 0 or omitted: not tried.
   */
  largeAmountIn?: bigint;
  /** Simulate on top of this block; the latest block otherwise. */
  blockNumber?: bigint;
  gas?: bigint;
  /**
   * The gas price the simulated trades pay (see simulationGasPrice): a sell gated on
   * tx.gasprice fails at what a wallet pays, not at the zero an eth_call has by default.
   */
  gasPrice?: bigint;
}

export interface SimulateRoundTripReturnType {
  token: Address;
  router: Address;
  weth: Address;
  /** The token's WETH pair on the router's factory; null when there is none (nothing was traded). */
  pair: Address | null;
  amountIn: bigint;
  blockNumber: bigint | null;
  buy: DetectorLeg;
  /** Wallet to wallet, to a fresh address: a quarter of what was bought. */
  transfer: DetectorLeg;
  /** Through the router, of everything left after the transfer. */
  sell: DetectorLeg;
  /** 90 % of that, tried only when selling everything failed (tokens that forbid selling all). */
  sellPartial: DetectorLeg;
  /** A second buy and sell by the same wallet in the same block: cooldowns make these fail. */
  buyAgain: DetectorLeg;
  sellAgain: DetectorLeg;
  /** The large buy by a fresh wallet (see largeAmountIn); not attempted when none was asked. */
  largeBuy: DetectorLeg;
}

/**
 * Buys `token` with native currency through `router`, sends part of it to a fresh wallet, sells
 * the rest back, then buys and sells once more, all inside one eth_call: the detector contract's
 * code and the currency it spends are injected with a state override, so nothing is sent and
 * nothing is deployed. Works on any node that accepts eth_call state overrides.
 */
export async function simulateRoundTrip(
  client: PublicClient,
  parameters: SimulateRoundTripParameters,
): Promise<SimulateRoundTripReturnType> {
  const { router, token } = parameters;
  const amountIn = parameters.amountIn ?? DEFAULT_ROUND_TRIP_AMOUNT_IN;
  const largeAmountIn = parameters.largeAmountIn ?? 0n;
  const gas = parameters.gas ?? ROUND_TRIP_GAS;
  const gasPrice = parameters.gasPrice ?? 0n;
  let data: Hex | undefined;
  try {
    ({ data } = await client.call({
      // The detector sends the call, and pays for its gas (at a price) from the balance given to it.
      account: HONEYPOT_DETECTOR_ADDRESS,
      ...(gasPrice > 0n ? { gasPrice } : {}),
      to: HONEYPOT_DETECTOR_ADDRESS,
      data: encodeFunctionData({
        abi: honeypotDetectorAbi,
        functionName: 'roundTrip',
        args: [router, token, amountIn, largeAmountIn],
      }),
      gas,
      stateOverride: [
        {
          address: HONEYPOT_DETECTOR_ADDRESS,
          code: HONEYPOT_DETECTOR_CODE,
          // Two buys, and the large one (undone, but it needs the funds while it runs), and the gas.
          balance: amountIn * 2n + largeAmountIn + gas * gasPrice,
        },
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
    sellPartial: toLeg(result.sellPartial),
    buyAgain: toLeg(result.buyAgain),
    sellAgain: toLeg(result.sellAgain),
    largeBuy: toLeg(result.largeBuy),
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

const LEGS = ['buy', 'transfer', 'sell', 'sellPartial', 'buyAgain', 'sellAgain', 'largeBuy'] as const;
type LegName = (typeof LEGS)[number];

export type SimulateRoundTripJson = Omit<
  SimulateRoundTripReturnType,
  'amountIn' | 'blockNumber' | LegName
> & { amountIn: string; blockNumber: string | null } & Record<LegName, DetectorLegJson>;

/** For activity results, stored documents and logs, none of which can carry bigints. */
export function roundTripToJson(result: SimulateRoundTripReturnType): SimulateRoundTripJson {
  const legs = Object.fromEntries(LEGS.map((name) => [name, legToJson(result[name])])) as Record<
    LegName,
    DetectorLegJson
  >;
  return {
    token: result.token,
    router: result.router,
    weth: result.weth,
    pair: result.pair,
    amountIn: result.amountIn.toString(),
    blockNumber: result.blockNumber === null ? null : result.blockNumber.toString(),
    ...legs,
  };
}
