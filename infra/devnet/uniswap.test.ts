import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, erc20Abi, http, maxUint256, parseAbi, parseEther } from 'viem';
import { anvil } from 'viem/chains';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { type DevnetClient, createDevnetClient } from './client.ts';
import { type Scenario, deployScenario } from './scenario.ts';
import {
  UNISWAP_V2_FACTORY,
  UNISWAP_V2_INIT_CODE_HASH,
  UNISWAP_V2_ROUTER02,
  UNISWAP_V2_WETH,
  assertPairInitCodeHash,
  loadUniswapV2Artifacts,
} from './uniswap.ts';

const routerAbi = parseAbi([
  'function factory() view returns (address)',
  'function WETH() view returns (address)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])',
]);
const factoryAbi = parseAbi([
  'function feeToSetter() view returns (address)',
  'function allPairsLength() view returns (uint256)',
]);

let node: AnvilInstance;
let client: DevnetClient;
let scenario: Scenario;

beforeAll(async () => {
  node = await startAnvil();
  client = createDevnetClient(node.url);
  scenario = await deployScenario(node.url);
});
afterAll(() => node.stop());

describe('Uniswap V2 on the devnet', () => {
  it('deploys the npm build, whose pair init code hash is the one mainnet routers embed', () => {
    expect(() => assertPairInitCodeHash(loadUniswapV2Artifacts())).not.toThrow();
    expect(UNISWAP_V2_INIT_CODE_HASH).toBe(
      '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f',
    );
  });

  it('puts WETH9, the factory and Router02 at their canonical mainnet addresses', async () => {
    expect(scenario.dex).toEqual({
      name: 'uniswap-v2',
      weth: UNISWAP_V2_WETH,
      factory: UNISWAP_V2_FACTORY,
      router: UNISWAP_V2_ROUTER02,
    });
    for (const address of [UNISWAP_V2_WETH, UNISWAP_V2_FACTORY, UNISWAP_V2_ROUTER02]) {
      expect((await client.getCode({ address }))?.length ?? 0).toBeGreaterThan(1_000);
    }
    expect(await client.readContract({ address: UNISWAP_V2_WETH, abi: erc20Abi, functionName: 'name' })).toBe(
      'Wrapped Ether',
    );
    expect(
      await client.readContract({ address: UNISWAP_V2_WETH, abi: erc20Abi, functionName: 'symbol' }),
    ).toBe('WETH');
    expect(
      await client.readContract({ address: UNISWAP_V2_WETH, abi: erc20Abi, functionName: 'decimals' }),
    ).toBe(18);
    expect(
      await client.readContract({
        address: UNISWAP_V2_FACTORY,
        abi: factoryAbi,
        functionName: 'feeToSetter',
      }),
    ).toBe(scenario.deployer);
    expect(
      await client.readContract({ address: UNISWAP_V2_ROUTER02, abi: routerAbi, functionName: 'factory' }),
    ).toBe(UNISWAP_V2_FACTORY);
    expect(
      await client.readContract({ address: UNISWAP_V2_ROUTER02, abi: routerAbi, functionName: 'WETH' }),
    ).toBe(UNISWAP_V2_WETH);
    expect(
      await client.readContract({
        address: UNISWAP_V2_FACTORY,
        abi: factoryAbi,
        functionName: 'allPairsLength',
      }),
    ).toBe(BigInt(Object.keys(scenario.tokens).length + Object.keys(scenario.corpus).length));
  });

  it('swaps ETH for a token and back through the canonical router', async () => {
    const [, , , account] = await client.request({ method: 'eth_accounts' });
    if (account === undefined) throw new Error('anvil exposes fewer than four dev accounts');
    const wallet = createWalletClient({ account, transport: http(node.url), chain: anvil });
    const token = scenario.tokens.clean.address;
    const balance = () =>
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] });

    const buy = await wallet.writeContract({
      address: UNISWAP_V2_ROUTER02,
      abi: routerAbi,
      functionName: 'swapExactETHForTokens',
      args: [1n, [UNISWAP_V2_WETH, token], account, maxUint256],
      value: parseEther('1'),
      gas: 500_000n,
    });
    expect((await client.waitForTransactionReceipt({ hash: buy })).status).toBe('success');
    const bought = await balance();
    expect(bought).toBeGreaterThan(0n);

    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [UNISWAP_V2_ROUTER02, bought],
      }),
    });
    const ethBefore = await client.getBalance({ address: account });
    const sell = await wallet.writeContract({
      address: UNISWAP_V2_ROUTER02,
      abi: routerAbi,
      functionName: 'swapExactTokensForETH',
      args: [bought, 1n, [token, UNISWAP_V2_WETH], account, maxUint256],
      gas: 500_000n,
    });
    expect((await client.waitForTransactionReceipt({ hash: sell })).status).toBe('success');
    expect(await balance()).toBe(0n);
    // Two 0.3 % fees and gas: most of the ether comes back.
    expect(await client.getBalance({ address: account })).toBeGreaterThan(ethBefore + parseEther('0.9'));
  });
});
