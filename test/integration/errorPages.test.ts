import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VigilApp } from '../../api/plugins/service.ts';
import { ErrorCodes } from '../../core/errors/codes.ts';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { setupPaymentToken, startTestFacilitator, type TestFacilitator } from '../support/payments.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';

/** Every service answers problems whose `type` URL resolves on that same service. */
describe('problem type pages on every service', () => {
  let backend: TestBackend;
  let scraper: TestScraper;
  let facilitator: TestFacilitator;

  beforeAll(async () => {
    const token = await setupPaymentToken(testStack().rpcUrl);
    [backend, scraper, facilitator] = await Promise.all([
      startTestBackend(isolatedEnv()),
      startTestScraper(isolatedEnv(scraperTestEnv())),
      startTestFacilitator(isolatedEnv(), testStack().rpcUrl, token, {
        listen: false,
        payees: [privateKeyToAccount(generatePrivateKey()).address],
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([backend?.close(), scraper?.close(), facilitator?.close()]);
  });

  const services = (): [string, VigilApp][] => [
    ['backend', backend.app],
    ['scraper', scraper.app],
    ['facilitator', facilitator.app],
  ];

  it('resolves the type URL of a problem it answers, and documents the page in its OpenAPI', async () => {
    for (const [name, app] of services()) {
      const missing = await app.inject({ method: 'GET', url: '/no/such/route' });
      expect(missing.statusCode, name).toBe(404);
      const problem = missing.json<{ type: string; code: string }>();
      expect(problem.code, name).toBe('not_found');
      const page = await app.inject({ method: 'GET', url: new URL(problem.type).pathname });
      expect(page.statusCode, name).toBe(200);
      expect(page.json(), name).toMatchObject({ code: 'not_found', status: 404 });
      const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: object }>();
      expect(Object.keys(openapi.paths), name).toContain('/errors/{code}');
    }
  });

  it('serves every code of the registry, and 404 for a code that is not one', async () => {
    for (const [name, app] of services()) {
      for (const [code, entry] of Object.entries(ErrorCodes)) {
        const page = await app.inject({ method: 'GET', url: `/errors/${code}` });
        expect(page.json(), `${name} ${code}`).toMatchObject({ code, status: entry.status });
      }
      expect((await app.inject({ method: 'GET', url: '/errors/made_up' })).statusCode, name).toBe(404);
    }
  });
});
