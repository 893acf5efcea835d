import { decodePaymentRequiredHeader } from '@x402/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';
import { cancelOnChain, proofHeader, randomNonce, signAuthorization } from '../support/attacks.ts';
import { testStack } from '../support/fixtures.ts';
import {
  fundedPayer,
  type PaymentsStack,
  startDedicatedChain,
  startPaymentsStack,
} from '../support/payments.ts';
import { until } from '../support/until.ts';

const PRICE = 10_000n; // honeypot_check

// A settlement that has not confirmed can still be voided by its payer
// (cancelAuthorization outbidding it in the same block). Data released before settlement is
// data given away. The payments settle on a chain of the test's own whose mining it controls.
describe('pending settlements (attacks)', () => {
  const { scenario } = testStack();
  let chain: Awaited<ReturnType<typeof startDedicatedChain>>;
  let stack: PaymentsStack;

  beforeAll(async () => {
    chain = await startDedicatedChain();
    stack = await startPaymentsStack({
      rpcUrl: chain.rpcUrl,
      token: chain.token,
      confirmationTimeoutMs: 300,
      env: { X402_SETTLE_WAIT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await chain?.setAutomine(true).catch(() => undefined);
    await stack?.close();
    await chain?.stop();
  });

  it('releases no data while the payment is pending, so a payer who voids it gets nothing', async () => {
    const payer = await fundedPayer(chain.rpcUrl, chain.token, 100_000n);
    const call = (headers: Record<string, string> = {}) =>
      fetch(`${stack.api}/api/v1/x402-tools/honeypot_check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.honeypot.address }),
      });
    const requirements = decodePaymentRequiredHeader((await call()).headers.get('payment-required') ?? '')
      .accepts[0];
    if (!requirements) throw new Error('no quote');
    const nonce = randomNonce();
    const proof = proofHeader(
      await signAuthorization(payer.privateKey, chain.token, requirements, {
        to: stack.payTo,
        value: PRICE,
        nonce,
      }),
    );
    await chain.setAutomine(false);
    const answers: { status: number; data: unknown }[] = [];
    const record = async (response: Response) => {
      const body = (await response.json()) as { data?: unknown };
      answers.push({ status: response.status, data: body.data ?? null });
      return response.status;
    };
    expect(await record(await call({ 'x-payment': proof }))).not.toBe(200);
    // The payer voids the authorization, outbidding the settlement waiting for the next block.
    const cancel = await cancelOnChain(chain.rpcUrl, chain.token, payer.privateKey, nonce, 100n);
    await chain.mine();
    await chain.setAutomine(true);
    const cancelled = await createDevnetClient(chain.rpcUrl).getTransactionReceipt({ hash: cancel });
    expect(cancelled.status).toBe('success');
    // The payer keeps asking with the same proof until its payment has an outcome.
    await until(
      async () => {
        const status = await record(await call({ 'x-payment': proof }));
        return status === 202 || status === 409 ? undefined : status;
      },
      { timeoutMs: 45_000, intervalMs: 250 },
    );
    const served = answers.filter((answer) => answer.status === 200 && answer.data !== null);
    const paid = await paymentTokenBalance(chain.rpcUrl, chain.token.address, stack.payTo);
    // Whatever was answered with data was paid for in full; here nothing was, so nothing was served.
    expect(paid).toBe(PRICE * BigInt(served.length));
    expect(served).toEqual([]);
    expect(answers.at(-1)?.status).toBe(402);
  });
});
