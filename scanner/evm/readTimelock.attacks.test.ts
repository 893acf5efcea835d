import { fileURLToPath } from 'node:url';
import {
  type Address,
  createPublicClient,
  custom,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseAbi,
  type PublicClient,
  zeroHash,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender, type DevnetClient } from '../../infra/devnet/client.ts';
import { compileContracts } from '../../infra/devnet/compile.ts';
import { deployArtifacts, type Deployed } from '../../test/support/deployArtifacts.ts';
import { readTimelock } from './readTimelock.ts';

// Ways a timelock could make a call within a day although it looks like one holders can rely on
// (a proxy's upgrade authority is weighed by it). Where the way works, the account must be no
// timelock; where it cannot be told from outside, the test is expected to fail and says why.

const TWO_DAYS = 2n * 86_400n;
const tokenAbi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function transferOwnership(address newOwner)',
]);
const timelockAbi = parseAbi([
  'function schedule(address target, uint256 value, bytes data, bytes32 predecessor, bytes32 salt, uint256 delay)',
  'function execute(address target, uint256 value, bytes payload, bytes32 predecessor, bytes32 salt) payable',
]);
const NONE = zeroHash;
const AMOUNT = 10n ** 30n;

let node: AnvilInstance;
let client: DevnetClient;
let sender: DevSender;
let deployer: Address;
let bystander: Address;
let stranger: Address;
/** The block before the clock was moved two days on (a backdoor that opens an hour on is shut). */
let before: bigint;
const at: Record<string, Address> = {};
const tokens: Record<string, Deployed> = {};

/** The call data of a mint to the deployer, and the id a timelock gives it as an operation. */
const mintCall = () => encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [deployer, AMOUNT] });
const operationId = (target: Address, data: Hex) =>
  keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [target, 0n, data, NONE, NONE],
    ),
  );
const executeMint = (token: Address) =>
  encodeFunctionData({
    abi: timelockAbi,
    functionName: 'execute',
    args: [token, 0n, mintCall(), NONE, NONE],
  });

beforeAll(async () => {
  node = await startAnvil();
  client = createDevnetClient(node.url);
  const [first, second, third] = await client.request({ method: 'eth_accounts' });
  if (!first || !second || !third) throw new Error('the node has fewer than three accounts');
  [deployer, bystander, stranger] = [first, second, third];
  sender = new DevSender(client, deployer);
  const artifacts = await compileContracts({
    sourceDir: fileURLToPath(new URL('./testContracts/', import.meta.url)),
  });
  const deploy = deployArtifacts(sender, artifacts);
  const call = async (label: string, to: Address, data: Hex) => {
    await sender.send({ label, to, data });
    await sender.settle();
  };
  const roles = [[deployer], [deployer]];
  at.TaStranger = (await deploy('TaStranger', [stranger, ...roles])).address;
  for (const name of ['TaFallback', 'TaValue', 'TaLater', 'TaGas', 'TaReadyAfter'])
    at[name] = (await deploy(name, roles)).address;
  for (const name of ['TaStranger', 'TaFallback', 'TaValue', 'TaLater', 'TaGas'])
    tokens[name] = await deploy('TlMintToken', [at[name]]);
  // A genuine timelock whose proposer and executor is a contract the deployer makes any call with.
  at.TlDrivenByContract = (await deploy('TlGenuine', [TWO_DAYS, [at.TaFallback], [at.TaFallback]])).address;

  // A genuine timelock whose mint was scheduled two days before the scan: ready now.
  at.TlPending = (await deploy('TlGenuine', [TWO_DAYS, ...roles])).address;
  tokens.TlPending = await deploy('TlMintToken', [at.TlPending]);
  await call(
    'schedule a mint',
    at.TlPending,
    encodeFunctionData({
      abi: timelockAbi,
      functionName: 'schedule',
      args: [tokens.TlPending.address, 0n, mintCall(), NONE, NONE, TWO_DAYS],
    }),
  );

  // A genuine timelock whose deployment marked a mint ready, without scheduling it.
  tokens.TaSeeded = await deploy('TlMintToken', [deployer]);
  at.TaSeeded = (
    await deploy('TaSeeded', [operationId(tokens.TaSeeded.address, mintCall()), ...roles])
  ).address;
  await call(
    'hand the token to the timelock',
    tokens.TaSeeded.address,
    encodeFunctionData({ abi: tokenAbi, functionName: 'transferOwnership', args: [at.TaSeeded] }),
  );

  at.TlGenuine = (await deploy('TlGenuine', [TWO_DAYS, ...roles])).address;

  before = await client.getBlockNumber();
  await client.increaseTime({ seconds: Number(TWO_DAYS) + 60 });
  await client.mine({ blocks: 1 });
}, 180_000);
afterAll(() => node.stop());

const verdict = async (name: string, blockNumber?: bigint, callers: Address[] = [bystander, deployer]) =>
  readTimelock(client, {
    account: at[name] as Address,
    token: tokens.TlPending?.address as Address,
    callers,
    blockNumber: blockNumber ?? (await client.getBlockNumber()),
  });

/** Whether `from` can make the call now, without waiting (a simulated transaction). */
const worksNow = async (
  from: Address,
  to: Address,
  data: Hex,
  options: { value?: bigint; gas?: bigint } = {},
) =>
  client
    .call({ account: from, to, data, ...options })
    .then(() => true)
    .catch(() => false);

describe('a look-alike keyed to what the simulation does not vary', () => {
  // From outside, a look-alike is told from the original only by what it is tried with: an
  // account, a fallback, a value, a time, an amount of gas it is not tried with goes unseen.
  // Only its code being OpenZeppelin's own would tell; these stay open.
  it.fails('refuses one whose backdoor is an account the token never names', async () => {
    expect(await verdict('TaStranger')).toMatchObject({ kind: 'not' });
  });

  it.fails("refuses one whose fallback makes the deployer's calls", async () => {
    expect(await verdict('TaFallback')).toMatchObject({ kind: 'not' });
  });

  it.fails('refuses one whose deployer skips the wait by sending one wei', async () => {
    expect(await verdict('TaValue')).toMatchObject({ kind: 'not' });
  });

  it.fails('refuses one whose backdoor opens an hour after deployment', async () => {
    expect(await verdict('TaLater', before)).toMatchObject({ kind: 'not' });
  });

  it.fails('refuses one whose backdoor needs more gas than a simulated call has', async () => {
    expect(await verdict('TaGas')).toMatchObject({ kind: 'not' });
  });

  it('each of those backdoors mints within the day', async () => {
    const mint = (name: string) => executeMint(tokens[name]?.address as Address);
    const to = (name: string) => at[name] as Address;
    expect(await worksNow(stranger, to('TaStranger'), mint('TaStranger'))).toBe(true);
    const forward = encodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes' }],
      [tokens.TaFallback?.address as Address, mintCall()],
    );
    expect(await worksNow(deployer, to('TaFallback'), `0xdeadbeef${forward.slice(2)}`)).toBe(true);
    expect(await worksNow(deployer, to('TaValue'), mint('TaValue'), { value: 1n })).toBe(true);
    expect(await worksNow(deployer, to('TaLater'), mint('TaLater'))).toBe(true);
    expect(await worksNow(deployer, to('TaGas'), mint('TaGas'), { gas: 3_000_000n })).toBe(true);
    expect(await worksNow(deployer, to('TaGas'), mint('TaGas'), { gas: 900_000n })).toBe(false);
  });
});

describe('a genuine timelock', () => {
  it('whose proposer and executor is a contract its deployer drives is one: every call still waits', async () => {
    // The roles choose who may propose and execute, not whether the wait holds.
    expect(
      await verdict('TlDrivenByContract', undefined, [deployer, at.TaFallback as Address]),
    ).toMatchObject({
      kind: 'timelock',
    });
  });

  it('with a mint scheduled two days before, ready now, is no timelock', async () => {
    expect(
      await worksNow(deployer, at.TlPending as Address, executeMint(tokens.TlPending?.address as Address)),
    ).toBe(true);
    expect(await verdict('TlPending')).toMatchObject({
      kind: 'not',
      reason: expect.stringContaining('scheduled'),
    });
  });

  it('released before 4.3.1, whose executor runs a batch that schedules itself, is no timelock', async () => {
    expect(await verdict('TaReadyAfter')).toMatchObject({
      kind: 'not',
      reason: expect.stringContaining('schedules itself'),
    });
  });

  // Its runtime code is OpenZeppelin's own; only its deployment wrote the ready operation, in a
  // slot no log names and no read can find without the operation's id.
  it.fails('whose deployment marked an operation ready is no timelock', async () => {
    expect(
      await worksNow(deployer, at.TaSeeded as Address, executeMint(tokens.TaSeeded?.address as Address)),
    ).toBe(true);
    expect(await verdict('TaSeeded')).toMatchObject({ kind: 'not' });
  });
});

describe('a node that cannot say', () => {
  const through = (
    answer: (args: { method: string; params: unknown[] }) => Promise<unknown> | undefined,
  ): PublicClient =>
    ({
      ...client,
      request: (args: { method: string; params: unknown[] }) =>
        answer(args) ?? (client.request as (a: unknown) => Promise<unknown>)(args),
    }) as unknown as PublicClient;
  const judge = async (node: PublicClient) =>
    readTimelock(node, {
      account: at.TlGenuine as Address,
      token: tokens.TlPending?.address as Address,
      callers: [deployer],
      blockNumber: await client.getBlockNumber(),
    });

  it('without eth_simulateV1 makes no timelock', async () => {
    const node = through((args) =>
      args.method === 'eth_simulateV1'
        ? Promise.reject(new Error('the method eth_simulateV1 does not exist'))
        : undefined,
    );
    expect(await judge(node)).toMatchObject({
      kind: 'not',
      reason: expect.stringContaining('could not be tried'),
    });
  });

  it("refusing the timelock's logs from the first block makes no timelock", async () => {
    // A provider that caps eth_getLogs' range: an operation scheduled earlier could be ready now.
    const capped = createPublicClient({
      transport: custom({
        request: ({ method, params }: { method: string; params: unknown[] }) =>
          method === 'eth_getLogs'
            ? Promise.reject(Object.assign(new Error('block range is too wide'), { code: -32600 }))
            : (client.request as (args: unknown) => Promise<unknown>)({ method, params }),
      }),
    });
    expect(await judge(capped)).toMatchObject({
      kind: 'not',
      reason: expect.stringContaining('its scheduled operations could not be read'),
    });
  });

  it('answering calls without a status it knows makes no timelock', async () => {
    const node = through((args) =>
      args.method === 'eth_simulateV1'
        ? (client.request as (a: unknown) => Promise<{ calls: object[] }[]>)(args).then((blocks) =>
            blocks.map((block) => ({
              ...block,
              calls: block.calls.map((each) => ({ ...each, status: '0x01' })),
            })),
          )
        : undefined,
    );
    expect(await judge(node)).toMatchObject({ kind: 'not' });
  });
});
