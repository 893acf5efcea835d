import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire, findPackageJSON } from 'node:module';
import { z } from 'zod';
import { chainByEvmId } from '../../core/chains/registry.ts';
import type { LabelRow } from './labelRow.ts';
import { AAVE_PACKAGE, aaveAddressBookRows } from './aaveAddressBook.ts';
import { SAFE_PACKAGE, safeDeploymentRows } from './safeDeployments.ts';
import { categoryOf, readSnapshot, SNAPSHOT_IDS, snapshotCommit } from './snapshot.ts';

/**
 * Where Vigil's labels come from: registry packages pinned in package.json, so `npm install`
 * (infra/provision.sh) brings them (evm-labels here, Safe's deployments in safeDeployments.ts),
 * and the snapshots committed beside this file (snapshot.ts: eth-labels, and the label sets and
 * token lists of labelSets.ts). Nothing is fetched at run time. Each licence is kept beside this file.
 * `category` normalises the source's own label for stats and evidence.
 */
export const LABEL_SOURCES = [
  {
    id: 'evm-labels',
    package: 'evm-labels',
    license: 'MIT',
    licenseFile: 'chaindata/labels/LICENSE.evm-labels',
    origin: 'Etherscan label cloud, collected by the eth-labels project (github.com/dawsbot/eth-labels)',
    chain: 'ethereum',
    chainId: 1,
    files: [
      { path: 'lib/esm/mainnet/exchange/all.json', label: 'exchange', category: 'exchange' },
      { path: 'lib/esm/mainnet/phish-hack/all.json', label: 'phish-hack', category: 'phish_hack' },
      { path: 'lib/esm/mainnet/genesis/all.json', label: 'genesis', category: 'burn' },
      { path: 'lib/esm/mainnet/token-contract/all.json', label: 'token-contract', category: 'token' },
    ],
  },
] as const;

/**
 * Registry packages with a reader of their own (their data is not a list of labelled addresses):
 * Safe's deployments (safeDeployments.ts) and Aave's address book (aaveAddressBook.ts).
 */
export const PACKAGE_SETS = [
  { id: 'safe-deployments', package: SAFE_PACKAGE, license: 'MIT', rows: safeDeploymentRows },
  { id: 'aave-address-book', package: AAVE_PACKAGE, license: 'MIT', rows: aaveAddressBookRows },
] as const;

const Entry = z.object({ address: z.string(), nameTag: z.string().nullable().optional() });

const require = createRequire(import.meta.url);

/** The installed version of a source's package. */
export function sourceVersion(packageName: string): string {
  // Found from the package's entry point: not every package exports its package.json.
  const manifestPath = findPackageJSON(packageName, import.meta.url);
  if (!manifestPath) throw new Error(`${packageName} is not installed`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  return manifest.version;
}

/** Every label of every source, validated: lowercase 0x addresses, one row per (address, chain, label). */
export function loadLabelRows(): LabelRow[] {
  const rows = new Map<string, LabelRow>();
  for (const source of LABEL_SOURCES) {
    const tag = `${source.id}@${sourceVersion(source.package)}`;
    for (const file of source.files) {
      const entries = z
        .array(Entry)
        .parse(JSON.parse(readFileSync(require.resolve(`${source.package}/${file.path}`), 'utf8')));
      for (const entry of entries) {
        const address = entry.address.trim().toLowerCase();
        if (!/^0x[0-9a-f]{40}$/.test(address)) continue;
        const row: LabelRow = {
          address,
          chain: source.chain,
          chain_id: source.chainId,
          label: file.label,
          category: file.category,
          name_tag: entry.nameTag?.trim() ? entry.nameTag.trim() : null,
          source: tag,
        };
        rows.set(`${address}|${source.chainId}|${file.label}`, row);
      }
    }
  }
  for (const set of PACKAGE_SETS)
    for (const row of set.rows(sourceVersion(set.package))) {
      const key = `${row.address}|${row.chain_id}|${row.label}`;
      if (!rows.has(key)) rows.set(key, row);
    }
  // The snapshots come second: a label the pinned package already gives is not counted twice.
  for (const id of SNAPSHOT_IDS) {
    const snapshot = readSnapshot(id);
    const tag = `${id}@${snapshot.commit.slice(0, 12)}`;
    for (const [address, chainId, label, name, kind] of snapshot.rows) {
      const key = `${address}|${chainId}|${label}`;
      if (rows.has(key)) continue;
      rows.set(key, {
        address,
        chain: chainByEvmId(chainId)?.id ?? `eip155:${chainId}`,
        chain_id: chainId,
        label,
        category: categoryOf(label, kind),
        name_tag: name,
        source: tag,
      });
    }
  }
  return [...rows.values()];
}

/** A name for the labels file that changes whenever a source version does. */
let labelsFile: string | undefined;

export function labelsFileName(): string {
  if (labelsFile) return labelsFile;
  const packages = [
    ...LABEL_SOURCES.map((source) => `${source.id}-${sourceVersion(source.package)}`),
    ...PACKAGE_SETS.map((set) => `${set.id}-${sourceVersion(set.package)}`),
  ];
  const snapshots = SNAPSHOT_IDS.map((id) => `${id}-${snapshotCommit(id)}`);
  const digest = createHash('sha256')
    .update([...packages, ...snapshots].join('\n'))
    .digest('hex');
  labelsFile = `labels-${digest.slice(0, 16)}.parquet`;
  return labelsFile;
}
