import { hexToBigInt, type PublicClient } from 'viem';
import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';
import { perBlock, pinnedBlock } from './perBlock.ts';

/**
 * The gas price a wallet's trade would pay at `blockNumber`: the block's base fee and the tip the
 * node suggests (eth_maxPriorityFeePerGas, else eth_gasPrice above the base fee, else none).
 * Simulations run at it, not at the zero an eth_call has by default, so a sell gated on
 * tx.gasprice (an "anti-bot" ceiling lowered to 1 wei) fails there as it does for every wallet.
 * Each chain's own tip is read, not a constant: Polygon's wallets tip 25-30 gwei, Base's and BSC's
 * a hundredth of one. Undefined when the block cannot be read (the simulation then runs at zero).
 * Read once per block: the honeypot, contract-safety and trading engines of a scan all ask.
 */
export const simulationGasPrice: (client: PublicClient, blockNumber: bigint) => Promise<bigint | undefined> =
  perBlock(readGasPrice);

async function readGasPrice(client: PublicClient, blockNumber: bigint): Promise<bigint | undefined> {
  const tolerate = <T>(error: unknown): T | undefined => {
    if (isRpcUnreachable(error)) throw error;
    return undefined;
  };
  const [block, tip, price] = await Promise.all([
    pinnedBlock(client, blockNumber).catch((error: unknown) => tolerate<never>(error)),
    client
      .request({ method: 'eth_maxPriorityFeePerGas' })
      .then((value) => hexToBigInt(value))
      .catch((error: unknown) => tolerate<bigint>(error)),
    client.getGasPrice().catch((error: unknown) => tolerate<bigint>(error)),
  ]);
  if (!block) return undefined;
  const base = block.baseFeePerGas ?? 0n;
  const above = price !== undefined && price > base ? price - base : 0n;
  return base + (tip ?? above);
}
