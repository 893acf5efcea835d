import {
  type Abi,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  getAddress,
  getContractAddress,
  getCreate2Address,
  keccak256,
  maxUint256,
  parseAbi,
  parseEther,
  stringToHex,
} from 'viem';
import { HOLDER_THRESHOLDS } from '../../scanner/core/risk/model.ts';
import type { Artifacts } from './compile.ts';
import type { DevnetClient, DevSender } from './client.ts';
import type { TokenKey } from './scenarioSchema.ts';
import { type TokenSpec, TOKEN_SPECS } from './tokens.ts';
import { UNISWAP_V2_INIT_CODE_HASH } from './uniswap.ts';

/** The UniswapV2Router02 functions a launch and its traders call. */
export const routerAbi = parseAbi([
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
  'function removeLiquidityETHSupportingFeeOnTransferTokens(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);
const ownerAbi = parseAbi(['function renounceOwnership()', 'function lock()', 'function blacklist(address)']);
const disperseAbi = parseAbi(['function disperse(address token, address[] recipients, uint256 amount)']);
const initAbi = parseAbi([
  'function initialize(string name, string symbol, uint256 supply, address holder)',
  'function initializeRoles(address owner, address pauser, address blacklister, address minter)',
]);

export const SUPPLY = parseEther('1000000000');
const DEAD = getAddress(HOLDER_THRESHOLDS.burnAddresses[1]);
const AIRDROP_HOLDERS = 12;
/** Two days: a timelock long enough for holders to leave before an upgrade lands. */
const TIMELOCK_DELAY = 2n * 86_400n;

/** Shares of the supply (per mille) by destination. */
const DISTRIBUTIONS = {
  default: { pool: 900, airdrop: 60, burn: 30 },
  concentrated: { pool: 350, airdrop: 30, burn: 10 },
} as const;

/** A wallet derived from a label: the same on every run, holding nothing on any real chain. */
export function devnetWallet(label: string): Address {
  return getAddress(`0x${keccak256(stringToHex(`vigil.devnet.${label}`)).slice(-40)}`);
}

const AIRDROP_WALLETS: readonly Address[] = Array.from({ length: AIRDROP_HOLDERS }, (_, i) =>
  devnetWallet(`holder.${i}`),
);

export function pairFor(factory: Address, weth: Address, token: Address): Address {
  const [a, b] = token.toLowerCase() < weth.toLowerCase() ? [token, weth] : [weth, token];
  return getCreate2Address({
    from: factory,
    salt: keccak256(encodePacked(['address', 'address'], [a, b])),
    bytecodeHash: UNISWAP_V2_INIT_CODE_HASH,
  });
}

/** How a token is listed, distributed and traded: the part of a spec the launch phases read. */
export type LaunchPlan = Pick<
  TokenSpec,
  'contract' | 'liquidityEth' | 'lp' | 'distribution' | 'ownership' | 'traders' | 'tradeEth' | 'after'
>;

export interface Listed {
  key: string;
  spec: LaunchPlan;
  token: Address;
  pair: Address;
  deployer: Address;
}

/** Deploys a token (behind a proxy when its spec says so) and its helpers; returns its address. */
export async function deployToken(
  sender: DevSender,
  artifacts: Artifacts,
  key: TokenKey,
  context: { router: Address; minter: Address },
): Promise<Address> {
  const spec = TOKEN_SPECS[key];
  const artifactOf = (name: string) => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`contract ${name} (token ${key}) was not compiled`);
    return artifact;
  };
  const create = async (name: string, args: readonly unknown[] = []) => {
    const artifact = artifactOf(name);
    const nonce = await sender.send({
      label: `deploy ${name} for ${key}`,
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    });
    return getContractAddress({ from: sender.address, nonce: BigInt(nonce) });
  };
  const helpers: Record<string, Address> = {};
  for (const helper of spec.helpers ?? []) helpers[helper] = await create(helper);
  if (!spec.proxy)
    return create(
      spec.contract,
      spec.constructorArgs?.({ router: context.router, supply: SUPPLY, helpers }) ?? [],
    );

  const implementation = await create(spec.contract);
  const admin =
    spec.proxy === 'timelock'
      ? await create('DevnetTimelock', [TIMELOCK_DELAY, [sender.address], [sender.address]])
      : sender.address;
  const init = encodeFunctionData({
    abi: initAbi,
    functionName: 'initialize',
    args: [spec.name, spec.symbol, SUPPLY, sender.address],
  });
  const proxy = await create('DevnetProxy', [implementation, admin, init]);
  if (spec.contract === 'StableTokenImpl') {
    await sender.send({
      label: `roles of ${key}`,
      to: proxy,
      data: encodeFunctionData({
        abi: initAbi,
        functionName: 'initializeRoles',
        args: [sender.address, sender.address, sender.address, context.minter],
      }),
    });
  }
  return proxy;
}

/** Approves the router and seeds the pool with the spec's share of the supply. */
export async function addLiquidity(sender: DevSender, listed: Listed, router: Address): Promise<void> {
  const shares = DISTRIBUTIONS[listed.spec.distribution];
  const tokens = (SUPPLY * BigInt(shares.pool)) / 1000n;
  await sender.send({
    label: `approve ${listed.key}`,
    to: listed.token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
  });
  await sender.send({
    label: `liquidity ${listed.key}`,
    to: router,
    value: listed.spec.liquidityEth,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'addLiquidityETH',
      args: [listed.token, tokens, 0n, 0n, sender.address, maxUint256],
    }),
  });
}

/** After listing: LP burned or locked, airdrop, burn, and ownership as the spec says. */
export async function settleLaunch(
  sender: DevSender,
  client: DevnetClient,
  listed: Listed,
  helpers: { lpLocker: Address; disperse: Address },
  ownable: (contract: string) => boolean,
): Promise<void> {
  const { lpLocker, disperse } = helpers;
  const { spec, key, token, pair } = listed;
  const lp = await client.readContract({
    address: pair,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [sender.address],
  });
  if (spec.lp !== 'keep') {
    await sender.send({
      label: `${spec.lp} LP of ${key}`,
      to: pair,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [spec.lp === 'burn' ? DEAD : lpLocker, lp],
      }),
    });
  }
  const shares = DISTRIBUTIONS[spec.distribution];
  const each = (SUPPLY * BigInt(shares.airdrop)) / 1000n / BigInt(AIRDROP_HOLDERS);
  await sender.send({
    label: `approve the airdrop of ${key}`,
    to: token,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [disperse, each * BigInt(AIRDROP_WALLETS.length)],
    }),
  });
  await sender.send({
    label: `airdrop ${key}`,
    to: disperse,
    data: encodeFunctionData({
      abi: disperseAbi,
      functionName: 'disperse',
      args: [token, [...AIRDROP_WALLETS], each],
    }),
  });
  await sender.send({
    label: `burn ${key}`,
    to: token,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [DEAD, (SUPPLY * BigInt(shares.burn)) / 1000n],
    }),
  });
  if (spec.ownership === 'keep' || !ownable(spec.contract)) return;
  await sender.send({
    label: `${spec.ownership} ${key}`,
    to: token,
    data: encodeFunctionData({
      abi: ownerAbi,
      functionName: spec.ownership === 'lock' ? 'lock' : 'renounceOwnership',
    }),
  });
}

/** Buys every tradable token from each trader; the sells follow in `sellHalf`. */
export async function buy(
  sender: DevSender,
  listed: Listed,
  index: number,
  router: Address,
  weth: Address,
): Promise<void> {
  const amount =
    listed.spec.tradeEth?.[index] ?? [parseEther('0.5'), parseEther('0.2')][index] ?? parseEther('0.1');
  await sender.send({
    label: `buy ${listed.key}`,
    to: router,
    value: amount,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'swapExactETHForTokensSupportingFeeOnTransferTokens',
      args: [0n, [weth, listed.token], sender.address, maxUint256],
    }),
  });
  await sender.send({
    label: `approve ${listed.key} for selling`,
    to: listed.token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
  });
}

export async function sellHalf(
  sender: DevSender,
  client: DevnetClient,
  listed: Listed,
  router: Address,
  weth: Address,
): Promise<void> {
  const balance = await client.readContract({
    address: listed.token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [sender.address],
  });
  await sender.send({
    label: `sell ${listed.key}`,
    to: router,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
      args: [balance / 2n, 0n, [listed.token, weth], sender.address, maxUint256],
    }),
  });
}

/** What happens after trading: buyers blacklisted, or the liquidity pulled. */
export async function afterTrading(
  sender: DevSender,
  client: DevnetClient,
  listed: Listed,
  context: { router: Address; traders: readonly Address[] },
): Promise<void> {
  if (listed.spec.after === 'blacklist-traders') {
    for (const trader of context.traders) {
      await sender.send({
        label: `blacklist a buyer of ${listed.key}`,
        to: listed.token,
        data: encodeFunctionData({ abi: ownerAbi, functionName: 'blacklist', args: [trader] }),
      });
    }
  }
  if (listed.spec.after === 'pull-liquidity') {
    const lp = await client.readContract({
      address: listed.pair,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [sender.address],
    });
    await sender.send({
      label: `approve LP of ${listed.key}`,
      to: listed.pair,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [context.router, maxUint256],
      }),
    });
    await sender.send({
      label: `pull liquidity of ${listed.key}`,
      to: context.router,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'removeLiquidityETHSupportingFeeOnTransferTokens',
        args: [listed.token, lp, 0n, 0n, sender.address, maxUint256],
      }),
    });
  }
}

export function hasFunction(abi: Abi, name: string): boolean {
  return abi.some((item) => item.type === 'function' && item.name === name);
}

/**
 * A test token deployed from `sender` and listed: the router approved and `tokens` of it added
 * beside `eth` of liquidity (the LP to the sender). The launch the scanner's tests repeat.
 */
export async function deployAndList(
  sender: DevSender,
  contract: { abi: Abi; bytecode: `0x${string}` },
  { args, router, tokens, eth }: { args: readonly unknown[]; router: Address; tokens: bigint; eth: bigint },
): Promise<Address> {
  const nonce = await sender.send({
    label: 'deploy',
    data: encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args }),
  });
  await sender.settle();
  const token = getContractAddress({ from: sender.address, nonce: BigInt(nonce) });
  await sender.send({
    label: 'approve',
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }),
  });
  await sender.send({
    label: 'liquidity',
    to: router,
    value: eth,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'addLiquidityETH',
      args: [token, tokens, 0n, 0n, sender.address, maxUint256],
    }),
  });
  await sender.settle();
  return token;
}
