import { type Address, encodeFunctionData, parseAbi } from 'viem';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender, type DevnetClient } from '../../infra/devnet/client.ts';
import { type Artifacts, compileContracts } from '../../infra/devnet/compile.ts';
import { deployAndList } from '../../infra/devnet/launch.ts';
import { deployUniswapV2, type UniswapV2Deployment } from '../../infra/devnet/uniswap.ts';

const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
const setPairAbi = parseAbi(['function setPair(address)']);

/** A devnet node with Uniswap V2 at its mainnet addresses and a folder of test contracts compiled. */
export interface ListingDevnet {
  node: AnvilInstance;
  client: DevnetClient;
  /** The node's first account: every deploy, listing and owner call is its. */
  owner: Address;
  sender: DevSender;
  dex: UniswapV2Deployment;
  artifacts: Artifacts;
}

export async function startListingDevnet(sourceDir: string): Promise<ListingDevnet> {
  const node = await startAnvil();
  const client = createDevnetClient(node.url);
  const [owner] = await client.request({ method: 'eth_accounts' });
  if (!owner) throw new Error('the node has no accounts');
  const [dex, artifacts] = await Promise.all([
    deployUniswapV2(client, { feeToSetter: owner }),
    compileContracts({ sourceDir }),
  ]);
  return { node, client, owner, sender: new DevSender(client, owner), dex, artifacts };
}

/**
 * Deploys a compiled token, adds `tokens` of it beside `eth` to a new pool, and tells the token
 * its pair (`setPair(address)`, which the test tokens take to tell sells apart).
 */
export async function listWithPair(
  devnet: ListingDevnet,
  contract: string,
  { args, tokens, eth }: { args: readonly unknown[]; tokens: bigint; eth: bigint },
): Promise<{ address: Address; pair: Address }> {
  const artifact = devnet.artifacts[contract];
  if (!artifact) throw new Error(`${contract} was not compiled`);
  const address = await deployAndList(devnet.sender, artifact, {
    args,
    router: devnet.dex.router,
    tokens,
    eth,
  });
  const pair = await devnet.client.readContract({
    address: devnet.dex.factory,
    abi: factoryAbi,
    functionName: 'getPair',
    args: [address, devnet.dex.weth],
  });
  await devnet.sender.send({
    label: `set the pair of ${contract}`,
    to: address,
    data: encodeFunctionData({ abi: setPairAbi, functionName: 'setPair', args: [pair] }),
  });
  await devnet.sender.settle();
  return { address, pair };
}
