import { type Address, BaseError, decodeFunctionResult, encodeFunctionData, type PublicClient } from 'viem';
import { type DetectorLeg, toLeg } from './detectorLeg.ts';
import { HONEYPOT_DETECTOR_CODE, honeypotDetectorAbi } from './honeypotDetector.ts';

/**
 * Sells everything a real holder holds, through the router, as that holder, without sending
 * anything: the detector's code is put at the holder's address for one eth_call. Catches tokens
 * that let a fresh wallet trade but trap the wallets that actually bought (blacklisted buyers,
 * per-holder taxes).
 */
const HOLDER_SELL_GAS = 5_000_000n;

export async function simulateHolderSell(
  client: PublicClient,
  {
    router,
    token,
    holder,
    blockNumber,
    gasPrice,
  }: {
    router: Address;
    token: Address;
    holder: Address;
    blockNumber: bigint;
    /** The gas price the sell pays (simulationGasPrice); zero when omitted. */
    gasPrice?: bigint | undefined;
  },
): Promise<DetectorLeg> {
  try {
    const { data } = await client.call({
      account: holder,
      to: holder,
      data: encodeFunctionData({ abi: honeypotDetectorAbi, functionName: 'sellAll', args: [router, token] }),
      gas: HOLDER_SELL_GAS,
      // At a price, the holder pays for the gas: a balance for it is given (the sell's proceeds are
      // measured as a difference, so the holder's real balance does not matter).
      ...(gasPrice ? { gasPrice } : {}),
      stateOverride: [
        {
          address: holder,
          code: HONEYPOT_DETECTOR_CODE,
          ...(gasPrice ? { balance: HOLDER_SELL_GAS * gasPrice + 10n ** 18n } : {}),
        },
      ],
      blockNumber,
    });
    if (data === undefined) throw new Error('the call returned no data');
    return toLeg(decodeFunctionResult({ abi: honeypotDetectorAbi, functionName: 'sellAll', data }));
  } catch (error) {
    const reason = error instanceof BaseError ? error.shortMessage : String(error);
    throw new Error(`holder sell simulation for ${holder} failed: ${reason}`, { cause: error });
  }
}
