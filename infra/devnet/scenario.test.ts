import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Address, erc20Abi, parseAbi, parseAbiItem, zeroAddress } from 'viem';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { TOKEN_SPECS } from './tokens.ts';
import { type DevnetClient, createDevnetClient } from './client.ts';
import {
  type Scenario,
  TOKEN_KEYS,
  deployScenario,
  type TokenKey,
  loadOrDeployScenario,
  scenarioContracts,
  scenarioSchema,
} from './scenario.ts';

const ownableAbi = parseAbi([
  'function owner() view returns (address)',
  'function mint(address to, uint256 amount)',
]);
const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
const swapEvent = parseAbiItem(
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
);

const nodes: AnvilInstance[] = [];
const scratch = await mkdtemp(join(tmpdir(), 'vigil-scenario-'));
let node: AnvilInstance;
let client: DevnetClient;
let scenario: Scenario;
let deployMs: number;

async function start(): Promise<AnvilInstance> {
  const started = await startAnvil();
  nodes.push(started);
  return started;
}

beforeAll(async () => {
  node = await start();
  client = createDevnetClient(node.url);
  const startedAt = performance.now();
  scenario = await deployScenario(node.url);
  deployMs = performance.now() - startedAt;
});
afterAll(async () => {
  await Promise.all(nodes.map((each) => each.stop()));
  await rm(scratch, { recursive: true, force: true });
});

describe('deployScenario', () => {
  it('returns a JSON-serialisable scenario that matches its schema', () => {
    console.log(`scenario deployed in ${deployMs.toFixed(0)} ms`);
    expect(scenarioSchema.parse(JSON.parse(JSON.stringify(scenario)))).toEqual(scenario);
    expect(scenario.chainId).toBe(31337);
    expect(Object.keys(scenario.tokens).sort()).toEqual([...TOKEN_KEYS].sort());
    expect(scenario.traders).toHaveLength(2);
  });

  it('leaves code at every address it records', async () => {
    for (const address of scenarioContracts(scenario)) {
      expect((await client.getCode({ address }))?.length ?? 0, address).toBeGreaterThan(2);
    }
  });

  it('deploys each token as described, listed against WETH', async () => {
    for (const token of Object.values(scenario.tokens)) {
      const read = (functionName: 'name' | 'symbol' | 'decimals') =>
        client.readContract({ address: token.address, abi: erc20Abi, functionName });
      expect([await read('name'), await read('symbol'), await read('decimals')]).toEqual([
        token.name,
        token.symbol,
        token.decimals,
      ]);
      const pair = await client.readContract({
        address: scenario.dex.factory,
        abi: factoryAbi,
        functionName: 'getPair',
        args: [token.address, scenario.dex.weth],
      });
      expect(pair).toBe(token.pair);
      const wethInPair = await client.readContract({
        address: scenario.dex.weth,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [pair],
      });
      expect(wethInPair).toBeGreaterThan(0n);
    }
  });

  it('sets up ownership as each token’s spec says', async () => {
    const owner = (address: Address) =>
      client.readContract({ address, abi: ownableAbi, functionName: 'owner' }).catch(() => undefined);
    for (const key of TOKEN_KEYS) {
      const spec = TOKEN_SPECS[key];
      const token = scenario.tokens[key];
      const current = await owner(token.address);
      if (spec.ownership === 'keep' && current !== undefined)
        expect(current, key).toBe(scenario.deployers[key]);
      if (spec.ownership !== 'keep' && current !== undefined) expect(current, key).toBe(zeroAddress);
    }
    // The mintable token's owner can still mint.
    await client.simulateContract({
      account: scenario.deployers.mintable,
      address: scenario.tokens.mintable.address,
      abi: ownableAbi,
      functionName: 'mint',
      args: [scenario.traders[0] ?? zeroAddress, 1n],
    });
  });

  it('leaves trading history: buys everywhere, sells except on the honeypot', async () => {
    for (const [key, token] of Object.entries(scenario.tokens)) {
      const swaps = await client.getLogs({
        address: token.pair,
        event: swapEvent,
        fromBlock: BigInt(scenario.deployedAtBlock),
      });
      // In a token/WETH pair, a buy pays WETH in; which side that is depends on address order.
      const wethIsToken0 = scenario.dex.weth.toLowerCase() < token.address.toLowerCase();
      const buys = swaps.filter((log) => (wethIsToken0 ? log.args.amount0In : log.args.amount1In) !== 0n);
      const traders = TOKEN_SPECS[key as TokenKey].traders;
      expect(buys.length, key).toBe(traders === 'none' ? 0 : scenario.traders.length);
      expect(swaps.length - buys.length, key).toBe(traders === 'buy-sell' ? scenario.traders.length : 0);
    }
  });
});

describe('loadOrDeployScenario', () => {
  it('reuses a saved scenario while its contracts exist, and redeploys on a fresh chain', async () => {
    const file = join(scratch, 'nested', 'scenario.json');
    const first = await loadOrDeployScenario({ rpcUrl: node.url, file });
    const saved = scenarioSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(saved).toEqual(first);

    const blockBefore = await client.getBlockNumber({ cacheTime: 0 });
    expect(await loadOrDeployScenario({ rpcUrl: node.url, file })).toEqual(first);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(blockBefore);

    const fresh = await start();
    const freshClient = createDevnetClient(fresh.url);
    expect(await freshClient.getBlockNumber({ cacheTime: 0 })).toBe(0n);
    const redeployed = await loadOrDeployScenario({ rpcUrl: fresh.url, file });
    expect(await freshClient.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(0n);
    for (const address of scenarioContracts(redeployed)) {
      expect((await freshClient.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    }
    expect(scenarioSchema.parse(JSON.parse(await readFile(file, 'utf8')))).toEqual(redeployed);
  });

  it('redeploys when the saved file is not a scenario', async () => {
    const fresh = await start();
    const file = join(scratch, 'garbage.json');
    await writeFile(file, '{"chainId": "nope"}');
    const deployed = await loadOrDeployScenario({ rpcUrl: fresh.url, file });
    expect(scenarioSchema.parse(JSON.parse(await readFile(file, 'utf8')))).toEqual(deployed);
  });
});
