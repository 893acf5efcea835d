import {
  type Address,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  hexToBigInt,
  keccak256,
  type PublicClient,
} from 'viem';
import { tryRead } from './tryRead.ts';

/** Mapping slots tried for the balances: the first dozen state variables (solc) and the first four (Vyper). */
const SOLIDITY_SLOTS = 12;
const VYPER_SLOTS = 4;

/** Where a token keeps its balances: the mapping's slot, and whether the key comes first (solc). */
export interface BalanceSlot {
  slot: bigint;
  keyFirst: boolean;
}

/** The storage word that holds `account`'s balance in the mapping at `at`. */
export function balanceKey(at: BalanceSlot, account: Address): Hex {
  const key = { type: 'address' } as const;
  const slot = { type: 'uint256' } as const;
  return keccak256(
    at.keyFirst
      ? encodeAbiParameters([key, slot], [account, at.slot])
      : encodeAbiParameters([slot, key], [at.slot, account]),
  );
}

/**
 * The balances mapping's slot, found from a holder whose balance is known (the pool's): the
 * mapping entry that holds exactly balanceOf(holder). Undefined when none does (a reflection
 * token keeps other numbers; a holder with nothing proves nothing).
 */
export async function findBalanceSlot(
  client: PublicClient,
  { token, holder, blockNumber }: { token: Address; holder: Address; blockNumber: bigint },
): Promise<BalanceSlot | undefined> {
  const layouts: BalanceSlot[] = [
    ...Array.from({ length: SOLIDITY_SLOTS }, (_, slot) => ({ slot: BigInt(slot), keyFirst: true })),
    ...Array.from({ length: VYPER_SLOTS }, (_, slot) => ({ slot: BigInt(slot), keyFirst: false })),
  ];
  // One round trip: the balance and every candidate entry read side by side.
  const [balance, ...words] = await Promise.all([
    tryRead(() =>
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [holder],
        blockNumber,
      }),
    ),
    ...layouts.map((layout) =>
      tryRead(() => client.getStorageAt({ address: token, slot: balanceKey(layout, holder), blockNumber })),
    ),
  ]);
  if (!balance) return undefined;
  const found = words.findIndex(
    (word) => word !== undefined && word !== '0x' && hexToBigInt(word) === balance,
  );
  return found === -1 ? undefined : layouts[found];
}
