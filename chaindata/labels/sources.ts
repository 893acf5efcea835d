import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { chainByEvmId } from '../../core/chains/registry.ts';
import { categoryOf, readSnapshot } from './snapshot.ts';

/**
 * Where Vigil's labels come from: registry packages pinned in package.json, so `npm install`
 * (infra/provision.sh) brings them, and the eth-labels snapshot committed beside this file
 * (snapshot.ts). Nothing is fetched at run time. Each licence is kept beside this file.
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

const Entry = z.object({ address: z.string(), nameTag: z.string().nullable().optional() });

export interface LabelRow {
  address: string;
  chain: string;
  chain_id: number;
  label: string;
  category: string;
  name_tag: string | null;
  source: string;
}

const require = createRequire(import.meta.url);

/** The installed version of a source's package. */
export function sourceVersion(packageName: string): string {
  const manifest = require(`${packageName}/package.json`) as { version: string };
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
  // The snapshot comes second: a label the pinned package already gives is not counted twice.
  const snapshot = readSnapshot();
  const tag = `eth-labels@${snapshot.commit.slice(0, 12)}`;
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
  return [...rows.values()];
}

/** A name for the labels file that changes whenever a source version does. */
export function labelsFileName(): string {
  const packages = LABEL_SOURCES.map((source) => `${source.id}-${sourceVersion(source.package)}`);
  return `labels-${[...packages, `eth-labels-${readSnapshot().commit.slice(0, 12)}`].join('_')}.parquet`;
}
