import type { SettleResponse } from '@x402/core/types';
import { type Hex, getAddress, parseEventLogs } from 'viem';
import { type FacilitatorWallet, tokenAbi } from './chain.ts';
import type { FacilitatorRequest } from './requestSchema.ts';

/**
 * The settlement of an authorization whose answer was lost (a crash between broadcast and storing
 * it, a Redis flush): the token's `AuthorizationUsed(authorizer, nonce)` log names the transaction,
 * which counts only if it succeeded and moved exactly the required amount to the payee. A nonce
 * the payer cancelled, or used for anything else, is not a settlement.
 */
export async function findSettlement(
  wallet: FacilitatorWallet,
  { requirements, authorization }: FacilitatorRequest,
  lookbackBlocks: bigint,
): Promise<SettleResponse | undefined> {
  const latest = await wallet.getBlockNumber();
  const logs = await wallet.getLogs({
    address: getAddress(requirements.asset),
    event: tokenAbi[6],
    args: { authorizer: getAddress(authorization.from), nonce: authorization.nonce as Hex },
    fromBlock: latest > lookbackBlocks ? latest - lookbackBlocks : 0n,
    toBlock: latest,
  });
  const hash = logs[0]?.transactionHash;
  if (!hash) return undefined;
  const receipt = await wallet.getTransactionReceipt({ hash });
  const paid = parseEventLogs({ abi: tokenAbi, logs: receipt.logs, eventName: 'Transfer' }).some(
    (log) =>
      log.address.toLowerCase() === requirements.asset.toLowerCase() &&
      log.args.from.toLowerCase() === authorization.from.toLowerCase() &&
      log.args.to.toLowerCase() === requirements.payTo.toLowerCase() &&
      log.args.value === BigInt(requirements.amount),
  );
  if (receipt.status !== 'success' || !paid) return undefined;
  return { success: true, transaction: hash, network: requirements.network, payer: authorization.from };
}
