import {
  type Address,
  type Hex,
  encodeFunctionData,
  getAddress,
  keccak256,
  numberToHex,
  parseAbi,
  parseEther,
  slice,
  stringToHex,
} from 'viem';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender, type DevnetClient } from '../../infra/devnet/client.ts';
import { type Artifacts, compileContracts } from '../../infra/devnet/compile.ts';
import { deployAndList } from '../../infra/devnet/launch.ts';
import { deployUniswapV2, type UniswapV2Deployment } from '../../infra/devnet/uniswap.ts';
import { getChain } from '../../core/chains/registry.ts';
import { readScanConfig } from '../../scanner/config.ts';
import { contractSafety } from '../../scanner/engines/contractSafety.ts';
import { type ProbeCall, probePrivileges } from '../../scanner/evm/probePrivileges.ts';

const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
const setPairAbi = parseAbi(['function setPair(address)']);
const supplyAbi = parseAbi(['function totalSupply() view returns (uint256)']);

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

/** Every token of `deploys` listed as listWithPair lists one, one after the other (the owner's nonces). */
export async function listAll<K extends string>(
  devnet: ListingDevnet,
  deploys: Record<K, { contract: string; args: readonly unknown[] }>,
  pool: { tokens: bigint; eth: bigint },
): Promise<Record<K, { address: Address; pair: Address }>> {
  const listed = {} as Record<K, { address: Address; pair: Address }>;
  for (const [key, { contract, args }] of Object.entries(deploys) as [K, (typeof deploys)[K]][])
    listed[key] = await listWithPair(devnet, contract, { args, ...pool });
  return listed;
}

/** The owner's calls probed at the latest block, the holder buying `buyWei` (the probe's default when omitted). */
export async function probeAsOwner(
  devnet: ListingDevnet,
  token: { address: Address; pair: Address },
  calls: ProbeCall[],
  buyWei?: bigint,
) {
  return probePrivileges(devnet.client, {
    token: token.address,
    actor: devnet.owner,
    router: devnet.dex.router,
    sellTo: token.pair,
    blockNumber: await devnet.client.getBlockNumber(),
    calls,
    ...(buyWei === undefined ? {} : { buyWei }),
  });
}

/**
 * The contract-safety engine on a listed token at the latest block, as a worker runs it: through
 * the devnet's node, or another `url` in front of it (a slow or faulty proxy), with `env` as the
 * worker's environment.
 */
export async function scanContractSafety(
  devnet: ListingDevnet,
  address: Address,
  { url, env = {} }: { url?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return contractSafety({
    client: url ? createDevnetClient(url) : devnet.client,
    chain: getChain('devnet'),
    address,
    // Not the client's cached number: a snapshot reverted since may have taken that block away.
    blockNumber: await devnet.client.getBlockNumber({ cacheTime: 0 }),
    creation: null,
    config: readScanConfig(env),
  });
}

/**
 * The contract-safety scan of each token made once, however many tests read it (the devnet is
 * read when the first scan starts: it is made in a beforeAll).
 */
export function scanOnce(
  devnet: () => ListingDevnet,
): (address: Address) => ReturnType<typeof scanContractSafety> {
  const scans = new Map<Address, ReturnType<typeof scanContractSafety>>();
  return (address) => {
    let pending = scans.get(address);
    if (!pending) {
      pending = scanContractSafety(devnet(), address);
      scans.set(address, pending);
    }
    return pending;
  };
}

/**
 * Sends a transaction as `from` (impersonated, given 100 of the native coin beyond `value`), mined
 * in a block of its own; whether it went through.
 */
export async function sendAs(
  devnet: ListingDevnet,
  transaction: { from: Address; to: Address; data: Hex; value?: bigint },
): Promise<boolean> {
  return (await sentAs(devnet, transaction)).ok;
}

/** As sendAs, with the gas the transaction carries (3M unless told): whether it worked, and the gas it used. */
export async function sentAs(
  devnet: ListingDevnet,
  {
    from,
    to,
    data,
    value = 0n,
    gas = 3_000_000n,
  }: { from: Address; to: Address; data: Hex; value?: bigint; gas?: bigint },
): Promise<{ ok: boolean; gasUsed: bigint }> {
  const { client } = devnet;
  await client.impersonateAccount({ address: from });
  await client.setBalance({ address: from, value: parseEther('100') + value });
  const hash = await client.request({
    method: 'eth_sendTransaction',
    params: [{ from, to, data, value: numberToHex(value), gas: numberToHex(gas) }],
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5, timeout: 30_000 });
  return { ok: receipt.status === 'success', gasUsed: receipt.gasUsed };
}

/** A wallet with no code and no key, derived from a label (in a namespace) so that it looks random. */
export function labelledWallet(namespace: string, label: string): Address {
  return getAddress(slice(keccak256(stringToHex(`${namespace}.${label}`)), 12));
}

/** Runs `body` on a snapshot of the devnet, reverted after. */
export async function onSnapshot<T>(devnet: ListingDevnet, body: () => Promise<T>): Promise<T> {
  const snapshot = await devnet.client.snapshot();
  try {
    return await body();
  } finally {
    await devnet.client.revert({ id: snapshot });
  }
}

/**
 * Each token scanned, one after another at the same block, before any control moves the chain (a
 * control mines blocks and reverts them: a scan started just after could pin a block that is
 * gone). How long each took; a scan that throws is left for the tests to read.
 */
export async function scanInOrder<K extends string>(
  keys: readonly K[],
  scan: (key: K) => Promise<unknown>,
): Promise<Map<K, number>> {
  const times = new Map<K, number>();
  for (const key of keys) {
    const started = Date.now();
    await scan(key).catch(() => undefined);
    times.set(key, Date.now() - started);
  }
  return times;
}

/** A transaction of a devnet scenario, in a block of its own after its wait (seconds, then blocks). */
export interface TimedStep {
  from: Address;
  data: Hex;
  waitSeconds?: number;
  waitBlocks?: number;
}

/**
 * On a snapshot: each step sent to the token as a transaction of its own (after its wait), then the
 * supply. What each step did and how far the supply rose, as a share of what it was (basis points).
 */
export async function supplyAfter(
  devnet: ListingDevnet,
  token: Address,
  steps: readonly TimedStep[],
): Promise<{ sent: boolean[]; raisedBps: number }> {
  const { client } = devnet;
  const supply = () => client.readContract({ address: token, abi: supplyAbi, functionName: 'totalSupply' });
  return onSnapshot(devnet, async () => {
    const before = await supply();
    const sent: boolean[] = [];
    for (const step of steps) {
      if (step.waitSeconds) await client.increaseTime({ seconds: step.waitSeconds });
      if (step.waitBlocks) await client.mine({ blocks: step.waitBlocks });
      sent.push(await sendAs(devnet, { from: step.from, to: token, data: step.data }));
    }
    return { sent, raisedBps: Number((((await supply()) - before) * 10_000n) / before) };
  });
}

const tradeAbi = parseAbi([
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256,address[],address,uint256) payable',
  'function transfer(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

/** `trader` buys the token with 0.1 ETH through the devnet's router: whether it went through, and what it holds. */
export async function buyAs(
  devnet: ListingDevnet,
  trader: Address,
  token: Address,
): Promise<{ bought: boolean; held: bigint }> {
  const bought = await sendAs(devnet, {
    from: trader,
    to: devnet.dex.router,
    data: encodeFunctionData({
      abi: tradeAbi,
      functionName: 'swapExactETHForTokensSupportingFeeOnTransferTokens',
      args: [0n, [devnet.dex.weth, token], trader, 2n ** 40n],
    }),
    value: parseEther('0.1'),
  });
  const held = await devnet.client.readContract({
    address: token,
    abi: tradeAbi,
    functionName: 'balanceOf',
    args: [trader],
  });
  return { bought, held };
}

/**
 * `trader` sells half of what it holds at the token (a send to the pair): whether it went through,
 * and the share of it the token kept (basis points; null when refused).
 */
export async function sellHalfAs(
  devnet: ListingDevnet,
  trader: Address,
  { address, pair }: { address: Address; pair: Address },
): Promise<{ sold: boolean; keptBps: number | null }> {
  const balanceOf = (account: Address) =>
    devnet.client.readContract({ address, abi: tradeAbi, functionName: 'balanceOf', args: [account] });
  const half = (await balanceOf(trader)) / 2n;
  const pairBefore = await balanceOf(pair);
  const sold = await sendAs(devnet, {
    from: trader,
    to: address,
    data: encodeFunctionData({ abi: tradeAbi, functionName: 'transfer', args: [pair, half] }),
  });
  if (!sold) return { sold, keptBps: null };
  const arrived = (await balanceOf(pair)) - pairBefore;
  return { sold, keptBps: Number(((half - arrived) * 10_000n) / half) };
}
