import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/stack/processes.ts';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { awayFromMinuteEdge } from '../support/until.ts';

// Anonymous use is metered by network fingerprint (the client's address, IPv6 by its /64, with
// X-Client-ID), with a daily cap per fingerprint and per network, over real HTTP. Each test runs
// its own backend with small caps and its own key prefix.

/** A backend over real HTTP with these settings; closed after the test. */
async function serve(extra: Record<string, string>): Promise<{ backend: TestBackend; url: string }> {
  const backend = await startTestBackend(isolatedEnv(extra));
  return { backend, url: await listenOnLoopback(backend.app) };
}

const statuses = async (requests: (() => Promise<Response>)[]) => {
  const out: number[] = [];
  for (const request of requests) out.push((await request()).status);
  return out;
};

describe('a daily cap per network fingerprint', () => {
  let served: { backend: TestBackend; url: string };
  beforeAll(async () => {
    served = await serve({
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000',
      RATE_LIMIT_ANONYMOUS_PER_DAY: '3',
      RATE_LIMIT_CLIENTS_PER_NETWORK: '2',
    });
  });
  afterAll(() => served.backend.close());

  const get = (clientId: string) => () =>
    fetch(`${served.url}/api`, { headers: { 'x-client-id': clientId } });

  it('caps one fingerprint by the day, and rotating X-Client-ID only reaches the network’s cap', async () => {
    const suffix = Date.now();
    expect(await statuses([1, 2, 3, 4].map(() => get(`steady-${suffix}`)))).toEqual([200, 200, 200, 429]);
    // The network has spent 4 of its 6 (3 a day × 2 clients): two new ids get in, the third not.
    const rotating = await statuses(['a', 'b', 'c', 'd'].map((id) => get(`rotating-${id}-${suffix}`)));
    expect(rotating).toEqual([200, 200, 429, 429]);
    const refused = await get(`rotating-e-${suffix}`)();
    expect(refused.status).toBe(429);
    // A day window: retry when the (UTC) day turns, not in a minute (the two coincide only in
    // the day's last minute, so the day's end is what is compared).
    const dayMs = 86_400_000;
    const untilTomorrow = Math.ceil((Math.floor(Date.now() / dayMs + 1) * dayMs - Date.now()) / 1000);
    expect(Math.abs(Number(refused.headers.get('retry-after')) - untilTomorrow)).toBeLessThanOrEqual(2);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', tier: 'anonymous' });
  });
});

describe('free trials per network', () => {
  let served: { backend: TestBackend; url: string };
  beforeAll(async () => {
    served = await serve({ RATE_LIMIT_CLIENTS_PER_NETWORK: '2' });
  });
  afterAll(() => served.backend.close());

  it('mints no new trials by rotating X-Client-ID past the network’s share', async () => {
    // deployer_reputation: 3 free calls per client, 5 per proven wallet; one network may take
    // 5 × 2 in a window, however many client ids it sends.
    const deployer = testStack().scenario.deployers.clean ?? '';
    const call = (clientId: string) => () =>
      fetch(`${served.url}/api/v1/x402-tools/deployer_reputation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client-id': clientId },
        body: JSON.stringify({ chain: 'devnet', address: deployer }),
      });
    const suffix = Date.now();
    const answers = await statuses(
      Array.from({ length: 5 }, (_, client) => [0, 1, 2].map(() => call(`trial-${client}-${suffix}`))).flat(),
    );
    expect(
      answers.filter((status) => status === 200),
      String(answers),
    ).toHaveLength(10);
    // The rest must pay; this deployment takes no payments, so it says that instead of quoting.
    expect(answers.slice(10), String(answers)).toEqual([503, 503, 503, 503, 503]);
    const fresh = await call(`trial-fresh-${suffix}`)();
    expect(fresh.status).toBe(503);
    expect(await fresh.json()).toMatchObject({ code: 'payments_not_configured' });
  });
});

describe('the client address behind a load balancer (TRUST_PROXY)', () => {
  const caps = {
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000',
    RATE_LIMIT_ANONYMOUS_PER_DAY: '2',
    RATE_LIMIT_CLIENTS_PER_NETWORK: '1',
  };
  const from = (url: string, forwardedFor: string) => () =>
    fetch(`${url}/api`, { headers: { 'x-forwarded-for': forwardedFor } });

  it('believes no forwarded header by default: a caller cannot pose as other clients', async () => {
    const served = await serve(caps);
    try {
      const answers = await statuses(
        ['203.0.113.1', '203.0.113.2', '203.0.113.3'].map((ip) => from(served.url, ip)),
      );
      expect(answers).toEqual([200, 200, 429]);
    } finally {
      await served.backend.close();
    }
  });

  it('with the balancer trusted, counts each client address, IPv6 by its /64, and ignores hops a client forges', async () => {
    const served = await serve({ ...caps, TRUST_PROXY: '127.0.0.1' });
    try {
      expect(await statuses([from(served.url, '203.0.113.1'), from(served.url, '203.0.113.1')])).toEqual([
        200, 200,
      ]);
      // Another client behind the same balancer has its own budget.
      expect(await statuses([from(served.url, '203.0.113.2')])).toEqual([200]);
      // A client that puts a hop of its own in front is still the address the balancer saw.
      expect(await statuses([from(served.url, '198.51.100.9, 203.0.113.1')])).toEqual([429]);
      // One subscriber's /64 is one network, whichever of its addresses it uses.
      const v6 = ['2001:db8:1:2::1', '2001:db8:1:2::ffff', '2001:db8:1:2:abcd::9'].map((ip) =>
        from(served.url, ip),
      );
      expect(await statuses(v6)).toEqual([200, 200, 429]);
      expect(await statuses([from(served.url, '2001:db8:1:3::1')])).toEqual([200]);
    } finally {
      await served.backend.close();
    }
  });
});

describe('payment headers and failure modes', () => {
  it('counts an empty X-PAYMENT like any request (it is no payment)', async () => {
    await awayFromMinuteEdge(); // the limit counts in fixed wall-clock minutes
    const served = await serve({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2' });
    try {
      const call = (payment: string) => () =>
        fetch(`${served.url}/api/v1/x402-tools/risk_model`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-payment': payment, 'payment-signature': payment },
          body: '{}',
        });
      expect(await statuses([call(''), call('   '), call('')])).toEqual([200, 200, 429]);
    } finally {
      await served.backend.close();
    }
  });

  it('fails closed when Redis cannot count: 503, never an uncounted or free answer', async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const closed = await serve({ REDIS_URL: nowhere });
    const open = await serve({ REDIS_URL: nowhere, RATE_LIMIT_FAIL_OPEN: '1' });
    try {
      const api = await fetch(`${closed.url}/api`);
      expect(api.status).toBe(503);
      expect(await api.json()).toMatchObject({ code: 'rate_limit_unavailable' });
      // Even where an operator chose to let requests through uncounted, a trial is never given
      // away without being counted.
      expect((await fetch(`${open.url}/api`)).status).toBe(200);
      const trial = await fetch(`${open.url}/api/v1/x402-tools/deployer_reputation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client-id': 'no-redis-client' },
        body: JSON.stringify({ chain: 'devnet', address: testStack().scenario.deployers.clean }),
      });
      expect(trial.status).toBe(503);
      expect(await trial.json()).toMatchObject({ code: 'store_unavailable' });
    } finally {
      await Promise.all([closed.backend.close(), open.backend.close()]);
    }
  });
});
