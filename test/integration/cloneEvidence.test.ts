import { afterAll, describe, expect, it } from 'vitest';
import { ChainClients } from '../../clients/chains/chainClients.ts';
import { closeStores, createStores } from '../../clients/stores.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import { TokenScanner } from '../../scanner/scanner.ts';
import { devnetRpcUrls, isolatedEnv, testScanConfig, testStack } from '../support/fixtures.ts';

// Clone evidence with the stores a worker has: a scan found harmful lists its code hash; a later
// token with the same normalised code is flagged with that scan as evidence, unless its own
// probes show none of the twin's powers usable.

const env = isolatedEnv();
const stores = createStores(
  {
    MONGODB_URI: env.MONGODB_URI as string,
    MONGODB_DB: env.MONGODB_DB as string,
    REDIS_URL: env.REDIS_URL as string,
    REDIS_KEY_PREFIX: env.REDIS_KEY_PREFIX as string,
    REDIS_TLS_CA_PATH: undefined,
    SCAN_CACHE_TTL_SECONDS: 60,
    SCAN_JOB_CACHE_TTL_SECONDS: 60,
  },
  { failFast: true },
);
afterAll(() => closeStores(stores));

const scanner = new TokenScanner({
  chains: new ChainClients({ rpcUrls: devnetRpcUrls() }),
  scans: stores.scans,
  fingerprints: stores.fingerprints,
  config: testScanConfig(),
});

async function scan(key: keyof ReturnType<typeof testStack>['scenario']['tokens']): Promise<ScanResult> {
  const token = testStack().scenario.tokens[key];
  const { target, engines } = await scanner.prepare({ chain: 'devnet', address: token.address });
  const reports = await Promise.all(engines.map((engine) => scanner.runEngine(engine, target)));
  return scanner.finalize({ jobId: `clone:${key}:${Date.now()}`, target, reports, failures: [] });
}
const clone = (result: ScanResult) => result.checks.find((check) => check.id === 'clone_of_harmful');

describe('clone evidence (clone_of_harmful)', () => {
  it('passes while no twin was found harmful, then names the harmful twin once one is', async () => {
    // `trap` and `blacklist` are the same contract; `trap` is scanned first, with nothing known yet.
    expect(clone(await scan('trap'))?.status).toBe('pass');
    const blacklist = await scan('blacklist');
    const flagged = clone(blacklist);
    expect(flagged?.status).toBe('fail');
    expect(flagged?.severity).toBe('high');
    const twin = flagged?.evidence.find((evidence) => evidence.kind === 'note');
    expect(String(twin?.data?.address).toLowerCase()).toBe(
      testStack().scenario.tokens.trap.address.toLowerCase(),
    );
    expect(String(twin?.data?.gates)).toContain('sells_blockable');
  });

  it('weighs nothing where the token’s own probes clear it (a renounced copy of a live mint)', async () => {
    await scan('mintable');
    const renounced = clone(await scan('renounced_mintable'));
    expect(renounced?.status).toBe('fail');
    expect(renounced?.severity).toBe('info');
    expect(renounced?.downgraded?.from).toBe('high');
  });

  it('passes for code no harmful scan has', async () => {
    expect(clone(await scan('clean'))?.status).toBe('pass');
  });
});
