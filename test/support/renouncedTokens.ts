import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, type Hex, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll } from 'vitest';
import { harmClasses } from '../../scanner/core/risk/harm.ts';
import {
  type ListingDevnet,
  listWithPair,
  onSnapshot,
  scanInOrder,
  scanOnce,
  sendAs,
  startListingDevnet,
} from './listedTokens.ts';

// What the tests of tokens listed with a pool and renounced share (forged signatures, equalities
// compiled as a subtraction, commands behind an operator: scanner/evm/forgedPermit.test.ts,
// commandOperator.test.ts and their attacks): the devnet, the tokens listed and renounced, each
// scanned once before the tests, and a wallet's calls sent as transactions on a snapshot with what
// they moved.

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
async function listRenounced<Key extends string>(
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

/**
 * A test file's tokens, from the contracts compiled in `folder`: before the tests, a devnet is
 * started, each contract listed and renounced (but those in `keep`) and each token scanned once, in
 * order (`scanTimes`: how long each took); `scan` and `classes` answer from that scan. The devnet is
 * stopped after the tests.
 */
export function renouncedTokenScans<Key extends string>(
  folder: URL,
  contracts: Record<Key, string>,
  { keep = [], timeoutMs = 900_000 }: { keep?: readonly NoInfer<Key>[]; timeoutMs?: number } = {},
) {
  let started: ListingDevnet | undefined;
  const tokens = {} as Record<Key, Address>;
  const scanTimes = new Map<Key, number>();
  const suite = {
    get devnet(): ListingDevnet {
      if (!started) throw new Error('the devnet starts before the tests');
      return started;
    },
    tokens,
    scanTimes,
    scan: (key: Key) => scanOf(tokens[key]),
    classes: async (key: Key) => harmClasses((await suite.scan(key)).checks),
  };
  const scanOf = scanOnce(() => suite.devnet);
  beforeAll(async () => {
    started = await startListingDevnet(fileURLToPath(folder));
    Object.assign(tokens, await listRenounced(started, contracts, keep));
    for (const [key, ms] of await scanInOrder(Object.keys(contracts) as Key[], suite.scan))
      scanTimes.set(key, ms);
  }, timeoutMs);
  afterAll(() => started?.node.stop());
  return suite;
}
