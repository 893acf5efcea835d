import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanJobs } from '../../api/backend/scanJobs.ts';

import { paymentTokenBalance, type PaymentTokenInfo } from '../../infra/devnet/paymentToken.ts';

import { startFaultProxy } from '../support/faultProxy.ts';
import { testStack, type TestBackend } from '../support/fixtures.ts';
import { fundedPayer, payerClient, type PaymentsStack, startPaymentsStack } from '../support/payments.ts';

// The facilitator's /verify answering something other than a 200 verdict: a non-2xx verdict is
// still a refusal (402 with its reason); anything else means it could not be asked (503). Either
// way the tool does not run and nothing moves, and the proof stays good for a later call.
describe('the gateway when the facilitator’s verify answers non-2xx', () => {
  const { rpcUrl, scenario } = testStack();
  let stack: PaymentsStack;
  let token: PaymentTokenInfo;
  let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
  let backend: TestBackend;

  beforeAll(async () => {
    stack = await startPaymentsStack({
      facilitatorUrl: async (url) => {
        proxy = await startFaultProxy(url);
        return proxy.url;
      },
    });
    ({ token, backend } = stack);
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  const call = (proof: string) =>
    backend.app.inject({
      method: 'POST',
      url: '/api/v1/x402-tools/honeypot_check',
      headers: { 'content-type': 'application/json', 'x-payment': proof },
      payload: { chain: 'devnet', address: scenario.tokens.clean.address },
    });

  it('maps a 400 verdict to 402 with its reason, other failures to 503, and runs nothing', async () => {
    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const quote = await backend.app.inject({
      method: 'POST',
      url: '/api/v1/x402-tools/honeypot_check',
      headers: { 'content-type': 'application/json' },
      payload: { chain: 'devnet', address: scenario.tokens.clean.address },
    });
    const required = decodePaymentRequiredHeader(String(quote.headers['payment-required']));
    const proof = encodePaymentSignatureHeader(
      await payerClient(payer.privateKey, token).createPaymentPayload(required),
    );
    const submit = vi.spyOn(ScanJobs.prototype, 'submit');
    try {
      proxy.inject('/verify', {
        status: 400,
        body: JSON.stringify({
          isValid: false,
          invalidReason: 'invalid_payload',
          invalidMessage: 'bad body',
        }),
      });
      const verdict = await call(proof);
      expect(verdict.statusCode).toBe(402);
      expect(verdict.json()).toMatchObject({ code: 'payment_required', error: 'invalid_payload' });
      expect(verdict.headers['payment-required']).toBeTruthy();

      proxy.inject('/verify', {
        status: 500,
        body: '<html>upstream exploded</html>',
        contentType: 'text/html',
      });
      const broken = await call(proof);
      expect(broken.statusCode).toBe(503);
      expect(broken.json()).toMatchObject({ code: 'facilitator_unavailable' });
      expect(broken.headers['retry-after']).toBe('5');
      expect(broken.body).not.toContain('upstream exploded');

      proxy.inject('/verify', { status: 200, body: '{"verdict":' });
      const garbled = await call(proof);
      expect(garbled.statusCode).toBe(503);
      expect(garbled.json()).toMatchObject({ code: 'facilitator_unavailable' });

      proxy.inject('/verify', { status: 502, body: JSON.stringify({ isValid: false }) });
      const reasonless = await call(proof);
      expect(reasonless.statusCode).toBe(402);
      expect(reasonless.json()).toMatchObject({ error: 'unexpected_verify_error' });

      expect(submit).not.toHaveBeenCalled();
    } finally {
      submit.mockRestore();
    }
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(100_000n);

    // The facilitator answers again: the same proof was never used, so it pays now.
    proxy.clear();
    const paid = await call(proof);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ payment: { status: 'settled' } });
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(90_000n);
  });
});
