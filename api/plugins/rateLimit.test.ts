import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, startTestBackend, type TestBackend } from '../../test/support/fixtures.ts';
import { awayFromMinuteEdge } from '../../test/support/until.ts';

const FREE_KEY = 'free-key-0123456789abcdef';
const PRO_KEY = 'pro-key-0123456789abcdef';

describe('rate limits by tier', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await startTestBackend(
      isolatedEnv({
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: '3',
        RATE_LIMIT_FREE_PER_MINUTE: '10',
        RATE_LIMIT_FREE_PER_DAY: '4',
        RATE_LIMIT_PRO_PER_MINUTE: '6',
        API_KEYS: `alice:free:${FREE_KEY},bob:pro:${PRO_KEY}`,
      }),
    );
  });
  afterAll(() => backend.close());
  // Each test counts within one minute window: never across a window's end.
  beforeEach(() => awayFromMinuteEdge());

  const get = (headers: Record<string, string> = {}) =>
    backend.app.inject({ method: 'GET', url: '/api', headers });

  it('counts anonymous callers per fingerprint, with X-RateLimit-* headers and a 429 problem with Retry-After', async () => {
    const headers = { 'x-client-id': `client-${Date.now()}` };
    const answers = [await get(headers), await get(headers), await get(headers), await get(headers)];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers.map((answer) => answer.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(answers[0]?.headers['x-ratelimit-limit']).toBe('3');
    const reset = Number(answers[0]?.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    const limited = answers[3];
    expect(limited?.json()).toMatchObject({ code: 'rate_limited', status: 429, tier: 'anonymous' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // Another fingerprint has its own budget; probes are never capped.
    expect((await get({ 'x-client-id': `other-${Date.now()}` })).statusCode).toBe(200);
    for (let index = 0; index < 5; index++)
      expect((await backend.app.inject({ method: 'GET', url: '/live' })).statusCode).toBe(200);
  });

  it('gives API keys their tier: Free hits its daily cap, Pro its minute cap; an unknown key is 401', async () => {
    const free = [];
    for (let index = 0; index < 5; index++) free.push(await get({ 'x-api-key': FREE_KEY }));
    expect(free.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 429]);
    // The day window binds first, so the headers report it.
    expect(free[0]?.headers['x-ratelimit-limit']).toBe('4');
    // It is over at the end of the UTC day (not of the minute, whatever the time of day).
    const untilMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
    expect(Math.abs(Number(free[4]?.headers['retry-after']) - untilMidnight)).toBeLessThanOrEqual(2);
    const pro = [];
    for (let index = 0; index < 7; index++) pro.push(await get({ 'x-api-key': PRO_KEY }));
    expect(pro.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const unknown = await get({ 'x-api-key': 'not-a-key-of-this-deployment' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('unauthorized');
  });

  it('counts a payment proof that was never accepted like any request (only accepted payments are uncapped)', async () => {
    const headers = { 'x-client-id': `payer-${Date.now()}`, 'content-type': 'application/json' };
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      const answer = await backend.app.inject({
        method: 'POST',
        url: '/api/v1/x402-tools/token_risk',
        headers: { ...headers, 'x-payment': 'proof-that-is-never-judged' },
        payload: { chain: 'devnet', address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
      });
      statuses.push(answer.statusCode);
      // The caller learns where it stands all the same.
      expect(answer.headers['x-ratelimit-limit']).toBe('3');
    }
    // This deployment takes no payments (503): three attempts fit the cap, the fourth does not.
    expect(statuses).toEqual([503, 503, 503, 429]);
    // And none of them was a payment, so they used up the caller's requests too.
    expect((await get(headers)).statusCode).toBe(429);
  });
});
