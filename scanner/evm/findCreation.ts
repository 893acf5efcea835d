import { type Address, getAddress, type Hash, parseAbiItem, type PublicClient, zeroAddress } from 'viem';
import type { Creation } from '../core/schema.ts';
import { firstBlockWhere } from './firstBlock.ts';

const mintTransfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** Blocks probed per round: one JSON-RPC batch narrows the range 32-fold. */
const FAN_OUT = 32;

/**
 * Finds the block and transaction that created a contract and who sent it, with plain JSON-RPC
 * (no explorer): the transaction of its first mint when it minted in its constructor, else a search over `eth_getCode` at past blocks for the first block with code (a
 * batch of probes per round, so ~log32 of the chain height in round trips), then that block's
 * receipts. A contract made by a factory is credited to the sender of the first transaction in
 * that block whose logs come from it. Needs state at past blocks (an archive provider beyond
 * the usual 128 recent blocks); undefined when that is not available or nothing matches.
 */
export async function findCreation(
  client: PublicClient,
  { address, blockNumber, logWindow }: { address: Address; blockNumber: bigint; logWindow?: bigint },
): Promise<Creation | undefined> {
  // Fast path: most tokens mint their supply in the constructor, so the first Transfer from the
  // zero address is in the creating transaction. A provider that refuses the range falls through.
  const fromBlock = logWindow === undefined || blockNumber < logWindow ? 0n : blockNumber - logWindow;
  const mints = await client
    .getLogs({ address, event: mintTransfer, args: { from: zeroAddress }, fromBlock, toBlock: blockNumber })
    .catch(() => []);
  const firstMint = mints[0];
  if (firstMint) {
    const receipt = await client.getTransactionReceipt({ hash: firstMint.transactionHash });
    const target = getAddress(address);
    if (receipt.contractAddress && getAddress(receipt.contractAddress) === target)
      return creation(receipt.blockNumber, receipt.transactionHash, receipt.from, 'create_tx');
  }
  const hasCode = async (block: bigint) => {
    const code = await client.getCode({ address, blockNumber: block });
    return code !== undefined && code !== '0x';
  };
  if (await hasCode(0n)) return undefined; // genesis allocations have no creating transaction
  const high = await firstBlockWhere(hasCode, 0n, blockNumber, FAN_OUT);
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
