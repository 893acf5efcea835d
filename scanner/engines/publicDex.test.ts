import { fileURLToPath } from 'node:url';
import { type Address, getAddress, parseEther, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getChain } from '../../core/chains/registry.ts';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender, type DevnetClient } from '../../infra/devnet/client.ts';
import { compileContracts } from '../../infra/devnet/compile.ts';
import { deployAndList } from '../../infra/devnet/launch.ts';
import { deployUniswapV2 } from '../../infra/devnet/uniswap.ts';
import { readScanConfig } from '../config.ts';
import { contractSafety } from './contractSafety.ts';

// A token keeps another chain's DEX contracts and stablecoin (PancakeSwap's and BSC-USD, on a
// chain that lists only Uniswap): public code anyone calls, which power discovery once explored as
// insiders, each one an account tried on every function at every time offset. Its own treasury is still one, and so is a keeper
// written into its code whose address reads as text (not taken from the code, where such bytes are
// a message's), named by the function that compares its caller with it.

const PANCAKE = [
  '0x10ED43C718714eb63d5aA57B78B54704E256024E',
  '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73',
  '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
  // BSC-USD: a stablecoin is public code too.
  '0x55d398326f99059fF775485246999027B3197955',
];
const KEEPER = '0x76616E697479206b656570657217e9A1B2c3d4E5';

let node: AnvilInstance;
let client: DevnetClient;
let token: Address;
/** The same token with no treasury: the keeper alone may mint. */
let keeperOnly: Address;
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
  const launch = (account: Address) =>
    deployAndList(sender, KeepsDexAddresses, {
      args: [supply, account],
      router: dex.router,
      tokens: supply / 2n,
      eth: parseEther('10'),
    });
  token = await launch(treasury);
  keeperOnly = await launch(zeroAddress);
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
    expect(explored).not.toContain(KEEPER.toLowerCase());
  });

  it('still finds a keeper whose address reads as text, by the comparison that refused the others', async () => {
    const output = await contractSafety({
      client,
      chain: getChain('devnet'),
      address: keeperOnly,
      blockNumber: await client.getBlockNumber(),
      creation: null,
      config: readScanConfig({}),
    });
    const discovery = output.facts.discovery as { candidates: { address: string }[] };
    expect(discovery.candidates.map((candidate) => candidate.address)).not.toContain(KEEPER);
    const mintable = output.checks.find((check) => check.id === 'is_mintable');
    expect(mintable?.status).toBe('fail');
    expect(mintable?.detail).toContain(`${KEEPER} (compared with the caller by`);
  });
});
