import { createRequire } from 'node:module';
import {
  type Abi,
  type Address,
  type Hex,
  encodeDeployData,
  erc20Abi,
  keccak256,
  numberToHex,
  pad,
  stringToHex,
} from 'viem';
import type { DevnetClient } from './client.ts';

/** Uniswap V2 on Ethereum mainnet; the devnet puts the same code at the same addresses. */
export const UNISWAP_V2_WETH: Address = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
export const UNISWAP_V2_FACTORY: Address = '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f';
export const UNISWAP_V2_ROUTER02: Address = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D';
/** keccak256 of the pair creation code, compiled into the router to compute pair addresses. */
export const UNISWAP_V2_INIT_CODE_HASH: Hex =
  '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f';

interface UniswapV2Artifact {
  abi: Abi;
  bytecode: Hex;
}

export interface UniswapV2Artifacts {
  weth9: UniswapV2Artifact;
  factory: UniswapV2Artifact;
  router02: UniswapV2Artifact;
  pair: UniswapV2Artifact;
}

export interface UniswapV2Deployment {
  weth: Address;
  factory: Address;
  router: Address;
}

const require = createRequire(import.meta.url);

/** The original build outputs published on npm; recompiling the pair would change its hash. */
export function loadUniswapV2Artifacts(): UniswapV2Artifacts {
  const load = (path: string): UniswapV2Artifact => {
    const json = require(path) as { abi: Abi; bytecode: string };
    return {
      abi: json.abi,
      bytecode: json.bytecode.startsWith('0x') ? (json.bytecode as Hex) : `0x${json.bytecode}`,
    };
  };
  return {
    weth9: load('@uniswap/v2-periphery/build/WETH9.json'),
    factory: load('@uniswap/v2-core/build/UniswapV2Factory.json'),
    router02: load('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
    pair: load('@uniswap/v2-core/build/UniswapV2Pair.json'),
  };
}

/**
 * Fails unless the pair creation code hashes to the constant the router was compiled with;
 * otherwise the router would compute wrong pair addresses and every swap would revert.
 */
export function assertPairInitCodeHash(artifacts: UniswapV2Artifacts): void {
  const hash = keccak256(artifacts.pair.bytecode);
  if (hash !== UNISWAP_V2_INIT_CODE_HASH) {
    throw new Error(`UniswapV2Pair creation code hashes to ${hash}, expected ${UNISWAP_V2_INIT_CODE_HASH}`);
  }
  if (!artifacts.router02.bytecode.includes(UNISWAP_V2_INIT_CODE_HASH.slice(2))) {
    throw new Error('UniswapV2Router02 does not embed the pair init code hash');
  }
}

/**
 * Installs WETH9, UniswapV2Factory and UniswapV2Router02 at their mainnet addresses. Each
 * constructor runs in an eth_call, which returns the runtime code (immutables included), and that
 * code is set at the canonical address; the storage the constructors write is set alongside.
 * Running it again on the same chain is harmless: pairs already created stay.
 */
export async function deployUniswapV2(
  client: DevnetClient,
  { feeToSetter }: { feeToSetter: Address },
): Promise<UniswapV2Deployment> {
  const artifacts = loadUniswapV2Artifacts();
  assertPairInitCodeHash(artifacts);

  const [wethCode, factoryCode, routerCode] = await Promise.all([
    runtimeCode(client, encodeDeployData({ abi: artifacts.weth9.abi, bytecode: artifacts.weth9.bytecode })),
    runtimeCode(
      client,
      encodeDeployData({
        abi: artifacts.factory.abi,
        bytecode: artifacts.factory.bytecode,
        args: [feeToSetter],
      }),
    ),
    runtimeCode(
      client,
      encodeDeployData({
        abi: artifacts.router02.abi,
        bytecode: artifacts.router02.bytecode,
        args: [UNISWAP_V2_FACTORY, UNISWAP_V2_WETH],
      }),
    ),
  ]);

  await Promise.all([
    client.setCode({ address: UNISWAP_V2_WETH, bytecode: wethCode }),
    client.setCode({ address: UNISWAP_V2_FACTORY, bytecode: factoryCode }),
    client.setCode({ address: UNISWAP_V2_ROUTER02, bytecode: routerCode }),
    // WETH9 initialises name (slot 0), symbol (1) and decimals (2) in its declarations.
    client.setStorageAt({ address: UNISWAP_V2_WETH, index: 0, value: shortStringSlot('Wrapped Ether') }),
    client.setStorageAt({ address: UNISWAP_V2_WETH, index: 1, value: shortStringSlot('WETH') }),
    client.setStorageAt({ address: UNISWAP_V2_WETH, index: 2, value: numberToHex(18, { size: 32 }) }),
    // The factory's constructor stores feeToSetter in slot 1 (feeTo, slot 0, stays unset).
    client.setStorageAt({ address: UNISWAP_V2_FACTORY, index: 1, value: pad(feeToSetter, { size: 32 }) }),
  ]);

  const symbol = await client.readContract({
    address: UNISWAP_V2_WETH,
    abi: erc20Abi,
    functionName: 'symbol',
  });
  if (symbol !== 'WETH') throw new Error(`WETH9 storage was not set up (symbol() returned "${symbol}")`);
  return { weth: UNISWAP_V2_WETH, factory: UNISWAP_V2_FACTORY, router: UNISWAP_V2_ROUTER02 };
}

async function runtimeCode(client: DevnetClient, creationCode: Hex): Promise<Hex> {
  // A call without `to` runs the constructor and returns the code it would deploy.
  const code = await client.request({ method: 'eth_call', params: [{ data: creationCode }, 'latest'] });
  if (code === '0x') throw new Error('constructor returned no runtime code');
  return code;
}

/** Solidity's storage layout for a string shorter than 32 bytes: the bytes, then length * 2. */
function shortStringSlot(text: string): Hex {
  const length = new TextEncoder().encode(text).length;
  if (length > 31) throw new Error(`"${text}" does not fit in one slot`);
  const padded = pad(stringToHex(text), { dir: 'right', size: 32 });
  return `${padded.slice(0, 64)}${(length * 2).toString(16).padStart(2, '0')}` as Hex;
}
