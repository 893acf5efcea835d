import { createRequire } from 'node:module';
import {
  type Abi,
  type Address,
  type Hex,
  encodeDeployData,
  getContractAddress,
  keccak256,
  zeroAddress,
} from 'viem';
import type { DevSender } from './client.ts';

/**
 * keccak256 of UniswapV3Pool's creation code: the periphery computes pool addresses from it, so a
 * pool built from other bytecode would be one the position manager and router never find.
 */
const UNISWAP_V3_POOL_INIT_CODE_HASH: Hex =
  '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

export interface UniswapV3Artifacts {
  factory: Artifact;
  pool: Artifact;
  positionManager: Artifact;
  router: Artifact;
}

export interface UniswapV3Deployment {
  factory: Address;
  positionManager: Address;
  router: Address;
}

const require = createRequire(import.meta.url);

/** Uniswap's own build outputs, as published on npm (recompiling would change the pool's hash). */
export function loadUniswapV3Artifacts(): UniswapV3Artifacts {
  const load = (path: string): Artifact => {
    const json = require(path) as { abi: Abi; bytecode: Hex };
    return { abi: json.abi, bytecode: json.bytecode };
  };
  const artifacts = {
    factory: load('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
    pool: load('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'),
    positionManager: load(
      '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
    ),
    router: load('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json'),
  };
  const hash = keccak256(artifacts.pool.bytecode);
  if (hash !== UNISWAP_V3_POOL_INIT_CODE_HASH)
    throw new Error(`UniswapV3Pool creation code hashes to ${hash}, not ${UNISWAP_V3_POOL_INIT_CODE_HASH}`);
  for (const name of ['positionManager', 'router'] as const)
    if (!artifacts[name].bytecode.includes(UNISWAP_V3_POOL_INIT_CODE_HASH.slice(2)))
      throw new Error(`the ${name} does not embed the pool init code hash`);
  return artifacts;
}

/**
 * Deploys Uniswap V3 by ordinary transactions from `sender` (the factory, a position manager and
 * a swap router over `weth`; no token descriptor, so positions have no tokenURI). Pools are then
 * created by the factory, as on mainnet. Settles before it returns.
 */
export async function deployUniswapV3(sender: DevSender, weth: Address): Promise<UniswapV3Deployment> {
  const artifacts = loadUniswapV3Artifacts();
  const deploy = async (label: string, artifact: Artifact, args: readonly unknown[]) => {
    const nonce = await sender.send({
      label,
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    });
    return getContractAddress({ from: sender.address, nonce: BigInt(nonce) });
  };
  const factory = await deploy('UniswapV3Factory', artifacts.factory, []);
  const positionManager = await deploy('NonfungiblePositionManager', artifacts.positionManager, [
    factory,
    weth,
    zeroAddress,
  ]);
  const router = await deploy('SwapRouter', artifacts.router, [factory, weth]);
  await sender.settle();
  return { factory, positionManager, router };
}
