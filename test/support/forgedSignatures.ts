import { type Address, encodeFunctionData, type Hex, parseAbi, parseEther } from 'viem';
import { type ListingDevnet, listWithPair, onSnapshot, sendAs } from './listedTokens.ts';

// What the forged-signature tests share (scanner/evm/forgedPermit.test.ts and
// forgedSignature.attacks.test.ts): their tokens listed with a pool and renounced, and a wallet's
// calls sent as transactions on a snapshot with what they moved.

export const SUPPLY = 10n ** 27n;
/** A deadline far off: 2100-01-01. */
export const DEADLINE = 4_102_444_800n;

export const signedAbi = parseAbi([
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, bytes signature)',
  'function permit(address holder, address spender, uint256 nonce, uint256 expiry, bool allowed, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function renounceOwnership()',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
]);

/**
 * Each contract deployed with the supply, listed with half of it against 10 ETH, and renounced
 * (but those in `keep`, which have no owner to renounce).
 */
export async function listRenounced<Key extends string>(
  devnet: ListingDevnet,
  contracts: Record<Key, string>,
  keep: readonly Key[] = [],
): Promise<Record<Key, Address>> {
  const tokens = {} as Record<Key, Address>;
  for (const [key, contract] of Object.entries(contracts) as [Key, string][]) {
    tokens[key] = (
      await listWithPair(devnet, contract, { args: [SUPPLY], tokens: SUPPLY / 2n, eth: parseEther('10') })
    ).address;
    if (keep.includes(key)) continue;
    await devnet.sender.send({
      label: `renounce ${contract}`,
      to: tokens[key],
      data: encodeFunctionData({ abi: signedAbi, functionName: 'renounceOwnership' }),
    });
    await devnet.sender.settle();
  }
  return tokens;
}

/** transferFrom(from, to, amount). */
export const take = (from: Address, amount: bigint, to: Address): Hex =>
  encodeFunctionData({ abi: signedAbi, functionName: 'transferFrom', args: [from, to, amount] });

/**
 * On a snapshot: each call a transaction to `token` (from `from` unless the call names its own
 * sender); which went through, what was minted, what `owner` lost and what `receiver` gained.
 */
export function sentOnSnapshot(
  devnet: ListingDevnet,
  token: Address,
  { from, owner, receiver = from }: { from: Address; owner: Address; receiver?: Address },
  calls: readonly (Hex | { from: Address; data: Hex })[],
) {
  const read = (functionName: 'totalSupply' | 'balanceOf', account?: Address) =>
    functionName === 'totalSupply'
      ? devnet.client.readContract({ address: token, abi: signedAbi, functionName })
      : devnet.client.readContract({
          address: token,
          abi: signedAbi,
          functionName,
          args: [account as Address],
        });
  return onSnapshot(devnet, async () => {
    const [supplyBefore, ownerBefore, receiverBefore] = [
      await read('totalSupply'),
      await read('balanceOf', owner),
      await read('balanceOf', receiver),
    ];
    const sent: boolean[] = [];
    for (const call of calls) {
      const { from: sender, data } = typeof call === 'string' ? { from, data: call } : call;
      sent.push(await sendAs(devnet, { from: sender, to: token, data }));
    }
    return {
      sent,
      minted: (await read('totalSupply')) - supplyBefore,
      lost: ownerBefore - (await read('balanceOf', owner)),
      gained: (await read('balanceOf', receiver)) - receiverBefore,
    };
  });
}
