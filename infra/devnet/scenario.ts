import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
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
import { type Artifacts, compileContracts } from './compile.ts';
import { DevSender, type DevnetClient, createDevnetClient } from './client.ts';
import {
  type Scenario,
  type ScenarioToken,
  TOKEN_KEYS,
  type TokenKey,
  scenarioContracts,
  scenarioSchema,
} from './scenarioSchema.ts';
import { TOKEN_SPECS } from './tokens.ts';
import { deployUniswapV2 } from './uniswap.ts';

export * from './scenarioSchema.ts';

export interface DeployScenarioOptions {
  /** solc output cache (see compileContracts). */
  cacheDir?: string;
}

export interface LoadOrDeployScenarioParameters extends DeployScenarioOptions {
  rpcUrl: string;
  file: string;
}

const routerAbi = parseAbi([
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);
const factoryAbi = parseAbi(['function getPair(address tokenA, address tokenB) view returns (address)']);
const ownableAbi = parseAbi(['function renounceOwnership()']);

/** Dev accounts by index: 0 deploys and provides liquidity, the next ones trade. */
const DEPLOYER_INDEX = 0;
const TRADER_COUNT = 2;
const BUY_ETH = [parseEther('0.5'), parseEther('0.2')];

/**
 * Deploys the demo world on an anvil node: Uniswap V2 at its mainnet addresses, the tokens of
 * tokens.ts with WETH liquidity, and a few buys and sells by dev accounts. Transactions go out
 * back to back with explicit nonces and are checked in batches, so it takes well under a second
 * once the contracts are compiled.
 */
export async function deployScenario(rpcUrl: string, options: DeployScenarioOptions = {}): Promise<Scenario> {
  const client = createDevnetClient(rpcUrl);
  const [artifacts, unlocked, chainId] = await Promise.all([
    compileContracts(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    client.request({ method: 'eth_accounts' }),
    client.getChainId(),
  ]);
  const accounts = unlocked.map((account) => getAddress(account));
  const deployerAddress = accounts[DEPLOYER_INDEX];
  const traderAddresses = accounts.slice(DEPLOYER_INDEX + 1, DEPLOYER_INDEX + 1 + TRADER_COUNT);
  if (deployerAddress === undefined || traderAddresses.length < TRADER_COUNT) {
    throw new Error(`the devnet node must expose at least ${TRADER_COUNT + 1} unlocked dev accounts`);
  }

  const dex = await deployUniswapV2(client, { feeToSetter: deployerAddress });
  const deployer = new DevSender(client, deployerAddress);
  const addresses = {} as Record<TokenKey, Address>;
  for (const key of TOKEN_KEYS) addresses[key] = await listToken(deployer, artifacts, key, dex.router);
  const [firstReceipt] = await deployer.settle();
  if (firstReceipt === undefined) throw new Error('the scenario sent no transactions');

  const pairs = await Promise.all(
    TOKEN_KEYS.map((key) =>
      client.readContract({
        address: dex.factory,
        abi: factoryAbi,
        functionName: 'getPair',
        args: [addresses[key], dex.weth],
      }),
    ),
  );
  await Promise.all(
    traderAddresses.map((trader, index) =>
      trade(client, new DevSender(client, trader), {
        tokens: addresses,
        router: dex.router,
        weth: dex.weth,
        ethPerBuy: BUY_ETH[index] ?? parseEther('0.1'),
      }),
    ),
  );

  const tokens = {} as Record<TokenKey, ScenarioToken>;
  TOKEN_KEYS.forEach((key, index) => {
    const spec = TOKEN_SPECS[key];
    const pair = pairs[index];
    if (pair === undefined) throw new Error(`no pair for ${key}`);
    tokens[key] = {
      address: addresses[key],
      name: spec.name,
      symbol: spec.symbol,
      decimals: spec.decimals,
      kind: spec.kind,
      pair,
      expected: spec.expected,
    };
  });
  return scenarioSchema.parse({
    chainId,
    deployedAtBlock: Number(firstReceipt.blockNumber),
    dex: { name: 'uniswap-v2', ...dex },
    deployer: deployerAddress,
    traders: traderAddresses,
    tokens,
  });
}

/**
 * Returns the scenario saved in `file` when every contract in it still has code on the node
 * (the node was restarted from its state file, say); otherwise deploys afresh and saves it.
 */
export async function loadOrDeployScenario(parameters: LoadOrDeployScenarioParameters): Promise<Scenario> {
  const saved = await readScenarioFile(parameters.file);
  if (saved !== undefined && (await isDeployed(createDevnetClient(parameters.rpcUrl), saved))) return saved;
  const scenario = await deployScenario(
    parameters.rpcUrl,
    parameters.cacheDir === undefined ? {} : { cacheDir: parameters.cacheDir },
  );
  await writeScenarioFile(parameters.file, scenario);
  return scenario;
}

export async function writeScenarioFile(file: string, scenario: Scenario): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // Written aside and renamed, so a reader never sees half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(scenario, null, 2)}\n`);
  await rename(temporary, file);
}

/** A saved scenario, or undefined when the file is missing or does not match the schema. */
export async function readScenarioFile(file: string): Promise<Scenario | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = scenarioSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function isDeployed(client: DevnetClient, scenario: Scenario): Promise<boolean> {
  if ((await client.getChainId()) !== scenario.chainId) return false;
  const codes = await Promise.all(scenarioContracts(scenario).map((address) => client.getCode({ address })));
  return codes.every((code) => code !== undefined && code !== '0x');
}

async function listToken(
  deployer: DevSender,
  artifacts: Artifacts,
  key: TokenKey,
  router: Address,
): Promise<Address> {
  const spec = TOKEN_SPECS[key];
  const artifact = artifacts[spec.contract];
  if (artifact === undefined) throw new Error(`contract ${spec.contract} (token ${key}) was not compiled`);
  const nonce = await deployer.send({
    label: `deploy ${key}`,
    data: encodeDeployData({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: spec.constructorArgs({ router }),
    }),
  });
  const token = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) });
  await deployer.send({
    label: `approve ${key} for liquidity`,
    to: token,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, spec.liquidity.tokens],
    }),
  });
  await deployer.send({
    label: `add ${key} liquidity`,
    to: router,
    value: spec.liquidity.eth,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'addLiquidityETH',
      args: [token, spec.liquidity.tokens, 0n, 0n, deployer.address, maxUint256],
    }),
  });
  if (spec.renounceOwnership) {
    await deployer.send({
      label: `renounce ${key} ownership`,
      to: token,
      data: encodeFunctionData({ abi: ownableAbi, functionName: 'renounceOwnership' }),
    });
  }
  return token;
}

interface TradeParameters {
  tokens: Record<TokenKey, Address>;
  router: Address;
  weth: Address;
  ethPerBuy: bigint;
}

/** Buys every token, then sells half of what was bought where the spec says traders sell. */
async function trade(
  client: DevnetClient,
  trader: DevSender,
  { tokens, router, weth, ethPerBuy }: TradeParameters,
): Promise<void> {
  for (const key of TOKEN_KEYS) {
    await trader.send({
      label: `buy ${key}`,
      to: router,
      value: ethPerBuy,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactETHForTokensSupportingFeeOnTransferTokens',
        args: [0n, [weth, tokens[key]], trader.address, maxUint256],
      }),
    });
    if (TOKEN_SPECS[key].tradersSell) {
      await trader.send({
        label: `approve ${key} for selling`,
        to: tokens[key],
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
      });
    }
  }
  await trader.settle();

  const sellers = TOKEN_KEYS.filter((key) => TOKEN_SPECS[key].tradersSell);
  const balances = await Promise.all(
    sellers.map((key) =>
      client.readContract({
        address: tokens[key],
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [trader.address],
      }),
    ),
  );
  for (const [index, key] of sellers.entries()) {
    await trader.send({
      label: `sell ${key}`,
      to: router,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
        args: [(balances[index] ?? 0n) / 2n, 0n, [tokens[key], weth], trader.address, maxUint256],
      }),
    });
  }
  await trader.settle();
}

const DEFAULT_RPC_URL = 'http://127.0.0.1:8545';

/**
 * node infra/devnet/scenario.ts [--rpc <url>] [--out <file>] [--fresh]
 * Prints the scenario as JSON. With --out it reuses that file when the chain still holds it,
 * and saves what it deployed otherwise; --fresh always deploys.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rpc: { type: 'string', default: DEFAULT_RPC_URL },
      out: { type: 'string' },
      fresh: { type: 'boolean', default: false },
    },
  });
  const scenario =
    values.out === undefined || values.fresh
      ? await deployScenario(values.rpc)
      : await loadOrDeployScenario({ rpcUrl: values.rpc, file: values.out });
  if (values.out !== undefined && values.fresh) await writeScenarioFile(values.out, scenario);
  process.stdout.write(`${JSON.stringify(scenario, null, 2)}\n`);
}

if (import.meta.main) await main();
