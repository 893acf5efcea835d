import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';

interface Job {
  status: string;
  result: {
    tier: string;
    block_number: string;
    checks: { id: string; status: string; evidence: { block?: string }[] }[];
    engines: Record<string, { status: string }>;
  } | null;
  error: { reason: string } | null;
}

// The production @solana/web3.js code, over HTTP, against the real token programs in LiteSVM
// (infra/devnet/solana): no hand-made RPC answers.
describe('Solana token scans through the API, Temporal and a scanner worker', () => {
  const env = isolatedEnv();
  let workers: RunningWorkers;
  let backend: TestBackend;
  const { solanaMints } = testStack();

  beforeAll(async () => {
    [workers, backend] = await Promise.all([startTestWorkers(env), startTestBackend(env)]);
  });
  afterAll(async () => {
    await backend?.close();
    await workers?.shutdown();
  });

  const scan = async (address: string) => {
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v2/scanner/scans',
      headers: AUTHED,
      payload: { chain: 'solana_devnet', address, wait_ms: 20_000, fresh: true },
    });
    return { status: response.statusCode, job: response.json<Job>() };
  };

  it.each(Object.entries(solanaMints))(
    'gives the %s mint its expected flags and tier',
    async (_key, mint) => {
      const { status, job } = await scan(mint.address);
      expect(status).toBe(200);
      const result = job.result;
      if (!result) throw new Error(`no result: ${JSON.stringify(job.error)}`);
      const failed = result.checks
        .filter((check) => check.status === 'fail')
        .map((check) => check.id)
        .sort();
      expect(failed).toEqual([...mint.expected.flags].sort());
      expect(result.tier).toBe(mint.expected.tier);
      expect(Object.keys(result.engines).sort()).toEqual(['solana_holders', 'solana_mint']);
      for (const check of result.checks.filter((entry) => entry.status !== 'unknown'))
        expect(
          check.evidence.every((evidence) => BigInt(evidence.block ?? '0') >= BigInt(result.block_number)),
        ).toBe(true);
    },
  );

  it('refuses an account that is not a mint (422) and a malformed address (422)', async () => {
    const notMint = await scan('11111111111111111111111111111111');
    expect(notMint.status).toBe(422);
    const malformed = await scan('not-a-base58-key!');
    expect(malformed.status).toBe(422);
  });

  it('answers a token scan on Bitcoin with a 422 problem, never a score', async () => {
    const response = await backend.app.inject({
      method: 'POST',
      url: '/api/v2/scanner/scans',
      headers: AUTHED,
      payload: { chain: 'bitcoin', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ type: string }>().type).toContain('capability_not_supported');
  });
});
