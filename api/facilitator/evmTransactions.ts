import { eip3009ABI } from '@x402/evm';
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  parseErc6492Signature,
  parseEventLogs,
  parseSignature,
  serializeSignature,
} from 'viem';
import { type FacilitatorWallet, tokenAbi } from './chain.ts';
import type { FacilitatorRequest } from './requestSchema.ts';
import type { ObservedUse } from './settlementStore.ts';

/** What a transaction did, or that the node does not have it (yet). */
export type Observation = ObservedUse | 'pending' | 'unknown';

/**
 * What a transaction did with EIP-3009 on `asset`: the `transferWithAuthorization` call it made
 * (only a direct call to the token counts: a batch contract calling the token for several
 * authorizations is no one's settlement), what it moved from `authorizer`, and whether it
 * succeeded.
 */
export async function observeTransaction(
  wallet: FacilitatorWallet,
  hash: Hex,
  asset: Address,
  authorizer: Address,
): Promise<Observation> {
  let transaction;
  try {
    transaction = await wallet.getTransaction({ hash });
  } catch {
    return 'unknown';
  }
  if (transaction.blockNumber === null) return 'pending';
  const receipt = await wallet.getTransactionReceipt({ hash });
  const moved: Record<string, bigint> = {};
  const transfers = parseEventLogs({ abi: tokenAbi, logs: receipt.logs, eventName: 'Transfer' });
  for (const log of transfers) {
    if (log.address.toLowerCase() !== asset.toLowerCase()) continue;
    if (log.args.from.toLowerCase() !== authorizer.toLowerCase()) continue;
    const to = log.args.to.toLowerCase();
    moved[to] = (moved[to] ?? 0n) + log.args.value;
  }
  return {
    transaction: hash,
    call:
      transaction.to && transaction.to.toLowerCase() === asset.toLowerCase()
        ? decodeTransfer(transaction.input)
        : null,
    moved: Object.fromEntries(Object.entries(moved).map(([to, value]) => [to, value.toString()])),
    succeeded: receipt.status === 'success',
  };
}

/**
 * Whether a transaction is exactly the settlement of this request: it succeeded, called
 * `transferWithAuthorization` on the asset with exactly the request's fields and signature, and
 * moved exactly the required amount from the payer to the payee, and nothing else.
 */
export function usePays(
  use: ObservedUse,
  { requirements, authorization, payload }: FacilitatorRequest,
): boolean {
  const { call } = use;
  if (!use.succeeded || !call) return false;
  const signature = (payload.payload as { signature?: string }).signature ?? '';
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const exactCall =
    same(call.from, authorization.from) &&
    same(call.to, authorization.to) &&
    call.value === BigInt(authorization.value).toString() &&
    call.validAfter === BigInt(authorization.validAfter).toString() &&
    call.validBefore === BigInt(authorization.validBefore).toString() &&
    same(call.nonce, authorization.nonce) &&
    same(call.signature, normalizedSignature(signature));
  const recipients = Object.entries(use.moved);
  const exactTransfer =
    recipients.length === 1 &&
    recipients[0] !== undefined &&
    same(recipients[0][0], requirements.payTo) &&
    recipients[0][1] === BigInt(requirements.amount).toString();
  return exactCall && exactTransfer && same(authorization.to, requirements.payTo);
}

/**
 * Looks for the transaction that spent an authorization's nonce, only among the blocks it could
 * have been settled in by this facilitator: a payload is accepted only while its `validBefore` is
 * at most `maxValiditySeconds` away, so its settlement was mined within that span before
 * `validBefore` (and `lookbackBlocks` caps the search). One indexed log query; a nonce spent
 * earlier (or cancelled) is nobody's settlement here.
 */
export async function findUse(
  wallet: FacilitatorWallet,
  { requirements, authorization }: FacilitatorRequest,
  window: { maxValiditySeconds: number; lookbackBlocks: bigint },
): Promise<ObservedUse> {
  const asset = getAddress(requirements.asset);
  const authorizer = getAddress(authorization.from);
  const latest = await wallet.getBlock({ blockTag: 'latest' });
  const earliest = BigInt(authorization.validBefore) - BigInt(window.maxValiditySeconds);
  let fromBlock = latest.number > window.lookbackBlocks ? latest.number - window.lookbackBlocks : 0n;
  if (latest.timestamp > earliest && fromBlock > 0n) {
    // Blocks per second over the capped span, to skip what was mined before the window opened.
    const oldest = await wallet.getBlock({ blockNumber: fromBlock });
    const span = latest.timestamp - oldest.timestamp;
    if (span > 0n) {
      const blocks = ((latest.timestamp - earliest) * (latest.number - fromBlock)) / span;
      const start = latest.number - blocks * 2n - 1n;
      if (start > fromBlock) fromBlock = start;
    }
  }
  const logs = await wallet.getLogs({
    address: asset,
    event: tokenAbi[6],
    args: { authorizer, nonce: authorization.nonce as Hex },
    fromBlock,
    toBlock: latest.number,
  });
  const hash = logs[0]?.transactionHash;
  const none: ObservedUse = { transaction: null, call: null, moved: {}, succeeded: false };
  if (!hash) return none;
  const observed = await observeTransaction(wallet, hash, asset, authorizer);
  return typeof observed === 'string' ? none : observed;
}

/** A 65-byte signature in one spelling (v as 27/28), so the call's (v, r, s) and the payload's bytes compare. */
export function normalizedSignature(signature: string): string {
  const inner = parseErc6492Signature(signature as Hex).signature;
  if (inner.length !== 132) return inner.toLowerCase();
  return serializeSignature(parseSignature(inner)).toLowerCase();
}

function decodeTransfer(input: Hex): ObservedUse['call'] {
  let decoded;
  try {
    decoded = decodeFunctionData({ abi: eip3009ABI, data: input });
  } catch {
    return null;
  }
  if (decoded.functionName !== 'transferWithAuthorization') return null;
  const args = decoded.args as readonly unknown[];
  const [from, to, value, validAfter, validBefore, nonce] = args as [
    string,
    string,
    bigint,
    bigint,
    bigint,
    string,
  ];
  const v = Number(args[6]);
  const signature =
    args.length === 9
      ? serializeSignature({
          v: BigInt(v < 27 ? v + 27 : v),
          r: args[7] as Hex,
          s: args[8] as Hex,
        }).toLowerCase()
      : String(args[6]).toLowerCase();
  return {
    from,
    to,
    value: value.toString(),
    validAfter: validAfter.toString(),
    validBefore: validBefore.toString(),
    nonce,
    signature,
  };
}
