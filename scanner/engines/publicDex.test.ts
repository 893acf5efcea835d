import { fileURLToPath } from 'node:url';
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  getContractAddress,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getChain } from '../../core/chains/registry.ts';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender, type DevnetClient } from '../../infra/devnet/client.ts';
import { compileContracts } from '../../infra/devnet/compile.ts';
import { deployUniswapV2 } from '../../infra/devnet/uniswap.ts';
import { readScanConfig } from '../config.ts';
import { contractSafety } from './contractSafety.ts';

// A token keeps another chain's DEX contracts (PancakeSwap's, on a chain that lists only Uniswap):
// public code anyone calls, which power discovery once explored as insiders, each one an account
// tried on every function at every time offset. Its own treasury is still one.

const PANCAKE = [
  '0x10ED43C718714eb63d5aA57B78B54704E256024E',
  '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73',
  '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
];
const routerAbi = parseAbi([
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
]);

let node: AnvilInstance;
let client: DevnetClient;
let token: Address;
let treasury: Address;

beforeAll(async () => {
  node = await startAnvil();
  client = createDevnetClient(node.url);
  const [owner, second] = await client.request({ method: 'eth_accounts' });
  if (!owner || !second) throw new Error('the node has fewer than two accounts');
  treasury = second;
  const dex = await deployUniswapV2(client, { feeToSetter: owner });
  const { KeepsDexAddresses } = await compileContracts({
    sourceDir: fileURLToPath(new URL('../evm/testContracts/', import.meta.url)),
  });
  if (!KeepsDexAddresses) throw new Error('KeepsDexAddresses was not compiled');
  const sender = new DevSender(client, owner);
  const supply = 10n ** 27n;
  const nonce = await sender.send({
    label: 'deploy',
    data: encodeDeployData({
      abi: KeepsDexAddresses.abi,
      bytecode: KeepsDexAddresses.bytecode,
      args: [supply, treasury],
    }),
  });
  await sender.settle();
  token = getContractAddress({ from: owner, nonce: BigInt(nonce) });
  await sender.send({
    label: 'approve',
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [dex.router, maxUint256] }),
  });
  await sender.send({
    label: 'liquidity',
    to: dex.router,
    value: parseEther('10'),
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'addLiquidityETH',
      args: [token, supply / 2n, 0n, 0n, owner, maxUint256],
    }),
  });
  await sender.settle();
});
afterAll(() => node.stop());

describe('DEX contracts of any listed chain', () => {
  it('are nobody’s insiders: not explored, while the token’s own treasury is, and its mint found', async () => {
    const output = await contractSafety({
      client,
      chain: getChain('devnet'),
      address: token,
      blockNumber: await client.getBlockNumber(),
      creation: null,
      config: readScanConfig({}),
    });
    const discovery = output.facts.discovery as {
      candidates: { address: string; source: string }[];
      relied_on: { address: string }[];
    };
    const explored = discovery.candidates.map((candidate) => candidate.address.toLowerCase());
    for (const address of PANCAKE) {
      expect(explored).not.toContain(address.toLowerCase());
      expect(discovery.relied_on.map((entry) => entry.address.toLowerCase())).not.toContain(
        address.toLowerCase(),
      );
    }
    expect(explored).toContain(treasury.toLowerCase());
    const mintable = output.checks.find((check) => check.id === 'is_mintable');
    expect(mintable?.status).toBe('fail');
    expect(mintable?.detail).toContain(getAddress(treasury));
  });
});
