import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { type Address, encodeDeployData, getAddress, getContractAddress, parseEther } from 'viem';
import { DEVNET_LP_LOCKER } from '../../core/chains/registry.ts';
import { type Artifacts, compileContracts } from './compile.ts';
import { DevSender, type DevnetClient, createDevnetClient, mineAll, withBatchedMining } from './client.ts';
import {
  addLiquidity,
  afterTrading,
  buy,
  deployToken,
  devnetWallet,
  hasFunction,
  type Listed,
  SUPPLY,
  pairFor,
  sellHalf,
  settleLaunch,
} from './launch.ts';
import {
  type Scenario,
  type ScenarioToken,
  TOKEN_KEYS,
  type TokenKey,
  scenarioContracts,
  scenarioSchema,
} from './scenarioSchema.ts';
import { FRESH_DEPLOYERS, TOKEN_SPECS } from './tokens.ts';
import {
  compileCorpus,
  corpusCallers,
  corpusDeployerLabel,
  corpusEntries,
  corpusLaunchPlan,
  corpusWallet,
  deployCorpusToken,
  type DeployedCorpusToken,
  mergeArtifacts,
  sendAfterCalls,
  sendLaunchCalls,
  type CorpusEntry,
} from './corpus/deploy.ts';
import type { CorpusToken } from './corpus/schema.ts';
import type { CorpusLiveContext } from './corpus/spec.ts';
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

/** Dev accounts by index: 0 funds the deployers, the next ones trade. */
const FUNDER_INDEX = 0;
const TRADER_COUNT = 2;
/** Corpus tokens deployed, and listed, per block at most (see deployScenario). */
const CORPUS_PER_BLOCK = 64;
/** What a wallet gets on top of the liquidity its tokens seed: gas, a buy or two. */
const WALLET_FUNDS = parseEther('5');
/** The chain's clock moves this far between funding the established deployers and the launches. */
const CHAIN_AGE_SECONDS = 60 * 86_400;

/**
 * A genesis time for a node the scenario will be deployed on: far enough in the past that moving
 * the clock on by the scenario's age brings the chain to the wall clock rather than past it.
 * A chain ahead of the wall clock would see every wall-clock deadline as past (EIP-3009
 * authorizations, for one).
 */
export function scenarioGenesisTimestamp(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000) - CHAIN_AGE_SECONDS - 60;
}

/**
 * Deploys the demo world on an anvil node: Uniswap V2 at its mainnet addresses, an LP locker,
 * the tokens of tokens.ts and of the adversarial corpus (corpus/), each from its own wallet
 * (funded, then aged by moving the chain's clock on), listed with WETH liquidity and airdropped;
 * then dev accounts buy and sell, and the trap, rug and corpus tokens do what they do afterwards.
 * Transactions go out back to back and are mined in batches, then checked, phase by phase.
 */
export async function deployScenario(rpcUrl: string, options: DeployScenarioOptions = {}): Promise<Scenario> {
  const client = createDevnetClient(rpcUrl);
  const [devnetArtifacts, corpusArtifacts, unlocked, chainId] = await Promise.all([
    compileContracts(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    compileCorpus(options.cacheDir),
    client.request({ method: 'eth_accounts' }),
    client.getChainId(),
  ]);
  const artifacts = mergeArtifacts(devnetArtifacts, corpusArtifacts);
  const accounts = unlocked.map((account) => getAddress(account));
  const funder = accounts[FUNDER_INDEX];
  const traders = accounts.slice(FUNDER_INDEX + 1, FUNDER_INDEX + 1 + TRADER_COUNT);
  if (funder === undefined || traders.length < TRADER_COUNT) {
    throw new Error(`the devnet node must expose at least ${TRADER_COUNT + 1} unlocked dev accounts`);
  }
  const firstBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
  const dex = await deployUniswapV2(client, { feeToSetter: funder });
  await installLocker(client, artifacts);
  const launched = await withBatchedMining(client, () =>
    launchTokens({ client, artifacts, dex, funder, traders }),
  );
  return scenarioSchema.parse({
    chainId,
    deployedAtBlock: Number(firstBlock),
    dex: { name: 'uniswap-v2', ...dex },
    deployer: funder,
    traders,
    ...launched,
  });
}

interface LaunchParameters {
  client: DevnetClient;
  artifacts: Artifacts;
  dex: { factory: Address; router: Address; weth: Address };
  funder: Address;
  traders: readonly Address[];
}

async function launchTokens({ client, artifacts, dex, funder, traders }: LaunchParameters) {
  const corpus = corpusEntries();
  const senders = new Map<Address, DevSender>();
  const senderOf = (address: Address) => {
    let sender = senders.get(address);
    if (!sender) senders.set(address, (sender = new DevSender(client, address)));
    return sender;
  };
  const settleAll = async () => {
    await mineAll(client);
    await Promise.all([...senders.values()].map((sender) => sender.settle()));
  };

  // Deployer wallets: funded by the funder (a visible funding transaction), then sent from by impersonation.
  const wallets = new Map<string, Address>();
  for (const key of TOKEN_KEYS)
    wallets.set(TOKEN_SPECS[key].deployer, devnetWallet(`deployer.${TOKEN_SPECS[key].deployer}`));
  wallets.set('minter', devnetWallet('deployer.minter'));
  for (const { key } of corpus)
    wallets.set(corpusDeployerLabel(key), devnetWallet(`deployer.${corpusDeployerLabel(key)}`));
  for (const label of corpusCallers(corpus)) wallets.set(`corpus.${label}`, corpusWallet(label));
  const fresh = [
    ...FRESH_DEPLOYERS,
    ...corpus.filter(({ spec }) => spec.freshDeployer).map(({ key }) => corpusDeployerLabel(key)),
  ];
  const liquidityOf = new Map<string, bigint>();
  const seed = (label: string, value: bigint) =>
    liquidityOf.set(label, (liquidityOf.get(label) ?? 0n) + value);
  for (const key of TOKEN_KEYS) seed(TOKEN_SPECS[key].deployer, TOKEN_SPECS[key].liquidityEth);
  for (const entry of corpus) seed(corpusDeployerLabel(entry.key), corpusLaunchPlan(entry.spec).liquidityEth);
  const fundsOf = (label: string) => WALLET_FUNDS + (liquidityOf.get(label) ?? 0n);
  // The dev account's own balance is not enough for a corpus of this size, deployed twice.
  const needed = [...wallets.keys()].reduce((sum, label) => sum + fundsOf(label), 0n);
  await client.setBalance({
    address: funder,
    value: needed + (await client.getBalance({ address: funder })),
  });
  const fund = async (labels: string[]) => {
    for (const label of labels) {
      const wallet = wallets.get(label);
      if (!wallet) continue;
      await client.impersonateAccount({ address: wallet });
      await senderOf(funder).send({ label: `fund ${label}`, to: wallet, value: fundsOf(label), data: '0x' });
    }
    await settleAll();
  };
  const disperseArtifact = artifacts.Disperse;
  if (!disperseArtifact) throw new Error('Disperse was not compiled');
  const disperseNonce = await senderOf(funder).send({
    label: 'deploy Disperse',
    data: encodeDeployData({ abi: disperseArtifact.abi, bytecode: disperseArtifact.bytecode }),
  });
  const disperse = getContractAddress({ from: funder, nonce: BigInt(disperseNonce) });
  await fund([...wallets.keys()].filter((label) => !fresh.includes(label)));
  // Age the established deployers: to the wall clock when the node started in the past (see
  // scenarioGenesisTimestamp), else CHAIN_AGE_SECONDS on from the chain's own clock.
  const funded = await client.getBlock({ blockTag: 'latest' });
  const aged = Math.max(Number(funded.timestamp) + CHAIN_AGE_SECONDS, Math.floor(Date.now() / 1000));
  await client.setNextBlockTimestamp({ timestamp: BigInt(aged) });
  await client.mine({ blocks: 1 });
  await fund(fresh);

  const listed: Listed[] = [];
  const minter = wallets.get('minter') ?? funder;
  for (const key of TOKEN_KEYS) {
    const spec = TOKEN_SPECS[key];
    const deployer = wallets.get(spec.deployer) ?? funder;
    const token = await deployToken(senderOf(deployer), artifacts, key, { router: dex.router, minter });
    listed.push({ key, spec, token, pair: pairFor(dex.factory, dex.weth, token), deployer });
  }
  const deployed = new Map<string, DeployedCorpusToken>();
  for (const [index, entry] of corpus.entries()) {
    // Mined in blocks of CORPUS_PER_BLOCK: a block with every token's creation (code, pair and
    // all) traces to more than an RPC response may carry, and an indexer leaves it untraced.
    if (index > 0 && index % CORPUS_PER_BLOCK === 0) await settleAll();
    const deployer = wallets.get(corpusDeployerLabel(entry.key)) ?? funder;
    const found = await deployCorpusToken(senderOf(deployer), artifacts, entry, dex.router);
    deployed.set(entry.key, found);
    const spec = corpusLaunchPlan(entry.spec);
    listed.push({
      key: entry.key,
      spec,
      token: found.token,
      pair: pairFor(dex.factory, dex.weth, found.token),
      deployer,
    });
  }
  await settleAll();
  for (const [index, entry] of listed.entries()) {
    if (index > 0 && index % CORPUS_PER_BLOCK === 0) await settleAll();
    await addLiquidity(senderOf(entry.deployer), entry, dex.router);
  }
  await settleAll();
  const ownable = (contract: string) =>
    hasFunction(artifacts[contract]?.abi ?? [], 'renounceOwnership') ||
    hasFunction(artifacts[contract]?.abi ?? [], 'lock');
  for (const entry of listed)
    await settleLaunch(
      senderOf(entry.deployer),
      client,
      entry,
      { lpLocker: DEVNET_LP_LOCKER, disperse },
      ownable,
    );
  await settleAll();
  const corpusCalls = (entry: CorpusEntry) => {
    const launched = listed.find((candidate) => candidate.key === entry.key);
    const found = deployed.get(entry.key);
    if (!launched || !found) throw new Error(`corpus token ${entry.key} was not deployed`);
    const context: CorpusLiveContext = {
      supply: SUPPLY,
      router: dex.router,
      deployer: launched.deployer,
      wallet: corpusWallet,
      helpers: found.helpers,
      token: launched.token,
      pair: launched.pair,
      traders,
      implementations: found.implementations,
    };
    const senderFor = (label: string | undefined) =>
      senderOf(label === undefined ? launched.deployer : corpusWallet(label));
    return { client, entry, context, senderFor };
  };
  for (const entry of corpus) await sendLaunchCalls(corpusCalls(entry));
  await settleAll();

  const tradable = listed.filter((entry) => entry.spec.traders !== 'none');
  for (const [index, trader] of traders.entries())
    for (const entry of tradable) await buy(senderOf(trader), entry, index, dex.router, dex.weth);
  await settleAll();
  for (const trader of traders)
    for (const entry of tradable.filter((candidate) => candidate.spec.traders === 'buy-sell'))
      await sellHalf(senderOf(trader), client, entry, dex.router, dex.weth);
  await settleAll();
  for (const entry of listed.filter((candidate) => candidate.spec.after))
    await afterTrading(senderOf(entry.deployer), client, entry, { router: dex.router, traders });
  for (const entry of corpus) await sendAfterCalls(corpusCalls(entry));
  await settleAll();
  return describeLaunched(listed, corpus, deployed);
}

/** The scenario's tokens and corpus as they were deployed, with their ground truth. */
function describeLaunched(
  listed: readonly Listed[],
  corpus: readonly CorpusEntry[],
  deployed: ReadonlyMap<string, DeployedCorpusToken>,
) {
  const tokens = {} as Record<TokenKey, ScenarioToken>;
  const corpusTokens: Record<string, CorpusToken> = {};
  const deployers: Record<string, Address> = {};
  for (const entry of listed) {
    deployers[entry.key] = entry.deployer;
    const fromCorpus = corpus.find((candidate) => candidate.key === entry.key);
    if (fromCorpus) {
      const { spec, part } = fromCorpus;
      corpusTokens[entry.key] = {
        address: entry.token,
        pair: entry.pair,
        name: spec.name,
        symbol: spec.symbol,
        contract: spec.contract,
        part,
        market: spec.market,
        pattern: spec.pattern,
        labels: spec.labels,
        helpers: deployed.get(entry.key)?.helpers ?? {},
      };
      continue;
    }
    const key = entry.key as TokenKey;
    const spec = TOKEN_SPECS[key];
    tokens[key] = {
      address: entry.token,
      name: spec.name,
      symbol: spec.symbol,
      decimals: 18,
      kind: spec.kind,
      pair: entry.pair,
      expected: spec.expected,
    };
  }
  const allowlist = TOKEN_KEYS.filter((key) => TOKEN_SPECS[key].expected.allowlisted).map(
    (key) => tokens[key].address,
  );
  return { deployers, tokens, corpus: corpusTokens, allowlist };
}

/** The LP locker at its fixed address: constructor run in an eth_call, its runtime code set. */
async function installLocker(client: DevnetClient, artifacts: Artifacts): Promise<void> {
  const artifact = artifacts.DevnetLpLocker;
  if (!artifact) throw new Error('DevnetLpLocker was not compiled');
  const code = await client.request({
    method: 'eth_call',
    params: [{ data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode }) }, 'latest'],
  });
  await client.setCode({ address: DEVNET_LP_LOCKER, bytecode: code });
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
