import { randomBytes } from 'node:crypto';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentReceipt } from '../../core/stores/receipts.ts';
import { mintPaymentToken, paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';
import { testStack } from '../support/fixtures.ts';
import {
  fundedPayer,
  payerClient,
  paymentRequiredFor,
  type PaymentsStack,
  startPaymentsStack,
} from '../support/payments.ts';

// The refund workflow signs with the payee's key, and the settlement workflow
// writes the receipts refunds are decided by. Whoever can start a workflow on the payments queue
// must not be able to make that key pay anyone anything but a refund of a stored, settled,
// refundable purchase, to its payer, once.
describe('the payment workflows (attacks)', () => {
  const { scenario } = testStack();
  const payeeKey = generatePrivateKey();
  let stack: PaymentsStack;

  beforeAll(async () => {
    stack = await startPaymentsStack({ payeeKey, workerEnv: { X402_PAYEE_PRIVATE_KEY: payeeKey } });
    // The payee holds money a refund could send.
    await mintPaymentToken(testStack().rpcUrl, stack.token, [{ to: stack.payTo, amount: 20_000_000n }]);
  });
  afterAll(() => stack?.close());

  it('pays nothing for a forged receipt, a purchase that answered data, or a refund nobody requested', async () => {
    const { rpcUrl } = testStack();
    const { client } = stack.backend.deps.temporal;
    const taskQueue = stack.backend.deps.x402.paymentsTaskQueue;
    const attacker = privateKeyToAccount(generatePrivateKey()).address;
    // A real paid call that answered data: its payer could be sent money it is not owed.
    const payer = await fundedPayer(rpcUrl, stack.token, 100_000n);
    const paid = await wrapFetchWithPayment(fetch, payerClient(payer.privateKey, stack.token))(
      `${stack.api}/api/v1/x402-tools/honeypot_check`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.clean.address }),
      },
    );
    expect(paid.status).toBe(200);
    const { payment } = (await paid.json()) as { payment: { payment_id: string; transaction: string } };
    const real = await stack.backend.deps.x402.receipts.byPaymentId(payment.payment_id);
    if (!real) throw new Error('the paid call left no receipt');
    const forged: PaymentReceipt = {
      ...real,
      payment_id: `pay_${randomBytes(16).toString('hex')}`,
      payer: attacker,
      amount: '1000000',
      empty_result: true,
      refund: null,
    };
    const before = await Promise.all([
      paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo),
      paymentTokenBalance(rpcUrl, stack.token.address, payer.account.address),
    ]);
    const attempts = [
      // The forged receipt, carried by the workflow's input as the old refund workflow took it.
      { paymentId: forged.payment_id, receipt: forged, requestedAt: new Date().toISOString() },
      // The real purchase, which answered data: not refundable, and no refund was requested.
      {
        paymentId: real.payment_id,
        receipt: { ...real, empty_result: true },
        requestedAt: new Date().toISOString(),
      },
    ];
    const outcomes = [];
    for (const input of attempts) {
      const run = await client.workflow.start('refundPayment', {
        taskQueue,
        workflowId: `attack-refund-${randomBytes(6).toString('hex')}`,
        args: [input],
      });
      outcomes.push(
        await run.result().then(
          () => 'paid out',
          () => 'refused',
        ),
      );
    }
    // The money first: a workflow can fail after it paid out.
    expect(await paymentTokenBalance(rpcUrl, stack.token.address, attacker)).toBe(0n);
    expect(
      await Promise.all([
        paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo),
        paymentTokenBalance(rpcUrl, stack.token.address, payer.account.address),
      ]),
    ).toEqual(before);
    expect(outcomes).toEqual(['refused', 'refused']);
  });

  it('a settlement workflow started with a forged receipt records nothing a refund could pay out from', async () => {
    const { rpcUrl } = testStack();
    const { client } = stack.backend.deps.temporal;
    const taskQueue = stack.backend.deps.x402.paymentsTaskQueue;
    // The attacker pays $0.01 of its own, and claims in the receipt it paid $5 for nothing.
    const attacker = await fundedPayer(rpcUrl, stack.token, 10_000n);
    const quote = await fetch(`${stack.api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.clean.address }),
    });
    const requirements = decodePaymentRequiredHeader(quote.headers.get('payment-required') ?? '')
      .accepts[0] as PaymentRequirements;
    const paymentPayload = await payerClient(attacker.privateKey, stack.token).createPaymentPayload(
      paymentRequiredFor(requirements),
    );
    // The payload's own payment id (loaded here: code without it takes any id).
    const paymentId = await import('../../core/x402/digest.ts').then(
      ({ paymentDigest, paymentIdOf }) => paymentIdOf(paymentDigest(paymentPayload, requirements)),
      () => `pay_${randomBytes(16).toString('hex')}`,
    );
    const receipt: PaymentReceipt = {
      payment_id: paymentId,
      status: 'pending',
      transaction: null,
      network: requirements.network,
      asset: requirements.asset,
      amount: '5000000',
      amount_usd: 5,
      payer: attacker.account.address,
      pay_to: requirements.payTo,
      tool: 'honeypot_check',
      request_id: 'forged',
      api_key_id: null,
      created_at: new Date().toISOString(),
      settled_at: null,
      error_reason: null,
      empty_result: true,
      invoice_id: null,
      refund: null,
    };
    const payeeBefore = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    const run = await client.workflow.start('settlePayment', {
      taskQueue,
      workflowId: `attack-settle-${randomBytes(6).toString('hex')}`,
      args: [{ paymentId, paymentPayload, requirements, receipt }],
    });
    await run.result().catch(() => undefined);
    // Whatever the workflow recorded, ask for a refund of the transaction that paid the $0.01.
    const logs = await stack.backend.deps.mongo.db
      .collection('payment_receipts')
      .find({ payer: attacker.account.address })
      .toArray();
    for (const stored of logs) {
      if (typeof stored.transaction !== 'string') continue;
      const refund = await fetch(`${stack.api}/api/v1/x402/refund/${stored.transaction}`, { method: 'POST' });
      await refund.body?.cancel();
    }
    // The attacker never ends up with more than it had; the payee never with less than it was paid.
    expect(
      await paymentTokenBalance(rpcUrl, stack.token.address, attacker.account.address),
    ).toBeLessThanOrEqual(10_000n);
    expect(await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo)).toBeGreaterThanOrEqual(
      payeeBefore,
    );
    expect(logs.filter((stored) => stored.amount === '5000000')).toEqual([]);
  });
});
