import { fileURLToPath } from 'node:url';
import { type Address, encodeDeployData, getContractAddress, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender, type DevnetClient } from '../../infra/devnet/client.ts';
import { compileContracts } from '../../infra/devnet/compile.ts';
import { argumentlessSelectors } from './argumentReads.ts';

let node: AnvilInstance;
let client: DevnetClient;
let owner: Address;
let shapes: Address;

beforeAll(async () => {
  node = await startAnvil();
  client = createDevnetClient(node.url);
  const [first] = await client.request({ method: 'eth_accounts' });
  if (!first) throw new Error('the node has no accounts');
  owner = first;
  const { ArgumentShapes } = await compileContracts({
    sourceDir: fileURLToPath(new URL('./testContracts/', import.meta.url)),
  });
  if (!ArgumentShapes) throw new Error('ArgumentShapes was not compiled');
  const sender = new DevSender(client, owner);
  const nonce = await sender.send({
    label: 'deploy',
    data: encodeDeployData({ abi: ArgumentShapes.abi, bytecode: ArgumentShapes.bytecode }),
  });
  await sender.settle();
  shapes = getContractAddress({ from: owner, nonce: BigInt(nonce) });
});
afterAll(() => node.stop());

describe('functions that read no argument', () => {
  it('are told from those that read one, however many, from one that reads calldata in assembly, and from calls that stopped at a gate', async () => {
    const selector = (signature: string) => toFunctionSelector(signature);
    const all = [
      'openTrading()',
      'pendingLevel()',
      'setLevel(uint256)',
      'setKeeper(address)',
      'six(uint256,uint256,uint256,uint256,uint256,uint256)',
      'batch(address[])',
      'sneaky()',
      'clear((address,uint256,uint256))',
      'keeperOnly()',
    ].map(selector);
    const found = await argumentlessSelectors(client, {
      token: shapes,
      from: owner,
      selectors: all,
      blockNumber: await client.getBlockNumber(),
    });
    expect([...found].sort()).toEqual([selector('openTrading()'), selector('pendingLevel()')].sort());
  });

  it('counts every function as reading its arguments where the node cannot trace', async () => {
    const refusing = {
      ...client,
      request: () => Promise.reject(new Error('the method debug_traceCall does not exist')),
    } as unknown as DevnetClient;
    const found = await argumentlessSelectors(refusing, {
      token: shapes,
      from: owner,
      selectors: [toFunctionSelector('openTrading()')],
      blockNumber: await client.getBlockNumber(),
    });
    expect(found.size).toBe(0);
  });
});
