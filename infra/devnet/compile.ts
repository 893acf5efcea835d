import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

interface ContractArtifact {
  abi: Abi;
  /** Creation code (constructor arguments are appended to it). */
  bytecode: Hex;
  /** Runtime code, as it sits on chain (immutables still zeroed). */
  deployedBytecode: Hex;
}

export type Artifacts = Record<string, ContractArtifact>;

export interface OptimizerSettings {
  enabled: boolean;
  runs?: number;
}

export interface CompileContractsParameters {
  /** Folder of .sol files (searched recursively). Defaults to the devnet contracts. */
  sourceDir?: string;
  /** Where compiled outputs are cached. Defaults to `<repo>/.data/cache/solc`. */
  cacheDir?: string;
  optimizer?: OptimizerSettings;
  evmVersion?: string;
  /** Compile through the Yul pipeline (solc's viaIR). */
  viaIR?: boolean;
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);

const DEVNET_CONTRACTS_DIR = fileURLToPath(new URL('./contracts/', import.meta.url));
const DEFAULT_SOLC_CACHE_DIR = join(repoRoot, '.data', 'cache', 'solc');
// OpenZeppelin 5.x emits mcopy, which only exists from Cancun on.
export const DEFAULT_EVM_VERSION = 'cancun';
// Test tokens compile unoptimized: a cold compile is several times faster and their gas
// costs do not matter.
const DEFAULT_OPTIMIZER: OptimizerSettings = { enabled: false };

interface SolcInput {
  language: 'Solidity';
  sources: Record<string, { content: string }>;
  settings: {
    evmVersion: string;
    viaIR?: boolean;
    optimizer: { enabled: boolean; runs: number };
    outputSelection: Record<string, Record<string, string[]>>;
  };
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

interface SolcCompiler {
  version(): string;
  compile(
    input: string,
    callbacks: { import: (path: string) => { contents: string } | { error: string } },
  ): string;
}

/** What a cache file holds: the artifacts, and the imported files they were built from. */
interface CacheEntry {
  imports: Record<string, string>;
  artifacts: Artifacts;
}

/**
 * Compiles every .sol file under `sourceDir` with solc-js (no network, no native solc) and
 * returns the deployable contracts by name. Outputs are cached, keyed by the compiler version,
 * the sources and the settings; a hit also re-checks the imported library files, so upgrading
 * a package such as OpenZeppelin invalidates the entry.
 */
export async function compileContracts(parameters: CompileContractsParameters = {}): Promise<Artifacts> {
  const sourceDir = parameters.sourceDir ?? DEVNET_CONTRACTS_DIR;
  const cacheDir = parameters.cacheDir ?? DEFAULT_SOLC_CACHE_DIR;
  const optimizer = parameters.optimizer ?? DEFAULT_OPTIMIZER;
  const input: SolcInput = {
    language: 'Solidity',
    sources: await readSources(sourceDir),
    settings: {
      evmVersion: parameters.evmVersion ?? DEFAULT_EVM_VERSION,
      ...(parameters.viaIR ? { viaIR: true } : {}),
      optimizer: { enabled: optimizer.enabled, runs: optimizer.runs ?? 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  if (Object.keys(input.sources).length === 0) throw new Error(`no .sol files under ${sourceDir}`);

  const key = sha256(JSON.stringify({ solc: solcPackageVersion(), input }));
  const cacheFile = join(cacheDir, `${key}.json`);
  const cached = await readCache(cacheFile);
  if (cached) return cached;

  const { artifacts, imports } = await runSolc(input);
  await writeAtomically(cacheFile, JSON.stringify({ imports, artifacts } satisfies CacheEntry));
  return artifacts;
}

async function runSolc(input: SolcInput): Promise<CacheEntry> {
  const solc = await loadSolc();
  const imports: Record<string, string> = {};
  const findImport = (path: string): { contents: string } | { error: string } => {
    try {
      // Library imports ("@openzeppelin/contracts/...") resolve through node_modules.
      const contents = readFileSync(require.resolve(path), 'utf8');
      imports[path] = sha256(contents);
      return { contents };
    } catch {
      return { error: `cannot resolve import "${path}" from node_modules` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`);
  }

  const artifacts: Artifacts = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    if (!(file in input.sources)) continue;
    for (const [name, contract] of Object.entries(contracts)) {
      // Interfaces and abstract contracts have no code to deploy.
      if (contract.evm.bytecode.object === '') continue;
      if (artifacts[name]) throw new Error(`two contracts are named ${name}; names must be unique`);
      artifacts[name] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      };
    }
  }
  return { artifacts, imports };
}

async function readSources(dir: string): Promise<Record<string, { content: string }>> {
  const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.sol')).sort();
  const sources: Record<string, { content: string }> = {};
  for (const file of files) {
    // Source keys are relative and use "/", so relative imports between them resolve and the
    // metadata hash embedded in the bytecode does not depend on where the repository lives.
    const key = relative(dir, join(dir, file)).split(sep).join('/');
    sources[key] = { content: await readFile(join(dir, file), 'utf8') };
  }
  return sources;
}

async function readCache(file: string): Promise<Artifacts | undefined> {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(await readFile(file, 'utf8')) as CacheEntry;
  } catch {
    return undefined;
  }
  for (const [path, hash] of Object.entries(entry.imports)) {
    try {
      if (sha256(readFileSync(require.resolve(path), 'utf8')) !== hash) return undefined;
    } catch {
      return undefined;
    }
  }
  return entry.artifacts;
}

async function writeAtomically(file: string, contents: string): Promise<void> {
  // Parallel test workers may compile at once; a rename never leaves a half-written file.
  await mkdir(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

let solcPromise: Promise<SolcCompiler> | undefined;

function loadSolc(): Promise<SolcCompiler> {
  // Loading the wasm compiler costs about half a second, so only a cache miss pays for it.
  solcPromise ??= import('solc').then((module) => module.default as SolcCompiler);
  return solcPromise;
}

/** The solc-js package version (the compiler version without its build suffix); does not load solc. */
export function solcPackageVersion(): string {
  return (require('solc/package.json') as { version: string }).version;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
