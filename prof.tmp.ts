import { createScannerActivities } from './activities/scanner/index.ts';
import { ChainClients } from './core/chains/chainClients.ts';
import { readScanConfig } from './core/scan/scanConfig.ts';
import type { ScanStore } from './core/stores/scans.ts';
import { startAnvil } from './infra/devnet/anvil.ts';
import { deployScenario } from './infra/devnet/scenario.ts';
import { deployCleanTokens } from './infra/devnet/bulkTokens.ts';
const a = await startAnvil();
await deployScenario(a.url);
const tokens = await deployCleanTokens(a.url, { count: 220, accountIndex: 5, withLiquidity: true, renounce: true });
const acts = createScannerActivities({ chains: new ChainClients({ rpcUrls: new Map([['devnet', [a.url]]]) }), scans: {} as ScanStore, config: readScanConfig({}) });
const names = ['scanContractSafety','scanHoneypot','scanLiquidity','scanHolders','scanDeployer','scanTrading'] as const;
const sums: Record<string, number[]> = {};
for (const token of tokens.slice(20, 60)) {
  let t = performance.now();
  const { target } = await acts.prepareScan({ chain: 'devnet', address: token });
  (sums.prepare ??= []).push(performance.now() - t);
  t = performance.now();
  await Promise.all(names.map(async (n) => { const s = performance.now(); await acts[n](target); (sums[n] ??= []).push(performance.now() - s); }));
  (sums.parallel ??= []).push(performance.now() - t);
}
for (const [k, v] of Object.entries(sums)) { v.sort((x,y)=>x-y); console.log(k, v[Math.floor(v.length/2)]?.toFixed(1), v[v.length-1]?.toFixed(1)); }
await a.stop();
