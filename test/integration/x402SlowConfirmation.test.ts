import { decodePaymentResponseHeader } from '@x402/core/http';
import { wrapFetchWithPayment } from '@x402/fetch';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createDevnetClient } from '../../infra/devnet/client.ts';
import { paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';

import { testStack, type TestBackend } from '../support/fixtures.ts';
import {
  fundedPayer,
  payerClient,
  startDedicatedChain,
  type PaymentsStack,
  startPaymentsStack,
} from '../support/payments.ts';
import { until } from '../support/until.ts';

const HONEYPOT_PRICE = 10_000n;

// Payments settle on a chain of the test's own whose mining it switches off; the tool still scans
// the shared devnet. A settlement that cannot confirm must answer the data with a pending receipt,
// never a new quote, and settle exactly once when the block finally comes.
describe('a settlement whose transaction is not mined promptly', () => {
  const { scenario } = testStack();
  let chain: Awaited<ReturnType<typeof startDedicatedChain>>;
  let stack: PaymentsStack;
  let backend: TestBackend;
  let payTo = '';
  let api = '';

  beforeAll(async () => {
    chain = await startDedicatedChain();
    stack = await startPaymentsStack({
      rpcUrl: chain.rpcUrl,
      token: chain.token,
      confirmationTimeoutMs: 300,
      env: { X402_SETTLE_WAIT_MS: '1500' },
    });
    ({ backend, payTo, api } = stack);
  });
  afterAll(async () => {
    // Mining back on first, so a settlement still waiting for its block lets the worker stop.
    await chain?.setAutomine(true).catch(() => undefined);
    await stack?.close();
    await chain?.stop();
  });

  it('answers 200 with the data and a pending receipt, then settles once when the block is mined', async () => {
    const payer = await fundedPayer(chain.rpcUrl, chain.token, 100_000n);
    const balances = () =>
      Promise.all([
        paymentTokenBalance(chain.rpcUrl, chain.token.address, payer.account.address),
        paymentTokenBalance(chain.rpcUrl, chain.token.address, payTo),
      ]);
    await chain.setAutomine(false);
    let proof = '';
    const payFetch = wrapFetchWithPayment(
      (input, init) => {
        const sent = input instanceof Request ? input.headers : new Headers(init?.headers);
        proof = sent.get('payment-signature') ?? proof;
        return fetch(input, init);
      },
      payerClient(payer.privateKey, chain.token),
    );
    const response = await payFetch(`${api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.honeypot.address }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      data: { is_honeypot: boolean };
      payment: { payment_id: string; status: string; transaction: string | null; status_url: string };
    };
    expect(answer.data.is_honeypot).toBe(true);
    expect(answer.payment.status).toBe('pending');
    const receipt = decodePaymentResponseHeader(response.headers.get('x-payment-response') ?? '');
    expect(receipt).toMatchObject({ success: false, errorReason: 'settlement_pending' });
    // The transaction was sent and waits in the mempool: nothing has moved yet.
    const hash = answer.payment.transaction as `0x${string}`;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(receipt.transaction).toBe(hash);
    const sent = await createDevnetClient(chain.rpcUrl).getTransaction({ hash });
    expect(sent.blockNumber).toBeNull();
    expect(await balances()).toEqual([100_000n, 0n]);
    const pending = await fetch(`${api}${answer.payment.status_url}`);
    expect(await pending.json()).toMatchObject({ status: 'pending', transaction: hash });

    // The same proof again: the same answer, not a new quote, and no second transaction.
    const again = await fetch(`${api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-payment': proof },
      body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.honeypot.address }),
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-payment-response')).toBe(response.headers.get('x-payment-response'));

    await chain.mine();
    await chain.setAutomine(true);
    const settled = await until(
      async () => {
        const stored = (await (await fetch(`${api}${answer.payment.status_url}`)).json()) as {
          status: string;
          transaction: string;
        };
        return stored.status === 'settled' ? stored : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(settled.transaction).toBe(hash);
    expect(await balances()).toEqual([100_000n - HONEYPOT_PRICE, HONEYPOT_PRICE]);
    // The durable record (MongoDB), not only the hot copy, says so.
    await until(async () => {
      const record = await backend.deps.mongo.db
        .collection('payment_receipts')
        .findOne({ transaction: hash, status: 'settled' });
      return record ?? undefined;
    });
  });
});
