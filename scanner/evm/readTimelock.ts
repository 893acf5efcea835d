import {
  type Address,
  concat,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  numberToHex,
  parseAbi,
  type PublicClient,
  toFunctionSelector,
  toHex,
} from 'viem';
import { isRpcUnreachable, scrubUrls } from '../../clients/chains/rpcErrors.ts';
import { PROXY_TIMELOCK_MIN_SECONDS } from '../core/risk/model.ts';
import { bytecodeFingerprint } from '../fingerprint/bytecodeFingerprint.ts';
import { tryRead } from './tryRead.ts';

/**
 * Whether a proxy's upgrade authority that says it is a timelock (getMinDelay() of a day or more)
 * makes every upgrade wait that long, or can replace the code sooner: a view that says "two days"
 * is no wait. Used to weigh a proxy (upgrades that wait a day weigh `low`); a power over holders a
 * timelock holds is not weighed down by it (see docs/risk-model.md, known limits: a look-alike
 * keyed to what this does not try, or state its deployment wrote, cannot be told from outside).
 *
 * Only OpenZeppelin's TimelockController (4.x and 5.x) is recognised, and it is not taken on its
 * word. Its dispatcher must offer that contract's functions and nothing else (a look-alike with
 * one more function, an `executeNow`, is refused), its getMinDelay() must be a day or more, and a
 * simulation tries the ways a look-alike could skip the wait, from every account the scan suspects:
 * changing the delay, scheduling under the delay, executing or batch-executing what was never
 * scheduled, executing at once what was just scheduled, and a batch that schedules itself while it
 * runs (releases before 4.3.1 checked an operation was ready only after making its calls). Any of
 * them working, or a node that cannot simulate, makes it no timelock; so does an operation
 * scheduled earlier that is ready, or will be within a day (its notice is given already: the call
 * may land at any moment). Hand-written: no library verifies a timelock's behaviour.
 */

/** Gas each simulated call may use: a schedule writes a slot or two, an execute one call. */
const CALL_GAS = 1_000_000n;

const timelockAbi = parseAbi([
  'function getMinDelay() view returns (uint256)',
  'function getTimestamp(bytes32 id) view returns (uint256)',
  'function grantRole(bytes32 role, address account)',
  'function updateDelay(uint256 newDelay)',
  'function schedule(address target, uint256 value, bytes data, bytes32 predecessor, bytes32 salt, uint256 delay)',
  'function scheduleBatch(address[] targets, uint256[] values, bytes[] payloads, bytes32 predecessor, bytes32 salt, uint256 delay)',
  'function execute(address target, uint256 value, bytes payload, bytes32 predecessor, bytes32 salt) payable',
  'function executeBatch(address[] targets, uint256[] values, bytes[] payloads, bytes32 predecessor, bytes32 salt) payable',
]);

/** The functions TimelockController has (4.x and 5.x), and the interface ids its supportsInterface compares. */
const TIMELOCK_SIGNATURES = [
  'CANCELLER_ROLE()',
  'DEFAULT_ADMIN_ROLE()',
  'EXECUTOR_ROLE()',
  'PROPOSER_ROLE()',
  'TIMELOCK_ADMIN_ROLE()',
  'cancel(bytes32)',
  'execute(address,uint256,bytes,bytes32,bytes32)',
  'executeBatch(address[],uint256[],bytes[],bytes32,bytes32)',
  'getMinDelay()',
  'getOperationState(bytes32)',
  'getRoleAdmin(bytes32)',
  'getTimestamp(bytes32)',
  'grantRole(bytes32,address)',
  'hasRole(bytes32,address)',
  'hashOperation(address,uint256,bytes,bytes32,bytes32)',
  'hashOperationBatch(address[],uint256[],bytes[],bytes32,bytes32)',
  'isOperation(bytes32)',
  'isOperationDone(bytes32)',
  'isOperationPending(bytes32)',
  'isOperationReady(bytes32)',
  'onERC1155BatchReceived(address,address,uint256[],uint256[],bytes)',
  'onERC1155Received(address,address,uint256,uint256,bytes)',
  'onERC721Received(address,address,uint256,bytes)',
  'renounceRole(bytes32,address)',
  'revokeRole(bytes32,address)',
  'schedule(address,uint256,bytes,bytes32,bytes32,uint256)',
  'scheduleBatch(address[],uint256[],bytes[],bytes32,bytes32,uint256)',
  'supportsInterface(bytes4)',
  'updateDelay(uint256)',
];
/** IERC165, IAccessControl, IERC1155Receiver: compared with PUSH4 … EQ like a selector. */
const INTERFACE_IDS = ['0x01ffc9a7', '0x7965db0b', '0x4e2312e0'];
const KNOWN = new Set<string>([
  ...TIMELOCK_SIGNATURES.map((signature) => toFunctionSelector(signature)),
  ...INTERFACE_IDS,
]);
/** What makes one: the delay, scheduling, executing, and the delay's own setter. */
const REQUIRED = [
  'getMinDelay()',
  'schedule(address,uint256,bytes,bytes32,bytes32,uint256)',
  'scheduleBatch(address[],uint256[],bytes[],bytes32,bytes32,uint256)',
  'execute(address,uint256,bytes,bytes32,bytes32)',
  'executeBatch(address[],uint256[],bytes[],bytes32,bytes32)',
  'updateDelay(uint256)',
].map((signature) => toFunctionSelector(signature));

/** What TimelockController logs of its operations (the same in 4.x and 5.x). */
const operationEvents = parseAbi([
  'event CallScheduled(bytes32 indexed id, uint256 indexed index, address target, uint256 value, bytes data, bytes32 predecessor, uint256 delay)',
  'event CallExecuted(bytes32 indexed id, uint256 indexed index, address target, uint256 value, bytes data)',
  'event Cancelled(bytes32 indexed id)',
]);
/** Pending operations whose time is read, at most: a timelock with more is not taken for one. */
const MAX_PENDING = 64;
/** getTimestamp() of an operation done; above it, the time a pending one becomes ready. */
const DONE_TIMESTAMP = 1n;

export type TimelockVerdict =
  | { kind: 'timelock'; address: Address; delaySeconds: number }
  | { kind: 'not'; address: Address; reason: string };

/** One simulated call and whether it may work (a proposer's schedule may; a skip of the wait may not). */
interface Attempt {
  from: Address;
  data: Hex;
  what: string;
  mayWork: boolean;
  /** A contract the caller could deploy, put in place for the simulation, that the attempt reaches. */
  helper?: { address: Address; code: Hex };
}

/**
 * Whether `account` is a timelock whose every call waits at least a day, tried against `token`
 * from `callers` (the accounts the scan suspects; the timelock itself is skipped: it may change
 * its own delay, through a call that waited). `minDelay` is its getMinDelay() at the block where
 * the caller read it already; read here otherwise.
 */
export async function readTimelock(
  client: PublicClient,
  {
    account,
    token,
    callers,
    blockNumber,
    minDelay,
  }: {
    account: Address;
    token: Address;
    callers: readonly Address[];
    blockNumber: bigint;
    minDelay?: bigint;
  },
): Promise<TimelockVerdict> {
  const not = (reason: string): TimelockVerdict => ({ kind: 'not', address: account, reason });
  const code = await client.getCode({ address: account, blockNumber });
  if (!code || code === '0x') return not('an account without code');
  const selectors = new Set(bytecodeFingerprint(code)?.selectors ?? []);
  const missing = REQUIRED.filter((selector) => !selectors.has(selector));
  if (missing.length > 0) return not(`no TimelockController: ${missing.join(', ')} missing`);
  const extra = [...selectors].filter((selector) => !KNOWN.has(selector));
  if (extra.length > 0) return not(`functions a TimelockController does not have: ${extra.join(', ')}`);
  const delay =
    minDelay ??
    (await tryRead(() =>
      client.readContract({ address: account, abi: timelockAbi, functionName: 'getMinDelay', blockNumber }),
    ));
  if (delay === undefined) return not('getMinDelay() did not answer');
  if (delay < BigInt(PROXY_TIMELOCK_MIN_SECONDS)) return not(`a minimum delay of ${delay} s, under a day`);
  const soon = await readySoon(client, { account, blockNumber });
  if (soon) return not(soon);
  const others = [...new Set(callers.map((caller) => caller.toLowerCase()))]
    .filter((caller) => caller !== account.toLowerCase() && caller !== token.toLowerCase())
    .map((caller) => caller as Address);
  const attempts = others.flatMap((from, index) => skips(from, index, token, account, delay));
  const worked = await simulate(client, { account, attempts, blockNumber });
  if (typeof worked === 'string') return not(`its wait could not be tried (${worked})`);
  const skipped = attempts.find((attempt, index) => !attempt.mayWork && worked[index]);
  if (skipped) return not(`${skipped.what} worked at once for ${skipped.from}`);
  return { kind: 'timelock', address: account, delaySeconds: Number(delay) };
}

/**
 * Why an operation scheduled before `blockNumber` can run within a day of it, if one can: it is
 * pending, and ready now or before a day has passed. Logs that cannot be read count as one.
 */
async function readySoon(
  client: PublicClient,
  { account, blockNumber }: { account: Address; blockNumber: bigint },
): Promise<string | undefined> {
  try {
    const [logs, block] = await Promise.all([
      client.getLogs({ address: account, events: operationEvents, fromBlock: 0n, toBlock: blockNumber }),
      client.getBlock({ blockNumber }),
    ]);
    const closed = new Set(
      logs.filter((log) => log.eventName !== 'CallScheduled').map((log) => log.args.id?.toLowerCase()),
    );
    const pending = [
      ...new Set(
        logs
          .filter((log) => log.eventName === 'CallScheduled')
          .map((log) => log.args.id?.toLowerCase())
          .filter((id) => id !== undefined && !closed.has(id)),
      ),
    ] as Hex[];
    if (pending.length > MAX_PENDING)
      return `${pending.length} operations scheduled and pending, too many to read`;
    const times = await Promise.all(
      pending.map((id) =>
        client.readContract({
          address: account,
          abi: timelockAbi,
          functionName: 'getTimestamp',
          args: [id],
          blockNumber,
        }),
      ),
    );
    const within = block.timestamp + BigInt(PROXY_TIMELOCK_MIN_SECONDS);
    const index = times.findIndex((time) => time > DONE_TIMESTAMP && time < within);
    if (index < 0) return undefined;
    const time = times[index] as bigint;
    return `the operation ${pending[index]}, scheduled earlier, ${time <= block.timestamp ? 'is ready now' : `is ready ${time - block.timestamp} s on`}`;
  } catch (error) {
    if (isRpcUnreachable(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return `its scheduled operations could not be read (${scrubUrls(message.split('\n')[0] ?? 'failed').slice(0, 160)})`;
  }
}

/**
 * A contract that calls `timelock` with `data` (its code carries it), reverting if that fails:
 * what a batch can reach so that the batch schedules itself while it runs.
 */
function forwarder(timelock: Address, data: Hex): Hex {
  const length = (data.length - 2) / 2;
  const word = numberToHex(length, { size: 2 }).slice(2);
  // CODECOPY the data (it starts at byte 51) to memory 0, CALL the timelock with it, and revert
  // unless the call worked (a JUMPI to the STOP at byte 50).
  return concat([
    `0x61${word}6033600039`,
    `0x6000600061${word}60006000`,
    `0x73${timelock.slice(2)}`,
    '0x5af1603157600080fd5b00',
    data,
  ]);
}

/** The ways a look-alike could skip its wait, for one caller (salts apart per caller and per try). */
function skips(from: Address, index: number, token: Address, timelock: Address, delay: bigint): Attempt[] {
  const payload = encodeFunctionData({ abi: erc20Abi, functionName: 'totalSupply' });
  const none = numberToHex(0n, { size: 32 });
  const salt = (step: number) => numberToHex(BigInt(index) * 16n + BigInt(step) + 1n, { size: 32 });
  const schedule = (step: number, wait: bigint) =>
    encodeFunctionData({
      abi: timelockAbi,
      functionName: 'schedule',
      args: [token, 0n, payload, none, salt(step), wait],
    });
  const scheduleBatch = (step: number, wait: bigint) =>
    encodeFunctionData({
      abi: timelockAbi,
      functionName: 'scheduleBatch',
      args: [[token], [0n], [payload], none, salt(step), wait],
    });
  const execute = (step: number) =>
    encodeFunctionData({
      abi: timelockAbi,
      functionName: 'execute',
      args: [token, 0n, payload, none, salt(step)],
    });
  const executeBatch = (step: number) =>
    encodeFunctionData({
      abi: timelockAbi,
      functionName: 'executeBatch',
      args: [[token], [0n], [payload], none, salt(step)],
    });
  const under = BigInt(PROXY_TIMELOCK_MIN_SECONDS) - 1n;
  const attempt = (data: Hex, what: string, mayWork = false): Attempt => ({ from, data, what, mayWork });
  return [
    attempt(
      encodeFunctionData({ abi: timelockAbi, functionName: 'updateDelay', args: [0n] }),
      'updateDelay(0)',
    ),
    attempt(schedule(0, 0n), 'schedule with no delay'),
    attempt(schedule(1, under), 'schedule under a day'),
    attempt(scheduleBatch(2, 0n), 'scheduleBatch with no delay'),
    attempt(execute(3), 'execute of a call never scheduled'),
    attempt(executeBatch(3), 'executeBatch of calls never scheduled'),
    attempt(schedule(4, delay), 'schedule', true),
    attempt(execute(4), 'execute of a call scheduled a moment before'),
    attempt(scheduleBatch(5, delay), 'scheduleBatch', true),
    attempt(executeBatch(5), 'executeBatch of calls scheduled a moment before'),
    selfScheduling(from, index, timelock, salt(6)),
  ];
}

/**
 * An executeBatch of what was never scheduled that sets the delay to nothing, makes a contract of
 * the caller's a proposer, and has that contract schedule the very batch with no delay: where
 * readiness is checked only after the calls, as up to 4.3.0, it works at once for any executor.
 */
function selfScheduling(from: Address, index: number, timelock: Address, salt: Hex): Attempt {
  const helper = numberToHex((0x7173n << 144n) + BigInt(index), { size: 20 });
  const targets = [timelock, timelock, helper];
  const payloads: Hex[] = [
    encodeFunctionData({ abi: timelockAbi, functionName: 'updateDelay', args: [0n] }),
    encodeFunctionData({
      abi: timelockAbi,
      functionName: 'grantRole',
      args: [keccak256(toHex('PROPOSER_ROLE')), helper],
    }),
    '0x',
  ];
  const none = numberToHex(0n, { size: 32 });
  const values = [0n, 0n, 0n];
  return {
    from,
    data: encodeFunctionData({
      abi: timelockAbi,
      functionName: 'executeBatch',
      args: [targets, values, payloads, none, salt],
    }),
    what: 'an executeBatch that schedules itself as it runs',
    mayWork: false,
    helper: {
      address: helper,
      code: forwarder(
        timelock,
        encodeFunctionData({
          abi: timelockAbi,
          functionName: 'scheduleBatch',
          args: [targets, values, payloads, none, salt, 0n],
        }),
      ),
    },
  };
}

/** What eth_simulateV1 answers per block, as far as it is read here. */
interface SimulatedBlock {
  calls: { status: Hex }[];
}

/**
 * The attempts in one simulated block, in order (each sees what the earlier ones left): which
 * worked, or why the node could not say.
 */
async function simulate(
  client: PublicClient,
  { account, attempts, blockNumber }: { account: Address; attempts: readonly Attempt[]; blockNumber: bigint },
): Promise<boolean[] | string> {
  if (attempts.length === 0) return [];
  const request = client.request as (args: {
    method: string;
    params: unknown[];
  }) => Promise<SimulatedBlock[]>;
  try {
    const [block] = await request({
      method: 'eth_simulateV1',
      params: [
        {
          blockStateCalls: [
            {
              stateOverrides: Object.fromEntries(
                attempts.flatMap(({ helper }) => (helper ? [[helper.address, { code: helper.code }]] : [])),
              ),
              calls: attempts.map(({ from, data }) => ({
                from,
                to: account,
                data,
                gas: numberToHex(CALL_GAS),
              })),
            },
          ],
          validation: false,
        },
        numberToHex(blockNumber),
      ],
    });
    if (block?.calls.length !== attempts.length) return 'the node answered fewer calls than it was sent';
    // A status the node does not define must not read as a revert, a wait that held.
    if (block.calls.some((call) => call.status !== '0x0' && call.status !== '0x1'))
      return 'the node answered a call status that is neither 0x0 nor 0x1';
    return block.calls.map((call) => call.status === '0x1');
  } catch (error) {
    if (isRpcUnreachable(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return scrubUrls(message.split('\n')[0] ?? 'failed').slice(0, 160);
  }
}
