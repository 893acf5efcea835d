import { type Address, type Hex, parseAbi, type PublicClient, toFunctionSelector } from 'viem';
import { PROXY_TIMELOCK_MIN_SECONDS } from '../core/risk/model.ts';
import { bytecodeFingerprint } from '../fingerprint/bytecodeFingerprint.ts';
import { tryRead } from './tryRead.ts';

const timelockAbi = parseAbi(['function getMinDelay() view returns (uint256)']);

/**
 * Every function of OpenZeppelin's TimelockController, in its 4.x and 5.x releases (the
 * ERC-721/1155 receivers, AccessControl and ERC-165 included). Its delay changes only through
 * itself (`updateDelay` takes calls from the timelock alone), and every call it makes waits that
 * long after it was scheduled, in public.
 */
const TIMELOCK_CONTROLLER_FUNCTIONS = [
  'function DEFAULT_ADMIN_ROLE()',
  'function TIMELOCK_ADMIN_ROLE()',
  'function PROPOSER_ROLE()',
  'function EXECUTOR_ROLE()',
  'function CANCELLER_ROLE()',
  'function cancel(bytes32)',
  'function execute(address,uint256,bytes,bytes32,bytes32)',
  'function executeBatch(address[],uint256[],bytes[],bytes32,bytes32)',
  'function getMinDelay()',
  'function getOperationState(bytes32)',
  'function getRoleAdmin(bytes32)',
  'function getTimestamp(bytes32)',
  'function grantRole(bytes32,address)',
  'function hasRole(bytes32,address)',
  'function hashOperation(address,uint256,bytes,bytes32,bytes32)',
  'function hashOperationBatch(address[],uint256[],bytes[],bytes32,bytes32)',
  'function isOperation(bytes32)',
  'function isOperationDone(bytes32)',
  'function isOperationPending(bytes32)',
  'function isOperationReady(bytes32)',
  'function onERC1155BatchReceived(address,address,uint256[],uint256[],bytes)',
  'function onERC1155Received(address,address,uint256,uint256,bytes)',
  'function onERC721Received(address,address,uint256,bytes)',
  'function renounceRole(bytes32,address)',
  'function revokeRole(bytes32,address)',
  'function schedule(address,uint256,bytes,bytes32,bytes32,uint256)',
  'function scheduleBatch(address[],uint256[],bytes[],bytes32,bytes32,uint256)',
  'function supportsInterface(bytes4)',
  'function updateDelay(uint256)',
];
const TIMELOCK_CONTROLLER = new Set<string>(
  TIMELOCK_CONTROLLER_FUNCTIONS.map((fn) => toFunctionSelector(fn)),
);
/** What a TimelockController cannot be without. */
const TIMELOCK_CORE = [
  'function getMinDelay()',
  'function schedule(address,uint256,bytes,bytes32,bytes32,uint256)',
  'function execute(address,uint256,bytes,bytes32,bytes32)',
  'function updateDelay(uint256)',
].map((fn) => toFunctionSelector(fn));

/**
 * Whether runtime code is a TimelockController's: its dispatcher has the core functions and
 * nothing else than the contract's own (a function of its own beside them, such as an
 * "emergency" call that skips the wait, makes it no timelock here). Pure.
 */
export function isTimelockController(code: Hex | undefined): boolean {
  const selectors = code ? (bytecodeFingerprint(code)?.selectors ?? []) : [];
  return (
    TIMELOCK_CORE.every((selector) => selectors.includes(selector)) &&
    selectors.every((selector) => TIMELOCK_CONTROLLER.has(selector))
  );
}

/**
 * The accounts among `accounts` that are timelocks of at least a day (PROXY_TIMELOCK_MIN_SECONDS):
 * OpenZeppelin's TimelockController by its dispatcher, and its delay as getMinDelay() reads at
 * the block. A power only such an account can use is no class (every use waits in public for a
 * day or more: time for holders to leave), as an upgrade through one is no immediate one.
 */
export async function readTimelocks(
  client: PublicClient,
  { accounts, blockNumber }: { accounts: readonly Address[]; blockNumber: bigint },
): Promise<Map<Address, number>> {
  const found = await Promise.all(
    accounts.map(async (account): Promise<[Address, number] | undefined> => {
      const code = await client.getCode({ address: account, blockNumber });
      if (!isTimelockController(code)) return undefined;
      const delay = await tryRead(() =>
        client.readContract({ address: account, abi: timelockAbi, functionName: 'getMinDelay', blockNumber }),
      );
      return delay !== undefined && delay >= BigInt(PROXY_TIMELOCK_MIN_SECONDS)
        ? [account, Number(delay)]
        : undefined;
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
}
