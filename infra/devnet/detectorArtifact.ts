import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Abi, type Hex, keccak256 } from 'viem';
import {
  DEFAULT_EVM_VERSION,
  type OptimizerSettings,
  compileContracts,
  solcPackageVersion,
} from './compile.ts';

/**
 * The scanner's honeypot detector runs in production from a committed artifact, so no compiler
 * is needed at run time. This module rebuilds that artifact; a test keeps it equal to the source.
 */
export const HONEYPOT_DETECTOR_SOURCE_DIR = fileURLToPath(
  new URL('../../scanner/evm/contracts/', import.meta.url),
);
export const HONEYPOT_DETECTOR_ARTIFACT_FILE = fileURLToPath(
  new URL('../../scanner/evm/contracts/HoneypotDetector.json', import.meta.url),
);
// Optimized, unlike the devnet tokens: this code travels with every simulation call.
const DETECTOR_OPTIMIZER: Required<OptimizerSettings> = { enabled: true, runs: 200 };

export interface HoneypotDetectorArtifact {
  contractName: 'HoneypotDetector';
  compiler: { solc: string; evmVersion: string; optimizer: Required<OptimizerSettings> };
  abi: Abi;
  deployedBytecode: Hex;
  /** keccak256 of ProbeHolder's creation code: where the detector creates the probe's holder follows from it. */
  probeHolderCodeHash: Hex;
}

export async function buildHoneypotDetectorArtifact(cacheDir?: string): Promise<HoneypotDetectorArtifact> {
  const artifacts = await compileContracts({
    sourceDir: HONEYPOT_DETECTOR_SOURCE_DIR,
    optimizer: DETECTOR_OPTIMIZER,
    evmVersion: DEFAULT_EVM_VERSION,
    ...(cacheDir === undefined ? {} : { cacheDir }),
  });
  const detector = artifacts.HoneypotDetector;
  const holder = artifacts.ProbeHolder;
  if (detector === undefined || holder === undefined)
    throw new Error('HoneypotDetector.sol did not produce HoneypotDetector and ProbeHolder');
  return {
    contractName: 'HoneypotDetector',
    compiler: { solc: solcPackageVersion(), evmVersion: DEFAULT_EVM_VERSION, optimizer: DETECTOR_OPTIMIZER },
    abi: detector.abi,
    deployedBytecode: detector.deployedBytecode,
    probeHolderCodeHash: keccak256(holder.bytecode),
  };
}

export function formatHoneypotDetectorArtifact(artifact: HoneypotDetectorArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

export async function readCommittedHoneypotDetectorArtifact(): Promise<string> {
  return readFile(HONEYPOT_DETECTOR_ARTIFACT_FILE, 'utf8');
}

// node infra/devnet/detectorArtifact.ts  (after editing HoneypotDetector.sol)
if (import.meta.main) {
  await writeFile(
    HONEYPOT_DETECTOR_ARTIFACT_FILE,
    formatHoneypotDetectorArtifact(await buildHoneypotDetectorArtifact()),
  );
  console.log(`wrote ${HONEYPOT_DETECTOR_ARTIFACT_FILE}`);
}
