import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { chainByEvmId } from '../../core/chains/registry.ts';
import type { LabelRow } from './labelRow.ts';

/**
 * Safe's own deployment registry (@safe-global/safe-deployments, MIT, pinned in package.json):
 * every Safe singleton, proxy factory, fallback handler and library, with the address it has on
 * each chain it is deployed to. A Safe contract is among the addresses users meet most, on every
 * chain; these rows label them by contract and version.
 */
export const SAFE_PACKAGE = '@safe-global/safe-deployments';

const Deployment = z.object({
  contractName: z.string(),
  version: z.string(),
  /** A deployment type's address, by type (`canonical`, `eip155`, `zksync`). */
  deployments: z.record(z.string(), z.object({ address: z.string() })).optional(),
  /** Per chain id: an address, a deployment type, or a list of deployment types. */
  networkAddresses: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});

const require = createRequire(import.meta.url);

function assetFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? assetFiles(path.join(dir, entry.name))
      : entry.name.endsWith('.json')
        ? [path.join(dir, entry.name)]
        : [],
  );
}

export function safeDeploymentRows(version: string): LabelRow[] {
  const assets = path.join(
    path.dirname(require.resolve('@safe-global/safe-deployments/package.json')),
    'dist',
    'assets',
  );
  const rows: LabelRow[] = [];
  for (const file of assetFiles(assets)) {
    const deployment = Deployment.parse(JSON.parse(readFileSync(file, 'utf8')));
    const name = `Safe: ${deployment.contractName} ${deployment.version}`;
    for (const [chain, value] of Object.entries(deployment.networkAddresses)) {
      const chainId = Number(chain);
      if (!Number.isSafeInteger(chainId) || chainId <= 0) continue;
      const addresses = (Array.isArray(value) ? value : [value]).map((entry) =>
        entry.startsWith('0x') ? entry : deployment.deployments?.[entry]?.address,
      );
      for (const address of new Set(addresses.map((entry) => entry?.toLowerCase()))) {
        if (!address || !/^0x[0-9a-f]{40}$/.test(address)) continue;
        rows.push({
          address,
          chain: chainByEvmId(chainId)?.id ?? `eip155:${chainId}`,
          chain_id: chainId,
          label: 'safe',
          category: 'smart_wallet',
          name_tag: name,
          source: `safe-deployments@${version}`,
        });
      }
    }
  }
  return rows;
}
