// Per-class precision and recall (mint, leak, limit) on rug-pull contracts from the wild: the
// ground truth of CRPWarner (Lin et al., 2024, arXiv 2403.01425; github.com/CRPWarner/RugPull,
// dataset/groundtruth): token contracts of real rug-pull events, with their published sources and
// a manual label per class (Mint, Leak, Limit) by the paper's authors.
//
// The dataset is read from a local copy and never copied into this repository: its licence is
// unstated, and an outside measure only stays one while nobody here tunes on its files. Each source
// is compiled with the solc release of its pragma (the 0.4-0.7 releases are fetched once from the
// npm registry into .data/cache/solc-releases), deployed on its own anvil beside Uniswap V2 at its
// mainnet addresses (its router's code also at PancakeSwap's router address, which most of these
// BSC tokens name; PancakeSwap's WBNB, factory and pair init code hash in a source become the
// devnet's), listed with 20 ETH, its LP burned, airdropped and traded both ways, and scanned with the
// scanner library a worker runs.
//   node bench/wildRugs.ts --dataset <copy of RugPull>/dataset/groundtruth [--label current] [--only 0xa,0xb]
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import readXlsxFile from 'read-excel-file/node';
import semver from 'semver';
import {
  type Abi,
  type AbiFunction,
  type AbiParameter,
  type Address,
  type Hex,
  BaseError,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  getContractAddress,
  maxUint256,
  parseAbiItem,
  parseEther,
  zeroAddress,
} from 'viem';
import { startAnvil } from '../infra/devnet/anvil.ts';
import { DevSender, createDevnetClient, type DevnetClient } from '../infra/devnet/client.ts';
import { devnetWallet, pairFor, routerAbi } from '../infra/devnet/launch.ts';
import {
  UNISWAP_V2_FACTORY,
  UNISWAP_V2_INIT_CODE_HASH,
  UNISWAP_V2_ROUTER02,
  UNISWAP_V2_WETH,
  deployUniswapV2,
} from '../infra/devnet/uniswap.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import type { ScanResult } from '../scanner/core/result.ts';
import { HARM_CLASSES, type HarmClass, type HarmClasses, harmClasses } from '../scanner/core/risk/harm.ts';
import { corpusScanner, scanAll } from './corpus.ts';

/** Releases for the pragmas of 0.4 to 0.7; 0.8 sources compile with the solc this repo depends on. */
const RELEASES = ['0.4.26', '0.5.17', '0.6.12', '0.7.6'] as const;
const RELEASE_CACHE = path.join(REPO_ROOT, '.data', 'cache', 'solc-releases');
const PANCAKE_ROUTER: Address = '0x10ED43C718714eb63d5aA57B78B54704E256024E';
const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const POOL_ETH = parseEther('20');
const AIRDROP_HOLDERS = 12;
const RESERVE_CAP = 2n ** 100n;
const TRADES = [
  parseEther('0.5'),
  parseEther('0.2'),
  parseEther('0.1'),
  parseEther('0.3'),
  parseEther('0.15'),
];

const require = createRequire(import.meta.url);
const linker = require('solc/linker.js') as {
  linkBytecode(bytecode: string, libraries: Record<string, string>): string;
};
/** --verbose: every failed launch step with the node's reason, and each scan's discovery and class checks. */
let verbose = false;

interface SolcCompiler {
  version(): string;
  compile(input: string): string;
}

interface WildToken {
  address: string;
  labels: HarmClasses;
}

type Stage = 'no source' | 'not compiled' | 'not a token' | 'not deployed' | 'not listed' | 'scanned';

interface WildVerdict {
  address: string;
  labels: HarmClasses;
  stage: Stage;
  detail?: string;
  compiler?: string;
  contract?: string;
  market?: Market;
  actual?: { classes: HarmClasses; tier: string; risk_score: number | null; flags: string[] } | null;
  /** What the scan's power discovery cost: its stages' wall time, simulated calls, round trips, accounts. */
  discovery?: DiscoveryCost;
}

interface DiscoveryCost {
  ms: number;
  calls: number;
  round_trips: number;
  accounts: number;
}

/** A scan's discovery cost, from contract_safety's facts; none where the engine gave none. */
export function discoveryCost(facts: Record<string, unknown> | undefined): DiscoveryCost | undefined {
  const discovery = facts?.discovery as
    | { timings_ms?: Record<string, number>; calls?: number; round_trips?: number; candidates?: unknown[] }
    | undefined;
  if (!discovery || typeof discovery.calls !== 'number' || typeof discovery.round_trips !== 'number')
    return undefined;
  return {
    ms: Object.values(discovery.timings_ms ?? {}).reduce((sum, ms) => sum + ms, 0),
    calls: discovery.calls,
    round_trips: discovery.round_trips,
    accounts: discovery.candidates?.length ?? 0,
  };
}

/** The median, total and most of each cost over the scans that have one, as the results line says it. */
export function costLine(costs: readonly DiscoveryCost[]): string {
  if (costs.length === 0) return 'No scan recorded its discovery.';
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  };
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const times = costs.map((cost) => cost.ms);
  const calls = costs.map((cost) => cost.calls);
  return (
    `Discovery of ${costs.length} scans: median ${seconds(median(times))}, all ${seconds(sum(times))}, ` +
    `most ${seconds(Math.max(...times))}; simulated calls median ${median(calls)}, all ${sum(calls)}; ` +
    `round trips ${sum(costs.map((cost) => cost.round_trips))}; accounts explored ${sum(costs.map((cost) => cost.accounts))}.`
  );
}

/** The labels: one row per address, 1 where the paper's authors found the mechanism. */
async function readLabels(dataset: string): Promise<WildToken[]> {
  const sheets = await readXlsxFile(path.join(dataset, 'groundTruth.xlsx'));
  const rows = sheets[0]?.data ?? [];
  const header = (rows[0] ?? []).map((cell) => String(cell).trim().toLowerCase());
  const column = (name: string) => header.indexOf(name);
  const [at, mint, leak, limit] = ['address', 'mint', 'leak', 'limit'].map(column);
  if ([at, mint, leak, limit].some((index) => index === undefined || index < 0))
    throw new Error(
      `groundTruth.xlsx needs the columns address, Mint, Leak, Limit; it has ${header.join(', ')}`,
    );
  return rows.slice(1).map((row) => ({
    address: String(row[at as number]).trim(),
    labels: {
      mint: Number(row[mint as number]) === 1,
      leak: Number(row[leak as number]) === 1,
      limit: Number(row[limit as number]) === 1,
    },
  }));
}

/** Runs a command with fixed arguments (the package name is ours, never the dataset's). */
async function run(command: string, args: string[], cwd: string): Promise<void> {
  await promisify(execFile)(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
}

const compilers = new Map<string, SolcCompiler>();

/** The solc release, from the npm registry's solc package of that version (cached). */
async function release(version: string): Promise<SolcCompiler> {
  const known = compilers.get(version);
  if (known) return known;
  const dir = path.join(RELEASE_CACHE, version);
  // .cjs: the repository's package.json makes a .js file an ES module, and soljson.js is CommonJS.
  const soljson = path.join(dir, 'soljson.cjs');
  if (!existsSync(soljson)) {
    await mkdir(dir, { recursive: true });
    await run('npm', ['pack', `solc@${version}`, '--silent', '--pack-destination', dir], dir);
    await run('tar', ['-xzf', `solc-${version}.tgz`, 'package/soljson.js'], dir);
    await rename(path.join(dir, 'package', 'soljson.js'), soljson);
  }
  const wrapper = require('solc/wrapper.js') as (soljson: unknown) => SolcCompiler;
  const compiler = wrapper(require(soljson));
  compilers.set(version, compiler);
  return compiler;
}

/**
 * The release for a source: the newest of ours that every pragma allows; a pragma pinned to a
 * patch release we do not fetch (0.8.19, 0.6.9) takes the newest release of its minor version, and
 * the pragmas are then dropped so it compiles (patch releases of one minor version keep the
 * language).
 */
export function releaseFor(source: string, bundled: string): string | undefined {
  const pragmas = [...source.matchAll(/pragma\s+solidity\s+([^;]+);/g)].map((match) =>
    (match[1] ?? '').trim().replace(/\s+/g, ' '),
  );
  const candidates = [...RELEASES, bundled];
  const allowed = candidates.filter((version) =>
    pragmas.every((range) => semver.satisfies(version, range, { loose: true })),
  );
  if (allowed.length > 0) return allowed.at(-1);
  const minors = pragmas.map((range) => semver.minVersion(range, { loose: true })?.minor ?? -1);
  const minor = Math.max(...minors);
  return candidates.filter((version) => semver.minor(version) === minor).at(-1);
}

/**
 * The source units to compile. A file flattened by a tool is one unit, its pragmas dropped (the
 * release is chosen already) and its repeated licence lines renamed (newer solc refuses them). A
 * file that joins a multi-file source keeps each file's imports, in an order that need not put a
 * base contract before the contracts deriving from it, and sometimes the same file twice: it is cut
 * back into its files at their licence lines, a file declaring a name already declared is dropped,
 * and each file imports the files declaring a name it uses, in place of its own imports (their
 * paths are gone; importing every file would make cycles, and solc then misorders bases).
 */
export function sourceUnits(source: string): Record<string, { content: string }> {
  const clean = (text: string) =>
    text
      .replace(/pragma\s+solidity\s+[^;]+;/g, '')
      .replace(/^\s*import\s[^;]*;/gm, '')
      .replace(/SPDX-License-Identifier:/g, 'Licence:');
  if (!/^\s*import\s/m.test(source)) return { 'token.sol': { content: clean(source) } };
  const files = source.split(/^(?=\s*\/\/\s*SPDX-License-Identifier)/m);
  const seen = new Set<string>();
  const kept: { content: string; names: string[] }[] = [];
  for (const file of files) {
    const names = [...file.matchAll(/^\s*(?:abstract\s+)?(?:contract|interface|library)\s+(\w+)/gm)].map(
      (match) => match[1] ?? '',
    );
    if (names.some((name) => seen.has(name))) continue;
    for (const name of names) seen.add(name);
    kept.push({ content: clean(file), names });
  }
  const unit = (index: number) => `unit${index}.sol`;
  return Object.fromEntries(
    kept.map(({ content }, index) => {
      const imports = kept
        .map((other, at) =>
          at !== index && other.names.some((name) => new RegExp(`\\b${name}\\b`).test(content))
            ? `import "${unit(at)}";`
            : '',
        )
        .join('');
      return [unit(index), { content: `${imports}\n${content}` }];
    }),
  );
}

interface Compiled {
  compiler: string;
  contract: string;
  abi: Abi;
  /** Creation code, with placeholders where `libraries` are linked. */
  bytecode: string;
  /** The libraries with public functions the token calls, by their file:name, with their code. */
  libraries: { name: string; bytecode: Hex }[];
}

interface CompiledContract {
  abi: Abi;
  evm: { bytecode: { object: string; linkReferences?: Record<string, Record<string, unknown>> } };
}

/** Compiles the source and picks its token: the most derived ERC-20 contract it declares with code. */
async function compile(source: string): Promise<Compiled | { error: string }> {
  const bundled = (require('solc/package.json') as { version: string }).version;
  const version = releaseFor(source, bundled);
  if (version === undefined) return { error: 'no solc release fits its pragmas' };
  const solc = version === bundled ? (require('solc') as SolcCompiler) : await release(version);
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: sourceUnits(source),
        settings: {
          optimizer: { enabled: true, runs: 200 },
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.bytecode.linkReferences'] } },
        },
      }),
    ),
  ) as {
    errors?: { severity: string; message: string }[];
    contracts?: Record<string, Record<string, CompiledContract>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) return { error: (errors[0]?.message ?? 'error').slice(0, 160) };
  const contracts = Object.values(output.contracts ?? {}).flatMap((unit) => Object.entries(unit));
  const declared = [...source.matchAll(/\bcontract\s+(\w+)/g)].map((match) => match[1] ?? '');
  const tokens = contracts.filter(
    ([, contract]) =>
      contract.evm.bytecode.object.length > 0 &&
      ['balanceOf', 'transfer', 'totalSupply'].every((name) =>
        contract.abi.some((item) => item.type === 'function' && item.name === name),
      ),
  );
  if (tokens.length === 0) return { error: 'no ERC-20 contract with code' };
  // The token is the most derived: a joined multi-file source puts its own file first and the
  // bases it imports after it, a flattened file puts it last.
  const derived = tokens.filter(
    ([name]) => !tokens.some(([other]) => other !== name && inherits(source, other, name)),
  );
  const ranked = (derived.length > 0 ? derived : tokens).sort(
    ([a], [b]) => declared.lastIndexOf(a) - declared.lastIndexOf(b),
  );
  const [contract, picked] = ranked.at(-1) as [string, CompiledContract];
  const libraries = Object.entries(picked.evm.bytecode.linkReferences ?? {}).flatMap(([file, names]) =>
    Object.keys(names).map((name): Compiled['libraries'][number] => ({
      name: `${file}:${name}`,
      bytecode: `0x${output.contracts?.[file]?.[name]?.evm.bytecode.object ?? ''}`,
    })),
  );
  return { compiler: version, contract, abi: picked.abi, bytecode: picked.evm.bytecode.object, libraries };
}

/** Whether the source declares `derived` inheriting from `base`, directly or through its bases. */
export function inherits(source: string, derived: string, base: string, seen = new Set<string>()): boolean {
  if (seen.has(derived)) return false;
  seen.add(derived);
  const bases = new RegExp(`\\bcontract\\s+${derived}\\s+is\\s+([^{]*)\\{`).exec(source)?.[1] ?? '';
  const names = [...bases.matchAll(/\b([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*(?:,|$)/g)].map((m) => m[1] ?? '');
  return names.includes(base) || names.some((name) => inherits(source, name, base, seen));
}

/**
 * PancakeSwap V2 on BSC, which most of these tokens were launched on, and the Uniswap V2 this
 * devnet has in its place: a source naming the one is compiled naming the other (the same
 * contracts, at other addresses, with another pair init code hash). The router keeps its address
 * (its code is set there too), so a source naming both chains' routers still tells them apart.
 */
const VENUE_LITERALS: readonly (readonly [string, string])[] = [
  ['0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c', UNISWAP_V2_WETH], // WBNB
  ['0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73', UNISWAP_V2_FACTORY], // PancakeSwap V2 factory
  ['0x00fb7f630766e6a796048ea87d01acd3068e8ff67d078148a3fa3f4a84f69bd5', UNISWAP_V2_INIT_CODE_HASH],
];

/** The source with PancakeSwap's WBNB, factory and pair init code hash replaced by this devnet's. */
export function onDevnetVenue(source: string): string {
  return VENUE_LITERALS.reduce(
    (text, [theirs, ours]) => text.replace(new RegExp(theirs.slice(2), 'gi'), ours.slice(2)),
    source,
  );
}

/**
 * What a scan says of a token's classes, or null when it says nothing usable: no tier, or an
 * engine that failed (a node that timed out under load, say), whose classes went unseen. Such a
 * scan is not a clean negative, and is not counted as one.
 */
export function scanned(result: Pick<ScanResult, 'tier' | 'risk_score' | 'engines' | 'checks' | 'flags'>): {
  actual: NonNullable<WildVerdict['actual']> | null;
  detail?: string;
} {
  const failed = Object.entries(result.engines)
    .filter(([, outcome]) => outcome.status !== 'ok')
    .map(
      ([engine, outcome]) => `${engine}${outcome.error ? ` (${outcome.error.message.slice(0, 160)})` : ''}`,
    );
  if (result.tier === 'unknown' || result.risk_score === null || failed.length > 0)
    return { actual: null, ...(failed.length > 0 ? { detail: `engines failed: ${failed.join(', ')}` } : {}) };
  return {
    actual: {
      classes: harmClasses(result.checks),
      tier: result.tier,
      risk_score: result.risk_score,
      flags: result.flags.map((flag) => flag.id).sort(),
    },
  };
}

/** Addresses the source casts to a router interface or assigns to a router variable. */
export function namedRouters(source: string): Address[] {
  const literal = '(?:address\\s*\\(\\s*)?(0x[0-9a-fA-F]{40})';
  const patterns = [
    new RegExp(`Router\\w*\\s*\\(\\s*${literal}`, 'g'),
    new RegExp(`router\\w*\\s*=\\s*${literal}`, 'gi'),
  ];
  const found = patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));
  return [...new Set(found.map((address) => getAddress(address.toLowerCase())))];
}

/** A node's answer to a call that failed, as --verbose prints it. */
function whyFailed(failure: unknown): string {
  return failure instanceof BaseError ? `${failure.shortMessage} ${failure.details}` : String(failure);
}

/** A constructor argument guessed from its type and name, as a deployer would fill it in. */
function guessArgument(input: AbiParameter, scaled: boolean): unknown {
  const name = (input.name ?? '').toLowerCase();
  if (input.type.endsWith(']')) return [];
  if (input.type === 'string') return name.includes('symbol') ? 'WILD' : 'Wild Token';
  if (input.type === 'bool') return false;
  if (input.type.startsWith('bytes'))
    return input.type === 'bytes' ? '0x' : `0x${'00'.repeat(Number(input.type.slice(5)))}`;
  if (input.type === 'address') {
    if (/router/.test(name)) return UNISWAP_V2_ROUTER02;
    if (/weth|wbnb|wrapped|eth|bnb|usd|token|pair/.test(name)) return UNISWAP_V2_WETH;
    return devnetWallet(`wild.argument.${name || 'unnamed'}`);
  }
  if (input.type.startsWith('uint') || input.type.startsWith('int')) {
    if (/decimal/.test(name)) return 18;
    if (/supply|total|amount|initial|cap|mint/.test(name))
      return scaled ? parseEther('1000000000') : 1_000_000_000n;
    if (/fee|tax|percent|rate/.test(name)) return 5n;
    return 0n;
  }
  return undefined;
}

/** Trading switches a deployer flips at launch: no argument, or one bool set to true. */
function openers(abi: Abi): AbiFunction[] {
  return abi.filter(
    (item): item is AbiFunction =>
      item.type === 'function' &&
      item.stateMutability !== 'view' &&
      item.stateMutability !== 'pure' &&
      /trading|trade|^launch$|^golive$|swapenabled|^open/i.test(item.name) &&
      !/disable|stop|pause|close|block|fee|limit|remove|exclude/i.test(item.name) &&
      (item.inputs.length === 0 || (item.inputs.length === 1 && item.inputs[0]?.type === 'bool')),
  );
}

interface Market {
  buys: number;
  sells: number;
  holders: number;
  opened: string[];
}

/** Deploys the token and gives it the market a trader finds: listed, LP burned, held, traded. */
async function launch(
  client: DevnetClient,
  compiled: Compiled,
  deployerLabel: string,
  traders: readonly Address[],
): Promise<{ token: Address } & ({ market: Market } | { error: string; stage: Stage })> {
  const deployer = devnetWallet(deployerLabel);
  const senders = new Map<Address, DevSender>();
  /** Sends from any wallet (funded and impersonated); false when the transaction reverts. */
  const attempt = async (
    from: Address,
    label: string,
    to: Address | undefined,
    data: Hex,
    value?: bigint,
  ) => {
    let sender = senders.get(from);
    if (!sender) {
      await client.setBalance({ address: from, value: parseEther('1000') });
      await client.impersonateAccount({ address: from });
      sender = new DevSender(client, from);
      senders.set(from, sender);
    }
    try {
      await sender.send({ label, data, ...(to ? { to } : {}), ...(value === undefined ? {} : { value }) });
      await sender.settle();
      return true;
    } catch {
      if (verbose) {
        const reason = await client
          .call({ account: from, data, ...(to ? { to } : {}), ...(value === undefined ? {} : { value }) })
          .then(() => 'passes as a call', whyFailed);
        console.log(`    ${deployerLabel} ${label}: ${reason}`);
      }
      return false;
    }
  };
  // Libraries with public functions are deployed first and their addresses linked into the token.
  const links: Record<string, Address> = {};
  for (const library of compiled.libraries) {
    const nonce = await client.getTransactionCount({ address: deployer });
    if (await attempt(deployer, `library ${library.name}`, undefined, library.bytecode))
      links[library.name] = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
  }
  const bytecode: Hex = `0x${linker.linkBytecode(compiled.bytecode, links)}`;
  const constructor = compiled.abi.find((item) => item.type === 'constructor');
  let token: Address | undefined;
  let deployedAt = 0n;
  for (const scaled of [true, false]) {
    const args = (constructor?.inputs ?? []).map((input) => guessArgument(input, scaled));
    const nonce = await client.getTransactionCount({ address: deployer });
    const data = encodeDeployData({ abi: compiled.abi, bytecode, args });
    const value = constructor?.stateMutability === 'payable' ? POOL_ETH : undefined;
    if (await attempt(deployer, 'deploy', undefined, data, value)) {
      token = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
      deployedAt = await client.getBlockNumber({ cacheTime: 0 });
      break;
    }
  }
  if (!token) return { token: zeroAddress, stage: 'not deployed', error: 'the constructor reverted' };
  const balance = (owner: Address) =>
    client
      .readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
      .catch(() => 0n);
  const call = (fn: AbiFunction, args: readonly unknown[]) =>
    encodeFunctionData({ abi: [fn], functionName: fn.name, args });
  // A token minted nothing at deployment: its owner mints the launch supply, as its deployer did.
  const supply = await client
    .readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' })
    .catch(() => 0n);
  if (supply === 0n) {
    for (const fn of compiled.abi) {
      if (fn.type !== 'function' || !/^mint$|^_mint$|^mintTo$/i.test(fn.name)) continue;
      const shape = fn.inputs.map((input) => input.type).join(',');
      const args =
        shape === 'address,uint256'
          ? [deployer, parseEther('1000000000')]
          : shape === 'uint256'
            ? [parseEther('1000000000')]
            : undefined;
      if (args && (await attempt(deployer, `mint ${fn.name}`, token, call(fn, args)))) break;
    }
  }
  // The supply may go to a wallet named in the code (the real deployer's): that wallet launches.
  const transfers = await client.getLogs({
    address: token,
    event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
    fromBlock: deployedAt,
  });
  const recipients = [
    ...new Set([deployer, ...transfers.map((log) => getAddress(log.args.to ?? zeroAddress))]),
  ].filter((holder) => holder !== token && holder !== zeroAddress && getAddress(holder) !== getAddress(DEAD));
  let launcher = deployer;
  let most = await balance(deployer);
  for (const holder of recipients) {
    const held = await balance(holder);
    const code = await client.getCode({ address: holder });
    if (held > most && (code === undefined || code === '0x')) [launcher, most] = [holder, held];
  }
  const opened: string[] = [];
  const open = async () => {
    for (const fn of openers(compiled.abi)) {
      if (opened.includes(fn.name)) continue;
      const value = fn.stateMutability === 'payable' ? POOL_ETH : undefined;
      if (
        await attempt(
          deployer,
          `open ${fn.name}`,
          token,
          call(fn, fn.inputs.length === 1 ? [true] : []),
          value,
        )
      )
        opened.push(fn.name);
    }
  };
  // Where the pair is or will be (a pair not created yet holds no WETH).
  const pair = pairFor(UNISWAP_V2_FACTORY, UNISWAP_V2_WETH, token);
  const addLiquidity = async () => {
    const held = await balance(launcher);
    if (held === 0n) {
      if (verbose)
        console.log(`    ${deployerLabel} no holder with code-free wallet holds any of the supply`);
      return false;
    }
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [UNISWAP_V2_ROUTER02, maxUint256],
    });
    await attempt(launcher, 'approve', token, approve);
    // Most of the holding first, then less: a transaction cap may bind the deployer too, and a
    // pair's reserves must fit in 112 bits.
    for (const share of [80n, 10n, 1n]) {
      const amount = (held * share) / 100n;
      const data = encodeFunctionData({
        abi: routerAbi,
        functionName: 'addLiquidityETH',
        args: [token, amount < RESERVE_CAP ? amount : RESERVE_CAP / share, 0n, 0n, launcher, maxUint256],
      });
      if (await attempt(launcher, `liquidity ${share} %`, UNISWAP_V2_ROUTER02, data, POOL_ETH)) return true;
    }
    if (verbose) {
      // The router's TransferHelper hides the token's own reason: ask the token directly.
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transferFrom',
        args: [launcher, pair, held / 100n],
      });
      const reason = await client
        .call({ account: UNISWAP_V2_ROUTER02, to: token, data })
        .then(() => 'passes as a call', whyFailed);
      console.log(`    ${deployerLabel} the token's transferFrom to the pair (${pair}): ${reason}`);
    }
    return false;
  };
  // Tokens that hold their own supply add it to the pool themselves when trading opens.
  if (most === 0n && (await balance(token)) > 0n)
    await attempt(deployer, 'fund the token', token, '0x', POOL_ETH);
  if (!(await addLiquidity())) {
    await open();
    await addLiquidity();
  }
  const pooled = await client.readContract({
    address: UNISWAP_V2_WETH,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [pair],
  });
  if (pooled === 0n) return { token, stage: 'not listed', error: 'no WETH pool could be seeded' };
  await open();
  for (const holder of new Set([launcher, deployer])) {
    const lp = await client.readContract({
      address: pair,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder],
    });
    if (lp > 0n)
      await attempt(
        holder,
        'burn LP',
        pair,
        encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [DEAD, lp] }),
      );
  }
  // Time passes before the crowd arrives: launch-block sniper taxes and cooldowns run out.
  await client.mine({ blocks: 5, interval: 60 });
  let holders = 0;
  const left = await balance(launcher);
  for (let index = 0; index < AIRDROP_HOLDERS && left > 0n; index++) {
    const to = devnetWallet(`holder.${index}`);
    const amount = left / 5n / BigInt(AIRDROP_HOLDERS);
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
    if (await attempt(launcher, 'airdrop', token, data)) holders++;
  }
  let buys = 0;
  let sells = 0;
  const path = [UNISWAP_V2_WETH, token] as const;
  for (const [index, trader] of traders.entries()) {
    const bought = await attempt(
      trader,
      'buy',
      UNISWAP_V2_ROUTER02,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactETHForTokensSupportingFeeOnTransferTokens',
        args: [0n, [...path], trader, maxUint256],
      }),
      TRADES[index % TRADES.length],
    );
    if (!bought) continue;
    buys++;
    await client.mine({ blocks: 2, interval: 30 });
    if (index % 2 === 1) continue;
    const held = await balance(trader);
    await attempt(
      trader,
      'approve',
      token,
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [UNISWAP_V2_ROUTER02, maxUint256] }),
    );
    if (
      await attempt(
        trader,
        'sell',
        UNISWAP_V2_ROUTER02,
        encodeFunctionData({
          abi: routerAbi,
          functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
          args: [held / 2n, 0n, [token, UNISWAP_V2_WETH], trader, maxUint256],
        }),
      )
    )
      sells++;
  }
  return { token, market: { buys, sells, holders, opened } };
}

function stats(verdicts: readonly WildVerdict[], harm: HarmClass) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const verdict of verdicts) {
    const claimed = verdict.actual?.classes[harm] ?? false;
    if (verdict.labels[harm] && claimed) tp++;
    else if (claimed) fp++;
    else if (verdict.labels[harm]) fn++;
  }
  return {
    tp,
    fp,
    fn,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
  };
}

const pct = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)} %`);

function wildMarkdown(verdicts: readonly WildVerdict[]): string {
  const scanned = verdicts.filter((verdict) => verdict.stage === 'scanned');
  const stages = new Map<Stage, number>();
  for (const verdict of verdicts) stages.set(verdict.stage, (stages.get(verdict.stage) ?? 0) + 1);
  const rows = HARM_CLASSES.map((harm) => {
    const row = stats(scanned, harm);
    return `| ${harm} | ${row.tp + row.fn} | ${row.tp} | ${row.fp} | ${row.fn} | ${pct(row.precision)} | ${pct(row.recall)} |`;
  });
  return [
    `${verdicts.length} labelled contracts: ${[...stages].map(([stage, count]) => `${count} ${stage}`).join(', ')}; ` +
      `${scanned.filter((verdict) => verdict.actual).length} scans with a usable result.`,
    '',
    '| class | labelled (scanned) | true positives | false positives | false negatives | precision | recall |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    costLine(scanned.flatMap((verdict) => (verdict.discovery ? [verdict.discovery] : []))),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      label: { type: 'string', default: 'current' },
      only: { type: 'string', default: '' },
      verbose: { type: 'boolean', default: false },
    },
  });
  verbose = values.verbose;
  if (!values.dataset)
    throw new Error('--dataset <copy of CRPWarner/RugPull>/dataset/groundtruth is required');
  const dataset = path.resolve(values.dataset);
  const only = new Set(values.only ? values.only.toLowerCase().split(',') : []);
  const sources = new Map(
    (await readdir(path.join(dataset, 'sol'))).map((file) => [
      file.replace(/\.sol$/, '').toLowerCase(),
      file,
    ]),
  );
  const tokens = (await readLabels(dataset)).filter(
    (token) => only.size === 0 || only.has(token.address.toLowerCase()),
  );
  const anvil = await startAnvil();
  try {
    const client = createDevnetClient(anvil.url);
    const accounts = (await client.request({ method: 'eth_accounts' })).map((account) => getAddress(account));
    const traders = accounts.slice(1, 7);
    await deployUniswapV2(client, { feeToSetter: accounts[0] as Address });
    const routerCode = (await client.getCode({ address: UNISWAP_V2_ROUTER02 })) as Hex;
    await client.setCode({ address: PANCAKE_ROUTER, bytecode: routerCode });
    // Launches run as chain 1: the Uniswap V2 here sits at its mainnet addresses, and some tokens
    // pick their router by block.chainid, refusing a chain they do not know. Scans run as the
    // devnet the scanner is configured for.
    const setChainId = async (id: number) => {
      // Not among viem's test actions: a plain JSON-RPC request.
      const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
      await request({ method: 'anvil_setChainId', params: [id] });
    };
    const devnetChainId = await client.getChainId();
    await setChainId(1);
    const verdicts: WildVerdict[] = [];
    const deployed: { verdict: WildVerdict; token: Address }[] = [];
    for (const token of tokens) {
      const verdict: WildVerdict = { address: token.address, labels: token.labels, stage: 'no source' };
      verdicts.push(verdict);
      const file = sources.get(token.address.toLowerCase());
      if (!file) continue;
      const source = onDevnetVenue(await readFile(path.join(dataset, 'sol', file), 'utf8'));
      const compiled = await compile(source);
      if ('error' in compiled) {
        verdict.stage = compiled.error === 'no ERC-20 contract with code' ? 'not a token' : 'not compiled';
        verdict.detail = compiled.error;
        continue;
      }
      verdict.compiler = compiled.compiler;
      verdict.contract = compiled.contract;
      // A router named in the code (another chain's or DEX's) is a Uniswap V2 router here too.
      for (const router of namedRouters(source)) {
        const code = await client.getCode({ address: router });
        if (code === undefined || code === '0x')
          await client.setCode({ address: router, bytecode: routerCode });
      }
      const launched = await launch(client, compiled, `wild.${token.address.toLowerCase()}`, traders);
      if ('error' in launched) {
        verdict.stage = launched.stage;
        verdict.detail = launched.error;
        continue;
      }
      verdict.market = launched.market;
      verdict.stage = 'scanned';
      deployed.push({ verdict, token: launched.token });
      console.log(
        `  launched ${token.address} (${compiled.contract}, solc ${compiled.compiler}): ${JSON.stringify(launched.market)}`,
      );
    }
    await setChainId(devnetChainId);
    const scan = corpusScanner(anvil.url, []);
    await scanAll(deployed, async ({ verdict, token }) => {
      try {
        const result = await scan(token);
        // What discovery tried and what each class check says, with its evidence's summary: for
        // adjudicating a claim or a miss by hand.
        if (verbose)
          console.log(
            `  scanned ${token}: ${JSON.stringify({
              discovery: result.facts.contract_safety?.discovery,
              checks: result.checks
                .filter((check) =>
                  ['is_mintable', 'owner_change_balance', 'sells_blockable'].includes(check.id),
                )
                .map((check) => ({ id: check.id, status: check.status, detail: check.detail })),
            })}`,
          );
        const { actual, detail } = scanned(result);
        verdict.actual = actual;
        const cost = discoveryCost(result.facts.contract_safety);
        if (cost) verdict.discovery = cost;
        if (detail) verdict.detail = detail;
      } catch (error) {
        verdict.actual = null;
        verdict.detail = String(error).slice(0, 200);
      }
    });
    for (const verdict of verdicts) {
      const labelled = HARM_CLASSES.filter((harm) => verdict.labels[harm]);
      const found = HARM_CLASSES.filter((harm) => verdict.actual?.classes[harm]);
      console.log(
        `  ${verdict.address} ${verdict.stage}${verdict.detail ? ` (${verdict.detail})` : ''}: labelled [${labelled.join(', ')}] found [${found.join(', ')}]` +
          (verdict.actual ? ` tier ${verdict.actual.tier} [${verdict.actual.flags.join(', ')}]` : ''),
      );
    }
    const table = wildMarkdown(verdicts);
    console.log(table);
    // What the scans found and the totals, not the dataset's labels: those stay with the dataset.
    const found = verdicts.map(({ labels: _labels, ...verdict }) => verdict);
    await writeFile(
      path.join(REPO_ROOT, 'bench', 'results', `wild-rugs-${values.label}.json`),
      `${JSON.stringify({ date: new Date().toISOString(), label: values.label, table, verdicts: found }, null, 2)}\n`,
    );
  } finally {
    await anvil.stop();
  }
}

if (import.meta.main) await main();
