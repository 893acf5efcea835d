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
// the shared devnet. A settlement that cannot confirm answers 202 with a pending receipt and
// without the data (never a new quote), settles exactly once when the block finally comes, and
// the same proof then gets the data.
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

  it('answers 202 without the data while the transaction waits, then the data once it is mined, settled once', async () => {
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
    const call = () =>
      fetch(`${api}/api/v1/x402-tools/honeypot_check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-payment': proof },
        body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.honeypot.address }),
      });
    const response = await payFetch(`${api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.honeypot.address }),
    });
    // Not settled, so no data: the payer could still void the authorization before it is mined.
    expect(response.status).toBe(202);
    const answer = (await response.json()) as {
      data: unknown;
      payment: { payment_id: string; status: string; transaction: string | null; status_url: string };
    };
    expect(answer.data).toBeNull();
    expect(JSON.stringify(answer)).not.toContain('is_honeypot');
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

    // The same proof again: still 202 and no data, not a new quote, and no second transaction.
    const again = await call();
    expect(again.status).toBe(202);
    expect(((await again.json()) as { data: unknown }).data).toBeNull();

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
    // Settled: the same proof now gets the data, with the settled receipt.
    const delivered = await call();
    expect(delivered.status).toBe(200);
    const body = (await delivered.json()) as { data: { is_honeypot: boolean }; payment: { status: string } };
    expect(body.data.is_honeypot).toBe(true);
    expect(body.payment.status).toBe('settled');
    expect(decodePaymentResponseHeader(delivered.headers.get('x-payment-response') ?? '')).toMatchObject({
      success: true,
      transaction: hash,
    });
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
