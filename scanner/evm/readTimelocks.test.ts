import { fileURLToPath } from 'node:url';
import { type Address, encodeDeployData, getContractAddress, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender } from '../../infra/devnet/client.ts';
import { type Artifacts, compileContracts } from '../../infra/devnet/compile.ts';
import { isTimelockController, readTimelocks } from './readTimelocks.ts';

// OpenZeppelin's TimelockController compiled from its own source, deployed on a node: a power only
// it can use waits in public, so its account is told apart from a lookalike with a call of its own.

let node: AnvilInstance;
let client: PublicClient;
let artifacts: Artifacts;
let owner: Address;
const deployed: Record<string, Address> = {};

const DAY = 86_400n;

beforeAll(async () => {
  node = await startAnvil();
  const devnet = createDevnetClient(node.url);
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
  it('keeps the controllers whose delay is a day or more, with it; not a short one, a lookalike or a wallet', async () => {
    const blockNumber = await client.getBlockNumber();
    const accounts = [deployed['two days'], deployed['an hour'], deployed.backdoored, owner].filter(
      (account): account is Address => account !== undefined,
    );
    expect(accounts).toHaveLength(4);
    const timelocks = await readTimelocks(client, { accounts, blockNumber });
    expect([...timelocks]).toEqual([[deployed['two days'], Number(2n * DAY)]]);
  });
});
