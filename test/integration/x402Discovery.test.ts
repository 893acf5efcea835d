import { wrapFetchWithPayment } from '@x402/fetch';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogStats, isPaid, TOOLS } from '../../core/catalog/index.ts';

import type { PaymentTokenInfo } from '../../infra/devnet/paymentToken.ts';

import { startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { fundedPayer, payerClient, type PaymentsStack, startPaymentsStack } from '../support/payments.ts';
import { until } from '../support/until.ts';

const API_KEY = 'discovery-key-0123456789';

describe('x402 discovery, pricing, facilitator health, docs, usage and history', () => {
  const { rpcUrl, scenario } = testStack();
  let stack: PaymentsStack;
  let token: PaymentTokenInfo;
  let backend: TestBackend;

  beforeAll(async () => {
    stack = await startPaymentsStack({
      env: { API_KEYS: `analyst:pro:${API_KEY}`, VIGIL_OPERATOR: 'Vigil Test Operator' },
    });
    ({ token, backend } = stack);
  });
  afterAll(() => stack?.close());

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await backend.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };

  it('serves the discovery document with counts computed from the catalog and seven honestly rated facilitators', async () => {
    const { status, body } = await get('/.well-known/x402');
    expect(status).toBe(200);
    const stats = catalogStats();
    expect(body).toMatchObject({
      x402_version: '2.0',
      service: 'Vigil',
      operator: 'Vigil Test Operator',
      discovery_url: 'http://127.0.0.1:3006/.well-known/x402',
      mcp_url: 'http://127.0.0.1:3006/mcp/x402',
      docs_url: 'http://vigil.test/x402/docs',
      status: 'active',
      pricing: {
        total_tools: stats.total_tools,
        paid_tools: stats.paid_tools,
        price_range_usd: stats.price_range_usd,
        free_trials: true,
      },
    });
    expect(body.pricing.total_tools).toBe(TOOLS.length);
    expect(body.facilitators).toHaveLength(7);
    const rated = Object.fromEntries(
      body.facilitator_status.map((entry: { name: string; status: string }) => [entry.name, entry.status]),
    );
    expect(rated).toEqual(
      Object.fromEntries(
        body.facilitators.map((name: string) => [name, name === 'vigil' ? 'live' : 'not_configured']),
      ),
    );
    expect(body.resources).toEqual(
      TOOLS.filter(isPaid).map((tool) => `http://vigil.test/api/v1/x402-tools/${tool.name}`),
    );
  });

  it('prices every tool from the catalog in the facilitator’s token, and lists the payment chains', async () => {
    const pricing = await get('/api/v1/x402/pricing');
    expect(pricing.body.payment).toEqual({
      network: 'eip155:31337',
      asset: token.address,
      symbol: 'USDC',
      decimals: 6,
    });
    expect(
      pricing.body.tools.map((tool: { name: string; price_usd: number }) => [tool.name, tool.price_usd]),
    ).toEqual(TOOLS.map((tool) => [tool.name, tool.priceUsd]));
    expect(pricing.body.tiers.premium).toEqual({ min: 0.05, max: 0.15 });
    expect(pricing.body.trial_window_seconds).toBe(86_400);

    const chains = await get('/api/v1/x402/chains');
    expect(chains.body).toMatchObject({ count: 1, facilitator_reachable: true });
    expect(chains.body.chains[0]).toMatchObject({ network: 'eip155:31337', chain: 'devnet', status: 'live' });
    expect(chains.body.chains[0].assets[0]).toMatchObject({ address: token.address, name: 'USD Coin' });

    for (const url of ['/api/v1/x402-tools/discovery', '/api/v1/x402-databus/catalog']) {
      const catalog = await get(url);
      expect(catalog.body.tools.map((tool: { name: string }) => tool.name)).toEqual(
        TOOLS.map((tool) => tool.name),
      );
      const risk = catalog.body.tools.find((tool: { name: string }) => tool.name === 'token_risk');
      expect(risk.input_schema.required).toEqual(['chain', 'address']);
    }
    expect((await get('/api/v1/x402-databus/catalog')).body).toMatchObject(catalogStats());
  });

  it('reports each facilitator’s health: vigil probed, the others not configured, unknown names 404', async () => {
    const vigil = await get('/api/v1/x402/facilitator-health/status/vigil');
    expect(vigil.body).toMatchObject({
      name: 'vigil',
      status: 'live',
      health: { status: 'ok', signer: { funded: true } },
    });
    expect((await get('/api/v1/x402/facilitator-health/status/sepa')).body).toMatchObject({
      status: 'not_configured',
    });
    const unknown = await get('/api/v1/x402/facilitator-health/status/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.facilitators).toHaveLength(7);
    // A facilitator that does not answer is unreachable, and the document says so rather than live.
    const orphan = await startTestBackend({ ...backend.env, FACILITATOR_URL: 'http://127.0.0.1:9' });
    try {
      const response = await orphan.app.inject({ method: 'GET', url: '/.well-known/x402' });
      const rated = response
        .json()
        .facilitator_status.find((entry: { name: string }) => entry.name === 'vigil');
      expect(rated.status).toBe('unreachable');
    } finally {
      await orphan.close();
    }
  });

  it('serves the payment guide with the live price list, and documents every x402 route in OpenAPI', async () => {
    const docs = await backend.app.inject({ method: 'GET', url: '/x402/docs' });
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
    for (const tool of TOOLS) expect(docs.body).toContain(`/api/v1/x402-tools/${tool.name}`);
    const openapi = (await get('/openapi.json')).body;
    for (const path of [
      '/api/v1/x402/invoice',
      '/api/v1/x402/invoice/{invoice_id}',
      '/api/v1/x402/pay/{invoice_id}',
      '/api/v1/x402/refund/{tx_hash}',
      '/x402/sandbox/create-invoice',
      '/x402/sandbox/verify',
      '/api/v1/x402/receipts/{tx_hash}',
      '/api/v1/x402/usage',
      '/api/v1/x402/history',
      '/.well-known/x402',
    ])
      expect(Object.keys(openapi.paths), path).toContain(path);
    expect(Object.keys(openapi.components.schemas)).toEqual(
      expect.arrayContaining([
        'Invoice',
        'PaymentReceipt',
        'CreateInvoice',
        'SandboxVerdict',
        'RefundAnswer',
      ]),
    );
  });

  it('answers usage and history for the calling API key, and 401 without one', async () => {
    expect((await get('/api/v1/x402/history')).status).toBe(401);
    const before = await get('/api/v1/x402/usage', { 'x-api-key': API_KEY });
    expect(before.body).toMatchObject({ api_key: 'analyst', tier: 'pro', paid_calls: 0 });

    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const payFetch = wrapFetchWithPayment(fetch, payerClient(payer.privateKey, token));
    const paid = await payFetch(`${stack.api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.clean.address }),
    });
    expect(paid.status).toBe(200);
    const { payment } = (await paid.json()) as { payment: { payment_id: string; transaction: string } };
    // The history is read from the durable record, which the settlement workflow writes.
    const history = await until(async () => {
      const answer = await get('/api/v1/x402/history', { 'x-api-key': API_KEY });
      return answer.body.count > 0 ? answer : undefined;
    });
    expect(history.body.payments).toEqual([
      expect.objectContaining({
        payment_id: payment.payment_id,
        transaction: payment.transaction,
        api_key_id: 'analyst',
        tool: 'honeypot_check',
        status: 'settled',
      }),
    ]);
    const usage = await get('/api/v1/x402/usage', { 'x-api-key': API_KEY });
    expect(usage.body).toMatchObject({
      paid_calls: 1,
      tools: { honeypot_check: { calls: 1, spent_usd: 0.01 } },
    });
  });
});
