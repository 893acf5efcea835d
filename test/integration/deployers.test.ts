import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/stack/processes.ts';
import {
  AUTHED,
  devnetRpcUrls,
  isolatedEnv,
  startTestBackend,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';

interface Reputation {
  score: number;
  rugs: number;
  honeypots: number;
  funded_by: string | null;
  age_seconds: number | null;
  tokens: { address: string; rugged: boolean; rug?: { tx: string } }[];
  checks: { id: string; status: string }[];
  explanation: string[];
}

describe('GET /api/v2/scanner/deployers/{chain}/{address}', () => {
  const env = isolatedEnv();
  let backend: TestBackend;
  const { scenario } = testStack();
  beforeAll(async () => {
    backend = await startTestBackend(env);
  });
  afterAll(() => backend?.close());

  const read = async (address: string, chain = 'devnet', app = backend.app) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/v2/scanner/deployers/${chain}/${address}`,
      headers: AUTHED,
    });
    return { status: response.statusCode, body: response.json<Reputation>(), headers: response.headers };
  };
  const status = (reputation: Reputation, id: string) =>
    reputation.checks.find((check) => check.id === id)?.status;

  it('scores a serial rugger low, with the withdrawal as evidence', async () => {
    const { status: code, body } = await read(scenario.deployers.rugger_next ?? '');
    expect(code).toBe(200);
    expect(body.rugs).toBe(1);
    expect(body.score).toBeLessThanOrEqual(50);
    const rugged = body.tokens.find((token) => token.rugged);
    expect(rugged?.address).toBe(scenario.tokens.rug_pulled.address);
    expect(rugged?.rug?.tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(status(body, 'deployer_rug_history')).toBe('fail');
  });

  it('gives a clean, established deployer 100 and names who funded it', async () => {
    const { body } = await read(scenario.deployers.clean ?? '');
    expect(body.score).toBe(100);
    expect(body.funded_by).toBe(scenario.deployer);
    expect(body.age_seconds).toBeGreaterThan(7 * 86_400);
    expect(body.checks.map((check) => check.status)).toEqual(['pass', 'pass', 'pass']);
  });

  it('marks a wallet funded just before its launch as fresh, and a honeypot maker as such', async () => {
    const fresh = await read(scenario.deployers.fresh_deployer ?? '');
    expect(status(fresh.body, 'fresh_deployer')).toBe('fail');
    expect(fresh.body.score).toBe(90);
    const honey = await read(scenario.deployers.honeypot ?? '');
    expect(honey.body.honeypots).toBe(1);
    expect(honey.body.score).toBe(60);
  });

  it('answers a chain it does not apply to, and a malformed address, with a 422 problem', async () => {
    expect((await read('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bitcoin')).status).toBe(422);
    expect((await read('11111111111111111111111111111111', 'solana_devnet')).status).toBe(422);
    expect((await read('0x1234', 'devnet')).status).toBe(422);
  });

  it('reads through a dead provider and names it in X-Degraded-Stores', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const degraded = await startTestBackend(isolatedEnv(), {
      rpcUrls: devnetRpcUrls([dead, testStack().rpcUrl]),
    });
    try {
      const answer = await read(scenario.deployers.clean ?? '', 'devnet', degraded.app);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-degraded-stores']).toBe('rpc:devnet:0');
    } finally {
      await degraded.close();
    }
  });

  describe('as the catalog tool deployer_reputation (POST /api/v1/x402-tools/deployer_reputation)', () => {
    const call = (address: string, client: string, chain = 'devnet') =>
      backend.app.inject({
        method: 'POST',
        url: '/api/v1/x402-tools/deployer_reputation',
        headers: { 'content-type': 'application/json', 'x-client-id': client },
        payload: { chain, address },
      });

    it('answers the same record as the route, spending one trial call', async () => {
      const client = `deployer-tool-${Date.now()}`;
      const viaRoute = await read(scenario.deployers.rugger_next ?? '');
      const response = await call(scenario.deployers.rugger_next ?? '', client);
      expect(response.statusCode).toBe(200);
      const limit = Number(response.headers['x-trial-limit']);
      expect(limit).toBeGreaterThanOrEqual(1);
      expect(response.headers['x-trial-remaining']).toBe(String(limit - 1));
      const { tool, data } = response.json<{ tool: string; data: Reputation }>();
      expect(tool).toBe('deployer_reputation');
      expect(data.score).toBe(viaRoute.body.score);
      expect(data.rugs).toBe(1);
      expect(status(data, 'deployer_rug_history')).toBe('fail');
    });

    it('answers a wallet with no history as an empty result that costs no trial call', async () => {
      const client = `deployer-tool-empty-${Date.now()}`;
      const nobody = `0x${'5e'.repeat(20)}`;
      const response = await call(nobody, client);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ data: null, reason: 'no_data', sources_tried: ['chain RPC'] });
      expect(response.headers['x-trial-remaining']).toBe(response.headers['x-trial-limit']);
    });

    it('refuses chains it does not apply to with a 422 naming the field', async () => {
      for (const chain of ['solana', 'bitcoin', 'tron']) {
        const response = await call('11111111111111111111111111111111', `deployer-tool-bad-${chain}`, chain);
        expect(response.statusCode, chain).toBe(422);
        const problem = response.json<{ errors: { loc: string[] }[] }>();
        expect(problem.errors.map((error) => error.loc.join('.'))).toContain('body.chain');
      }
    });
  });
});
