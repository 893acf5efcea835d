import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  type Address,
  type Hex,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  parseAbi,
  parseAbiItem,
  type AbiItem,
  parseEther,
  zeroAddress,
} from 'viem';
import type { DevnetClient, DevSender } from '../client.ts';
import { type Artifacts, compileContracts } from '../compile.ts';
import { type LaunchPlan, SUPPLY, devnetWallet } from '../launch.ts';
import { HELDOUT_TOKENS } from './heldout/tokens.ts';
import type { CorpusPart, MarketPreset } from './schema.ts';
import type { CorpusCall, CorpusContext, CorpusLiveContext, CorpusTokenSpec } from './spec.ts';
import { TUNING_TOKENS } from './tuning/tokens.ts';

const SOURCE_DIRS: Record<CorpusPart, string> = {
  heldout: fileURLToPath(new URL('./heldout/', import.meta.url)),
  tuning: fileURLToPath(new URL('./tuning/', import.meta.url)),
};
const POOL_ETH = parseEther('20');
/** Two days: long enough for holders to leave before an upgrade lands. */
const TIMELOCK_DELAY = 2n * 86_400n;
// EIP-1967: bytes32(uint256(keccak256('eip1967.proxy.admin')) - 1).
const ADMIN_SLOT = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103';
const initializeAbi = parseAbi([
  'function initialize(string name, string symbol, uint256 supply, address holder)',
]);

export interface CorpusEntry {
  key: string;
  part: CorpusPart;
  spec: CorpusTokenSpec;
}

/** Every corpus token, held-out part first; keys are unique across both parts. */
export function corpusEntries(): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  const seen = new Set<string>();
  for (const [part, tokens] of [
    ['heldout', HELDOUT_TOKENS],
    ['tuning', TUNING_TOKENS],
  ] as const) {
    for (const [key, spec] of Object.entries(tokens)) {
      if (seen.has(key)) throw new Error(`corpus key ${key} is used twice`);
      seen.add(key);
      entries.push({ key, part, spec });
    }
  }
  return entries;
}

/** Markets as a trader finds them: healthy ones are cheap to fake, so the model must not trust them. */
const MARKETS: Record<MarketPreset, Omit<LaunchPlan, 'contract' | 'ownership'>> = {
  healthy: { liquidityEth: POOL_ETH, lp: 'burn', distribution: 'default', traders: 'buy-sell' },
  healthy_locked: { liquidityEth: POOL_ETH, lp: 'lock', distribution: 'default', traders: 'buy-sell' },
  rug_ready: { liquidityEth: POOL_ETH, lp: 'keep', distribution: 'concentrated', traders: 'buy-only' },
  quiet: { liquidityEth: POOL_ETH, lp: 'keep', distribution: 'default', traders: 'none' },
  honeypot: { liquidityEth: POOL_ETH, lp: 'keep', distribution: 'default', traders: 'buy-only' },
};

/** Ownership is left alone by the launch phases: corpus tokens renounce through their own calls. */
export function corpusLaunchPlan(spec: CorpusTokenSpec): LaunchPlan {
  return { contract: spec.contract, ownership: 'keep', ...MARKETS[spec.market] };
}

/** The deployer wallet of a corpus token: each token its own. */
export function corpusDeployerLabel(key: string): string {
  return `corpus.${key}`;
}

export function corpusWallet(label: string): Address {
  return devnetWallet(`corpus.${label}`);
}

/** Wallets other than the deployer that send setup calls, by label. */
export function corpusCallers(entries: readonly CorpusEntry[]): string[] {
  const labels = entries.flatMap(({ spec }) =>
    [...(spec.launch ?? []), ...(spec.after ?? [])].flatMap((call) => (call.from ? [call.from] : [])),
  );
  return [...new Set(labels)];
}

/** Both parts compiled, each from its own folder (and cached on its own sources). */
export async function compileCorpus(cacheDir?: string): Promise<Artifacts> {
  const parts: Artifacts[] = [];
  for (const sourceDir of Object.values(SOURCE_DIRS)) {
    const sources = (await readdir(sourceDir, { recursive: true })).filter((file) => file.endsWith('.sol'));
    if (sources.length > 0)
      parts.push(await compileContracts({ sourceDir, ...(cacheDir === undefined ? {} : { cacheDir }) }));
  }
  return mergeArtifacts(...parts);
}

/** One set of artifacts from several compilations; a contract name may appear only once. */
export function mergeArtifacts(...sets: Artifacts[]): Artifacts {
  const merged: Artifacts = {};
  for (const set of sets) {
    for (const [name, artifact] of Object.entries(set)) {
      if (merged[name]) throw new Error(`two compiled contracts are named ${name}; names must be unique`);
      merged[name] = artifact;
    }
  }
  return merged;
}

export interface DeployedCorpusToken {
  token: Address;
  helpers: Record<string, Address>;
  implementations: Record<string, Address>;
}

/** Deploys a corpus token (its helpers first; behind a proxy when its spec says so). */
export async function deployCorpusToken(
  sender: DevSender,
  artifacts: Artifacts,
  entry: CorpusEntry,
  router: Address,
): Promise<DeployedCorpusToken> {
  const { key, spec } = entry;
  const create = async (name: string, args: readonly unknown[] = []) => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`contract ${name} (corpus token ${key}) was not compiled`);
    const nonce = await sender.send({
      label: `deploy ${name} for ${key}`,
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    });
    return getContractAddress({ from: sender.address, nonce: BigInt(nonce) });
  };
  const context: CorpusContext = {
    supply: SUPPLY,
    router,
    deployer: sender.address,
    wallet: corpusWallet,
    helpers: {},
  };
  for (const helper of spec.helpers ?? [])
    context.helpers[helper.name] = await create(helper.contract, helper.args?.(context) ?? []);
  const implementations: Record<string, Address> = {};
  if (!spec.proxy) {
    const token = await create(spec.contract, spec.args?.(context) ?? []);
    return { token, helpers: context.helpers, implementations };
  }
  const implementation = await create(spec.contract);
  const admin =
    spec.proxy.admin === 'timelock'
      ? await create('DevnetTimelock', [TIMELOCK_DELAY, [sender.address], [sender.address]])
      : sender.address;
  const init = encodeFunctionData({
    abi: initializeAbi,
    functionName: 'initialize',
    args: [spec.name, spec.symbol, SUPPLY, sender.address],
  });
  const token = await create('DevnetProxy', [implementation, admin, init]);
  if (spec.proxy.upgrade)
    implementations[spec.proxy.upgrade.contract] = await create(spec.proxy.upgrade.contract);
  return { token, helpers: context.helpers, implementations };
}

export interface CorpusCallParameters {
  client: DevnetClient;
  entry: CorpusEntry;
  context: CorpusLiveContext;
  /** The sender for a wallet label, or for the deployer when the label is undefined. */
  senderFor: (label: string | undefined) => DevSender;
}

/** Sends the launch calls of a token (after listing and the airdrop). */
export function sendLaunchCalls(parameters: CorpusCallParameters): Promise<void> {
  return sendCalls(parameters, parameters.entry.spec.launch ?? [], 'launch');
}

/** Sends what happens after trading: the upgrade, when there is one, then the `after` calls. */
export function sendAfterCalls(parameters: CorpusCallParameters): Promise<void> {
  const upgrade = parameters.entry.spec.proxy?.upgrade;
  const calls: CorpusCall[] = upgrade
    ? [
        {
          to: 'proxyAdmin',
          signature: 'function upgradeAndCall(address proxy, address implementation, bytes data) payable',
          args: (c) => [
            c.token,
            c.implementations[upgrade.contract] ?? zeroAddress,
            upgrade.initialize ? encodeCall(upgrade.initialize, c) : '0x',
          ],
        },
      ]
    : [];
  return sendCalls(parameters, [...calls, ...(parameters.entry.spec.after ?? [])], 'after');
}

async function sendCalls(parameters: CorpusCallParameters, calls: readonly CorpusCall[], phase: string) {
  const { client, entry, context, senderFor } = parameters;
  for (const call of calls) {
    const to = await callTarget(client, call, context);
    await senderFor(call.from).send({
      label: `${phase} ${call.signature} on ${entry.key}`,
      to,
      data: encodeCall(call, context),
      ...(call.value === undefined ? {} : { value: call.value }),
    });
  }
}

/** Where a call goes: the token, its proxy's admin, or a helper the spec deployed. */
export async function callTarget(
  client: DevnetClient,
  call: CorpusCall,
  context: CorpusLiveContext,
): Promise<Address> {
  if (call.to === 'proxyAdmin') return proxyAdminOf(client, context.token);
  if (call.to?.startsWith('helper:')) {
    const helper = context.helpers[call.to.slice('helper:'.length)];
    if (!helper) throw new Error(`no helper named ${call.to}`);
    return helper;
  }
  return context.token;
}

export function encodeCall(call: CorpusCall, context: CorpusLiveContext): Hex {
  const item = parseAbiItem(call.signature) as AbiItem;
  if (item.type !== 'function') throw new Error(`"${call.signature}" is not a function signature`);
  return encodeFunctionData({ abi: [item], functionName: item.name, args: call.args?.(context) ?? [] });
}

async function proxyAdminOf(client: DevnetClient, proxy: Address): Promise<Address> {
  const word = await client.getStorageAt({ address: proxy, slot: ADMIN_SLOT });
  if (!word || BigInt(word) === 0n) throw new Error(`${proxy} has no EIP-1967 admin`);
  return getAddress(`0x${word.slice(-40)}`);
}
