import {
  type Address,
  getAddress,
  type Hex,
  parseAbi,
  parseAbiItem,
  type PublicClient,
  toFunctionSelector,
} from 'viem';
import { PROXY_TIMELOCK_MIN_SECONDS } from '../core/risk/model.ts';
import { bytecodeFingerprint } from '../fingerprint/bytecodeFingerprint.ts';
import { readLogs } from './readLogs.ts';
import { tryRead } from './tryRead.ts';

const timelockAbi = parseAbi([
  'function getMinDelay() view returns (uint256)',
  'function isOperationPending(bytes32 id) view returns (bool)',
]);
const callScheduled = parseAbiItem(
  'event CallScheduled(bytes32 indexed id, uint256 indexed index, address target, uint256 value, bytes data, bytes32 predecessor, uint256 delay)',
);
/** Calls a timelock's schedule is read for, at most: past that it is not read. */
const MAX_SCHEDULED = 1_000;
/** Log requests one timelock's schedule may take (a history longer than that is not read). */
const MAX_SCHEDULE_REQUESTS = 20;

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

/** A timelock among the candidates, and what it has waiting for the token. */
export interface Timelock {
  delaySeconds: number;
  /**
   * Calls to the token it has scheduled and not yet executed or cancelled (each may run once its
   * delay is over, without anything new in public); null when its schedule could not be read.
   */
  pending: number | null;
}

/**
 * The accounts among `accounts` that are timelocks of at least a day (PROXY_TIMELOCK_MIN_SECONDS):
 * OpenZeppelin's TimelockController by its dispatcher, and its delay as getMinDelay() reads at
 * the block; with the calls to `token` it has scheduled and not run (its CallScheduled logs since
 * `fromBlock`, each still pending at the block). A power only such an account can use, with
 * nothing to the token waiting, is no class (every use waits in public for a day or more: time for
 * holders to leave), as an upgrade through one is no immediate one.
 */
export async function readTimelocks(
  client: PublicClient,
  {
    accounts,
    token,
    fromBlock,
    blockNumber,
    chunk,
  }: { accounts: readonly Address[]; token: Address; fromBlock: bigint; blockNumber: bigint; chunk: number },
): Promise<Map<Address, Timelock>> {
  const found = await Promise.all(
    accounts.map(async (account): Promise<[Address, Timelock] | undefined> => {
      const code = await client.getCode({ address: account, blockNumber });
      if (!isTimelockController(code)) return undefined;
      const delay = await tryRead(() =>
        client.readContract({ address: account, abi: timelockAbi, functionName: 'getMinDelay', blockNumber }),
      );
      if (delay === undefined || delay < BigInt(PROXY_TIMELOCK_MIN_SECONDS)) return undefined;
      return [
        account,
        {
          delaySeconds: Number(delay),
          pending: await pendingCalls(client, account, { token, fromBlock, blockNumber, chunk }),
        },
      ];
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
}

async function pendingCalls(
  client: PublicClient,
  timelock: Address,
  {
    token,
    fromBlock,
    blockNumber,
    chunk,
  }: { token: Address; fromBlock: bigint; blockNumber: bigint; chunk: number },
): Promise<number | null> {
  if (blockNumber < fromBlock || (blockNumber - fromBlock) / BigInt(chunk) >= MAX_SCHEDULE_REQUESTS)
    return null;
  const scheduled = await tryRead(() =>
    readLogs(client, {
      address: timelock,
      event: callScheduled,
      fromBlock,
      toBlock: blockNumber,
      chunk,
      maxLogs: MAX_SCHEDULED,
    }),
  );
  if (!scheduled?.complete) return null;
  const ids = [
    ...new Set(
      scheduled.logs
        .filter((log) => getAddress(log.args.target) === getAddress(token))
        .map((log) => log.args.id),
    ),
  ];
  const states = await Promise.all(
    ids.map((id) =>
      tryRead(() =>
        client.readContract({
          address: timelock,
          abi: timelockAbi,
          functionName: 'isOperationPending',
          args: [id],
          blockNumber,
        }),
      ),
    ),
  );
  return states.includes(undefined) ? null : states.filter(Boolean).length;
}
