import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORKS_PER_SITE } from '../../api/plugins/caller.ts';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';

// A /64 is what one device or home is given; one subscriber commonly holds a /56 or a /48 (a free
// tunnel broker hands out /48s: 65,536 /64s). Rotating /64s inside one site must not multiply the
// anonymous caps and trials by as many.
describe('IPv6 clients rotating /64s inside one /48', () => {
  let backend: TestBackend;
  let url = '';
  beforeAll(async () => {
    backend = await startTestBackend(
      isolatedEnv({
        TRUST_PROXY: '127.0.0.1',
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000',
        RATE_LIMIT_ANONYMOUS_PER_DAY: '1',
        RATE_LIMIT_CLIENTS_PER_NETWORK: '1',
      }),
    );
    url = await listenOnLoopback(backend.app);
  });
  afterAll(() => backend?.close());

  it('caps a site’s anonymous requests at its share, however many /64s it rotates through', async () => {
    const get = (address: string) => () => fetch(`${url}/api`, { headers: { 'x-forwarded-for': address } });
    const answers = await statuses(
      Array.from({ length: NETWORKS_PER_SITE + 3 }, (_, n) => get(inSite(0xa, n))),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(NETWORKS_PER_SITE);
    expect(answers.slice(NETWORKS_PER_SITE)).toEqual([429, 429, 429]);
    // Another site is another subscriber.
    expect(await statuses([get(inSite(0xb, 0))])).toEqual([200]);
  });
});

describe('IPv6 trials rotating /64s inside one /48', () => {
  let backend: TestBackend;
  let url = '';
  beforeAll(async () => {
    backend = await startTestBackend(
      isolatedEnv({
        TRUST_PROXY: '127.0.0.1',
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000',
        RATE_LIMIT_ANONYMOUS_PER_DAY: '1000',
        RATE_LIMIT_CLIENTS_PER_NETWORK: '1',
      }),
    );
    url = await listenOnLoopback(backend.app);
  });
  afterAll(() => backend?.close());

  it('mints no trials past a site’s share', async () => {
    // deployer_reputation: 3 free calls per client id, 5 per wallet, so 5 per network here and
    // NETWORKS_PER_SITE times that per /48.
    const siteShare = 5 * NETWORKS_PER_SITE;
    const deployer = testStack().scenario.deployers.clean ?? '';
    const suffix = Date.now();
    const calls = Array.from({ length: Math.ceil(siteShare / 3) + 2 }, (_, n) =>
      [0, 1, 2].map(
        () => () =>
          fetch(`${url}/api/v1/x402-tools/deployer_reputation`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-client-id': `site-trial-${n}-${suffix}`,
              'x-forwarded-for': inSite(0xc, n),
            },
            body: JSON.stringify({ chain: 'devnet', address: deployer }),
          }),
      ),
    ).flat();
    const answers = await statuses(calls);
    expect(answers.filter((status) => status === 200)).toHaveLength(siteShare);
  });
});

describe('invoice creation from IPv6 clients', () => {
  let backend: TestBackend;
  let url = '';
  beforeAll(async () => {
    backend = await startTestBackend(isolatedEnv({ TRUST_PROXY: '127.0.0.1', X402_INVOICES_PER_HOUR: '2' }));
    url = await listenOnLoopback(backend.app);
  });
  afterAll(() => backend?.close());

  it('bounds one /64 however it rotates its addresses and client ids', async () => {
    const suffix = Date.now();
    const answers = await statuses(
      Array.from(
        { length: 4 },
        (_, n) => () =>
          fetch(`${url}/api/v1/x402/invoice`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-client-id': `invoice-rotation-${n}-${suffix}`,
              'x-forwarded-for': `2001:db8:d:1::${(n + 1).toString(16)}`,
            },
            body: JSON.stringify({ amount_usd: 0.01 }),
          }),
      ),
    );
    // Within the bound the request goes on (here to a deployment that takes no payments: 503).
    expect(answers.map((status) => status === 429)).toEqual([false, false, true, true]);
  });
});

/** A client address in the n-th /64 of one /48 (or of another /48). */
function inSite(site: number, n: number): string {
  return `2001:db8:${site.toString(16)}:${n.toString(16)}::1`;
}

async function statuses(requests: (() => Promise<Response>)[]): Promise<number[]> {
  const out: number[] = [];
  for (const request of requests) out.push((await request()).status);
  return out;
}
