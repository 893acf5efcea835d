import { fileURLToPath } from 'node:url';
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  parseAbi,
  type PublicClient,
  zeroHash,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, type DevnetClient, DevSender } from '../../infra/devnet/client.ts';
import { type Artifacts, compileContracts } from '../../infra/devnet/compile.ts';
import { isTimelockController, readTimelocks } from './readTimelocks.ts';

// OpenZeppelin's TimelockController compiled from its own source, deployed on a node: a power only
// it can use waits in public, so its account is told apart from a lookalike with a call of its own.

let node: AnvilInstance;
let client: PublicClient;
let devnet: DevnetClient;
let artifacts: Artifacts;
let owner: Address;
const deployed: Record<string, Address> = {};

const DAY = 86_400n;
/** The token a timelock governs (any account: only its address is compared). */
const TOKEN: Address = '0x00000000000000000000000000000000000a11ce';
const scheduleAbi = parseAbi([
  'function schedule(address target, uint256 value, bytes data, bytes32 predecessor, bytes32 salt, uint256 delay)',
]);

beforeAll(async () => {
  node = await startAnvil();
  devnet = createDevnetClient(node.url);
  client = devnet;
  const [first] = await devnet.request({ method: 'eth_accounts' });
  if (!first) throw new Error('the node has no accounts');
  owner = first;
  artifacts = await compileContracts({
    sourceDir: fileURLToPath(new URL('./testContracts/', import.meta.url)),
  });
  const sender = new DevSender(devnet, owner);
  const deploy = async (label: string, name: string, delay: bigint) => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`${name} was not compiled`);
    const nonce = await sender.send({
      label,
      data: encodeDeployData({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args: [delay, [owner], [owner]],
      }),
    });
    deployed[label] = getContractAddress({ from: owner, nonce: BigInt(nonce) });
  };
  await deploy('two days', 'TestTimelock', 2n * DAY);
  await deploy('an hour', 'TestTimelock', 3_600n);
  await deploy('backdoored', 'TestBackdooredTimelock', 2n * DAY);
  await deploy('scheduled', 'TestTimelock', 2n * DAY);
  // A mint for the token, scheduled: it may run two days on with nothing more in public.
  await sender.send({
    label: 'schedule',
    to: deployed.scheduled ?? owner,
    data: encodeFunctionData({
      abi: scheduleAbi,
      functionName: 'schedule',
      args: [TOKEN, 0n, '0x40c10f19', zeroHash, zeroHash, 2n * DAY],
    }),
  });
  await sender.settle();
}, 120_000);

afterAll(async () => {
  await node.stop();
});

describe('isTimelockController', () => {
  it("reads OpenZeppelin's controller from its dispatcher, and not a lookalike with a function of its own", () => {
    expect(isTimelockController(artifacts.TestTimelock?.deployedBytecode)).toBe(true);
    expect(isTimelockController(artifacts.TestBackdooredTimelock?.deployedBytecode)).toBe(false);
    expect(isTimelockController(undefined)).toBe(false);
    expect(isTimelockController('0x')).toBe(false);
  });
});

describe('readTimelocks', () => {
  const read = async (accounts: (Address | undefined)[], chunk = 10_000) =>
    readTimelocks(client, {
      accounts: accounts.filter((account): account is Address => account !== undefined),
      token: TOKEN,
      fromBlock: 0n,
      blockNumber: await client.getBlockNumber(),
      chunk,
    });

  it('keeps the controllers whose delay is a day or more, with it; not a short one, a lookalike or a wallet', async () => {
    const timelocks = await read([deployed['two days'], deployed['an hour'], deployed.backdoored, owner]);
    expect([...timelocks]).toEqual([[deployed['two days'], { delaySeconds: Number(2n * DAY), pending: 0 }]]);
  });

  it('counts the calls to the token a timelock has waiting, and says when its schedule was not read', async () => {
    expect((await read([deployed.scheduled])).get(deployed.scheduled ?? owner)).toEqual({
      delaySeconds: Number(2n * DAY),
      pending: 1,
    });
    // A history longer than the requests allowed (one block a request here) is not read.
    await devnet.mine({ blocks: 32 });
    expect((await read([deployed['two days']], 1)).get(deployed['two days'] ?? owner)?.pending).toBeNull();
  });
});
