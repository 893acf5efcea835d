import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  testStack,
  type TestBackend,
  withoutWorkers,
} from '../support/fixtures.ts';
import { deployCleanTokens } from '../../infra/devnet/bulkTokens.ts';
import { listenOnLoopback } from '../support/listen.ts';

// The v2 scanner serves what the paid tools sell: anonymous callers are trial-gated there (the
// API specification: anonymous, 10/min, trial-gated); API keys are not. No worker polls these
// queues, so accepted scans stay queued (202) and cost no chain reads; the token is this file's
// own, so no other test joins those queued jobs (a job's workflow id is its token's). A refused
// target gives its trial back: that needs a worker to read the chain (test/integration/scanRefusals.test.ts).

let backend: TestBackend;
let url: string;
let token = '';
beforeAll(async () => {
  [token = ''] = await deployCleanTokens(testStack().rpcUrl, { count: 1 });
  backend = await startTestBackend(withoutWorkers(isolatedEnv()));
  url = await listenOnLoopback(backend.app);
});
afterAll(() => backend.close());

const scan = (headers: Record<string, string>, address: string = token) =>
  fetch(`${url}/api/v2/scanner/scans`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ chain: 'devnet', address, fresh: true }),
  });

describe('the v2 scanner for anonymous callers', () => {
  it('takes a token_risk trial per scan and answers 402 trial_unavailable once they are spent', async () => {
    const headers = { 'x-client-id': `scanner-anon-${Date.now()}` };
    const answers = [];
    for (let index = 0; index < 4; index++) answers.push(await scan(headers));
    const bodies = await Promise.all(answers.map((answer) => answer.clone().text()));
    expect(
      answers.map((answer) => answer.status),
      bodies.join('\n'),
    ).toEqual([202, 202, 202, 402]);
    expect(answers[2]?.headers.get('x-trial-remaining')).toBe('0');
    const problem = (await answers[3]?.json()) as Record<string, string>;
    expect(problem).toMatchObject({ code: 'trial_unavailable', reason: 'exhausted' });
    expect(problem.pay_at).toMatch(/\/api\/v1\/x402-tools\/token_risk$/);
    expect(Date.parse(problem.trial_resets_at ?? '')).toBeGreaterThan(Date.now());
  });

  it('answers 402 to an anonymous caller without X-Client-ID, and never gates an API key', async () => {
    const bare = await scan({});
    expect(bare.status).toBe(402);
    expect(await bare.json()).toMatchObject({ code: 'trial_unavailable', reason: 'no_client_id' });
    for (let index = 0; index < 5; index++) {
      const answer = await scan(AUTHED);
      expect(answer.status, await answer.text()).toBe(202);
    }
  });

  it('gates the deployer record the same way, with deployer_reputation’s allotment', async () => {
    const read = (headers: Record<string, string>) =>
      fetch(`${url}/api/v2/scanner/deployers/devnet/${testStack().scenario.deployers.clean}`, { headers });
    const headers = { 'x-client-id': `deployer-anon-${Date.now()}` };
    const answers = [];
    for (let index = 0; index < 4; index++) answers.push((await read(headers)).status);
    expect(answers).toEqual([200, 200, 200, 402]);
    expect((await read(AUTHED)).status).toBe(200);
  });
});
