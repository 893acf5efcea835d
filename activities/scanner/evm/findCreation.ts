import { type Address, getAddress, type Hash, type PublicClient } from 'viem';
import type { Creation } from '../../../core/scan/schema.ts';

/** Blocks probed per round: one JSON-RPC batch narrows the range eightfold. */
const FAN_OUT = 8;

/**
 * Finds the block and transaction that created a contract and who sent it, with plain JSON-RPC
 * (no explorer): a search over `eth_getCode` at past blocks for the first block with code (a
 * batch of probes per round, so ~log8 of the chain height in round trips), then that block's
 * receipts. A contract made by a factory is credited to the sender of the first transaction in
 * that block whose logs come from it. Needs state at past blocks (an archive provider beyond
 * the usual 128 recent blocks); undefined when that is not available or nothing matches.
 */
export async function findCreation(
  client: PublicClient,
  { address, blockNumber }: { address: Address; blockNumber: bigint },
): Promise<Creation | undefined> {
  const hasCode = async (block: bigint) => {
    const code = await client.getCode({ address, blockNumber: block });
    return code !== undefined && code !== '0x';
  };
  let low = 0n; // highest block known to have no code (or the genesis)
  let high = blockNumber; // lowest block known to have code
  if (await hasCode(0n)) return undefined; // genesis allocations have no creating transaction
  while (high - low > 1n) {
    const span = high - low;
    const probes = [
      ...new Set(
        Array.from({ length: FAN_OUT - 1 }, (_, i) => low + (span * BigInt(i + 1)) / BigInt(FAN_OUT)),
      ),
    ].filter((block) => block > low && block < high);
    if (probes.length === 0) break;
    const results = await Promise.all(probes.map(hasCode));
    const first = results.indexOf(true);
    if (first === -1) low = probes[probes.length - 1] ?? low;
    else {
      high = probes[first] ?? high;
      if (first > 0) low = probes[first - 1] ?? low;
    }
  }
  const receipts = await client.getBlockReceipts({ blockNumber: high });
  const target = getAddress(address);
  const direct = receipts.find(
    (receipt) => receipt.contractAddress && getAddress(receipt.contractAddress) === target,
  );
  if (direct) return creation(high, direct.transactionHash, direct.from, 'create_tx');
  const touching = receipts.find((receipt) => receipt.logs.some((log) => getAddress(log.address) === target));
  if (touching) return creation(high, touching.transactionHash, touching.from, 'first_tx');
  return undefined;
}

function creation(block: bigint, tx: Hash, from: Address, via: Creation['via']): Creation {
  return { block: block.toString(), tx, deployer: getAddress(from), via };
}
