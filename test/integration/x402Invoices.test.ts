import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  deployUnlistedToken,
  paymentTokenBalance,
  type PaymentTokenInfo,
} from '../../infra/devnet/paymentToken.ts';

import { startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { fundedPayer, payerClient, type PaymentsStack, startPaymentsStack } from '../support/payments.ts';
import { until } from '../support/until.ts';

const json = (response: Response): Promise<any> => response.json() as Promise<any>;
const HONEYPOT_PRICE = 10_000n;

describe('invoices, refunds of charged empty results, and the sandbox', () => {
  const { rpcUrl, scenario } = testStack();
  const payeeKey = generatePrivateKey();
  let stack: PaymentsStack;
  let token: PaymentTokenInfo;
  let payTo = '';
  let unlisted = '';
  let backend: TestBackend;
  /** The same deployment with a one-second refund window and invoice lifetime. */
  let hurried: TestBackend;
  let api = '';
  let hurriedApi = '';

  beforeAll(async () => {
    [stack, unlisted] = await Promise.all([
      startPaymentsStack({ payeeKey, workerEnv: { X402_PAYEE_PRIVATE_KEY: payeeKey } }),
      deployUnlistedToken(rpcUrl),
    ]);
    ({ token, backend, payTo, api } = stack);
    hurried = await startTestBackend({
      ...backend.env,
      X402_REFUND_WINDOW_SECONDS: '1',
      X402_INVOICE_TTL_SECONDS: '1',
    });
    hurriedApi = await hurried.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await hurried?.close();
    await stack?.close();
  });

  const post = (base: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const createInvoice = async (body: unknown, base = api) => {
    const response = await post(base, '/api/v1/x402/invoice', body);
    expect(response.status).toBe(201);
    return json(response);
  };
  const balanceOf = (address: string) => paymentTokenBalance(rpcUrl, token.address, address);
  /** Pays with the unmodified official client, as any x402 wallet would. */
  const pay = (payerKey: `0x${string}`, invoiceId: string) =>
    wrapFetchWithPayment(fetch, payerClient(payerKey, token))(`${api}/api/v1/x402/pay/${invoiceId}`, {
      method: 'POST',
    });
  const proofFor = async (payerKey: `0x${string}`, invoiceId: string) => {
    const quote = await post(api, `/api/v1/x402/pay/${invoiceId}`);
    const required: PaymentRequired = decodePaymentRequiredHeader(
      quote.headers.get('payment-required') ?? '',
    );
    return encodePaymentSignatureHeader(await payerClient(payerKey, token).createPaymentPayload(required));
  };

  it('creates invoices for a tool call or an amount, and names what is wrong with a bad one', async () => {
    const invoice = await createInvoice({
      tool: 'honeypot_check',
      input: { chain: 'devnet', address: scenario.tokens.clean.address },
    });
    expect(invoice).toMatchObject({
      state: 'open',
      sandbox: false,
      tool: 'honeypot_check',
      amount_usd: 0.01,
      amount: '10000',
      network: 'eip155:31337',
      asset: token.address,
      pay_to: payTo,
      pay_url: `/api/v1/x402/pay/${invoice.invoice_id}`,
      result: null,
    });
    expect(invoice.accepts).toEqual([
      expect.objectContaining({
        scheme: 'exact',
        amount: '10000',
        payTo,
        extra: { name: 'USD Coin', version: '2' },
      }),
    ]);
    expect(Date.parse(invoice.expires_at) - Date.parse(invoice.created_at)).toBe(1_800_000);
    expect(await json(await fetch(`${api}/api/v1/x402/invoice/${invoice.invoice_id}`))).toEqual(invoice);

    const refusals: [unknown, number, string][] = [
      [{ tool: 'no_such_tool', input: {} }, 404, 'unknown_tool'],
      [{ tool: 'risk_model', input: {} }, 422, 'body.tool'],
      [{ tool: 'honeypot_check', input: { chain: 'devnet' } }, 422, 'body.input.address'],
      [{ tool: 'honeypot_check', amount_usd: 1, input: {} }, 422, 'body.tool'],
      [{ amount_usd: 0.0000001, description: 'dust' }, 422, 'body.amount_usd'],
      [{ amount_usd: 1_000_000, description: 'too much' }, 422, 'body.amount_usd'],
      // Found by schemathesis: an amount past what atomic units can hold answered 500.
      [
        { input: {}, description: 'Token contract address', amount_usd: 9.921777415144407e307 },
        422,
        'body.amount_usd',
      ],
    ];
    for (const [body, status, expected] of refusals) {
      const response = await post(api, '/api/v1/x402/invoice', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      const problem = await json(response);
      if (status === 404) expect(problem.code).toBe(expected);
      else expect(problem.errors.map((error: { loc: string[] }) => error.loc.join('.'))).toContain(expected);
    }
    expect((await fetch(`${api}/api/v1/x402/invoice/inv_000000000000000000000000`)).status).toBe(404);
  });

  it('is paid once by the official client: settles, runs the tool, and answers every replay the same', async () => {
    const invoice = await createInvoice({
      tool: 'honeypot_check',
      input: { chain: 'devnet', address: scenario.tokens.honeypot.address },
    });
    const unpaid = await post(api, `/api/v1/x402/pay/${invoice.invoice_id}`);
    expect(unpaid.status).toBe(402);
    const quote = decodePaymentRequiredHeader(unpaid.headers.get('payment-required') ?? '');
    expect(quote.resource.url).toBe(`http://vigil.test/api/v1/x402/pay/${invoice.invoice_id}`);
    expect(quote.accepts).toEqual(invoice.accepts);

    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const before = await balanceOf(payTo);
    const proof = await proofFor(payer.privateKey, invoice.invoice_id);
    const paid = await post(api, `/api/v1/x402/pay/${invoice.invoice_id}`, undefined, { 'x-payment': proof });
    expect(paid.status).toBe(200);
    const answer = await json(paid);
    expect(answer.data.is_honeypot).toBe(true);
    expect(answer.invoice).toMatchObject({ state: 'settled', payer: payer.account.address });
    const receipt = decodePaymentResponseHeader(paid.headers.get('x-payment-response') ?? '');
    expect(receipt).toMatchObject({ success: true, payer: payer.account.address });
    expect(answer.invoice.transaction).toBe(receipt.transaction);
    expect(await balanceOf(payTo)).toBe(before + HONEYPOT_PRICE);
    expect(await balanceOf(payer.account.address)).toBe(100_000n - HONEYPOT_PRICE);

    const again = await post(api, `/api/v1/x402/pay/${invoice.invoice_id}`, undefined, {
      'payment-signature': proof,
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-payment-response')).toBe(paid.headers.get('x-payment-response'));
    const other = await fundedPayer(rpcUrl, token, 100_000n);
    const otherProof = encodePaymentSignatureHeader(
      await payerClient(other.privateKey, token).createPaymentPayload({ ...quote, accepts: invoice.accepts }),
    );
    const second = await post(api, `/api/v1/x402/pay/${invoice.invoice_id}`, undefined, {
      'x-payment': otherProof,
    });
    expect(second.status).toBe(409);
    expect(await json(second)).toMatchObject({ code: 'invoice_not_payable', state: 'settled' });
    expect(await balanceOf(other.account.address)).toBe(100_000n);

    const stored = await json(await fetch(`${api}/api/v1/x402/invoice/${invoice.invoice_id}`));
    expect(stored).toMatchObject({ state: 'settled', transaction: receipt.transaction });
    expect(stored.result.data.is_honeypot).toBe(true);
    // The durable records: the receipt names the invoice, and it is not refundable (it had data).
    await until(
      async () =>
        (await backend.deps.mongo.db.collection('payment_receipts').findOne({
          transaction: receipt.transaction,
          status: 'settled',
          invoice_id: invoice.invoice_id,
        })) ?? undefined,
    );
    const refused = await post(api, `/api/v1/x402/refund/${receipt.transaction}`);
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ code: 'refund_not_allowed', reason: 'not_an_empty_result' });
  });

  it('makes the report an invoice pays for the payer’s: its links answer the payer, not a stranger', async () => {
    const invoice = await createInvoice({
      tool: 'generate_report',
      input: { chain: 'devnet', address: scenario.tokens.thin_pool.address },
    });
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const proof = await proofFor(payer.privateKey, invoice.invoice_id);
    const asPayer = { 'x-client-id': 'invoice-payer-report' };
    const paid = await post(api, `/api/v1/x402/pay/${invoice.invoice_id}`, undefined, {
      'x-payment': proof,
      ...asPayer,
    });
    expect(paid.status).toBe(200);
    const jobId = String((await json(paid)).data.job_id);
    const report = `${api}/api/v1/reports/${encodeURIComponent(jobId)}`;
    expect((await fetch(report, { headers: asPayer })).status).toBe(200);
    const stranger = await fetch(report, { headers: { 'x-client-id': 'someone-else-entirely' } });
    expect(stranger.status).toBe(403);
    expect(await json(stranger)).toMatchObject({ code: 'job_not_owned' });
    // The payer holds it alone: its cancel is the last holder's, and stops the report.
    const cancelled = await fetch(report, { method: 'DELETE', headers: asPayer });
    expect(cancelled.status).toBe(202);
    expect(await json(cancelled)).toMatchObject({ job_id: jobId, outcome: 'cancel' });
  });

  it('lets one of two proofs paying the same invoice at once through, charging once', async () => {
    const invoice = await createInvoice({ amount_usd: 0.25, description: 'Two payers race' });
    const payers = await Promise.all([
      fundedPayer(rpcUrl, token, 250_000n),
      fundedPayer(rpcUrl, token, 250_000n),
    ]);
    const proofs = await Promise.all(payers.map((payer) => proofFor(payer.privateKey, invoice.invoice_id)));
    const before = await balanceOf(payTo);
    const answers = await Promise.all(
      proofs.map((proof) =>
        post(api, `/api/v1/x402/pay/${invoice.invoice_id}`, undefined, { 'x-payment': proof }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const won = await json(answers.find((answer) => answer.status === 200) as Response);
    expect(won).toMatchObject({ tool: null, data: null, invoice: { state: 'settled', amount: '250000' } });
    expect(await balanceOf(payTo)).toBe(before + 250_000n);
  });

  it('refunds a charged empty result once, by transaction hash, and not after the window', async () => {
    const invoice = await createInvoice({
      tool: 'honeypot_check',
      input: { chain: 'devnet', address: unlisted },
    });
    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const paid = await pay(payer.privateKey, invoice.invoice_id);
    expect(paid.status).toBe(200);
    const answer = await json(paid);
    // Paid first, then the tool found no pool: charged, empty, and refundable.
    expect(answer).toMatchObject({
      data: null,
      reason: 'no_data',
      charged: true,
      sources_tried: ['Uniswap V2'],
    });
    const tx = answer.invoice.transaction as string;
    expect(answer.refund.url).toBe(`/api/v1/x402/refund/${tx}`);
    expect(Date.parse(answer.refund.until) - Date.parse(answer.invoice.settled_at)).toBe(172_800_000);
    expect(await balanceOf(payer.account.address)).toBe(100_000n - HONEYPOT_PRICE);

    // A deployment with a one-second window refuses it once that second has passed, moving nothing.
    await until(() =>
      Promise.resolve(Date.now() > Date.parse(answer.invoice.settled_at) + 1_000 ? true : undefined),
    );
    const late = await post(hurriedApi, `/api/v1/x402/refund/${tx}`);
    expect(late.status).toBe(409);
    expect(await json(late)).toMatchObject({ code: 'refund_not_allowed', reason: 'window_passed' });
    expect(await balanceOf(payer.account.address)).toBe(100_000n - HONEYPOT_PRICE);

    const payeeBefore = await balanceOf(payTo);
    const refund = await post(api, `/api/v1/x402/refund/${tx}`);
    expect(refund.status).toBe(200);
    const refunded = await json(refund);
    expect(refunded).toMatchObject({ transaction: tx, refund: { status: 'refunded' } });
    expect(refunded.refund.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(refunded.refund.transaction).not.toBe(tx);
    expect(await balanceOf(payer.account.address)).toBe(100_000n);
    expect(await balanceOf(payTo)).toBe(payeeBefore - HONEYPOT_PRICE);
    const receipt = await json(await fetch(`${api}/api/v1/x402/receipts/${tx}`));
    expect(receipt).toMatchObject({
      empty_result: true,
      refund: { status: 'refunded', transaction: refunded.refund.transaction },
    });
    expect(await json(await fetch(`${api}/api/v1/x402/invoice/${invoice.invoice_id}`))).toMatchObject({
      state: 'refunded',
      refund_transaction: refunded.refund.transaction,
    });

    const twice = await Promise.all([
      post(api, `/api/v1/x402/refund/${tx}`),
      post(api, `/api/v1/x402/refund/${tx}`),
    ]);
    for (const response of twice) {
      expect(response.status).toBe(409);
      expect(await json(response)).toMatchObject({ code: 'refund_not_allowed', reason: 'already_refunded' });
    }
    expect(await balanceOf(payer.account.address)).toBe(100_000n);
    const unknown = await post(api, `/api/v1/x402/refund/0x${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
  });

  it('expires an unpaid invoice, which then takes no payment', async () => {
    const invoice = await createInvoice({ amount_usd: 0.05, description: 'Short-lived' }, hurriedApi);
    const expired = await until(async () => {
      const current = await json(await fetch(`${hurriedApi}/api/v1/x402/invoice/${invoice.invoice_id}`));
      return current.state === 'expired' ? current : undefined;
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expired.expires_at));
    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const proof = encodePaymentSignatureHeader(
      await payerClient(payer.privateKey, token).createPaymentPayload({
        x402Version: 2,
        resource: { url: `http://vigil.test${invoice.pay_url}` },
        accepts: invoice.accepts,
      }),
    );
    const refused = await post(hurriedApi, invoice.pay_url, undefined, { 'x-payment': proof });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ code: 'invoice_not_payable', state: 'expired' });
    expect(await balanceOf(payer.account.address)).toBe(100_000n);
  });

  it('sandbox: quotes on the test network and verifies proofs without ever settling them', async () => {
    const created = await post(api, '/x402/sandbox/create-invoice', {
      tool: 'token_risk',
      input: { chain: 'devnet', address: scenario.tokens.clean.address },
    });
    expect(created.status).toBe(201);
    const invoice = await json(created);
    expect(invoice).toMatchObject({ sandbox: true, state: 'open', network: 'eip155:31337', amount: '50000' });
    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const client = payerClient(payer.privateKey, token);
    const required = {
      x402Version: 2,
      resource: { url: 'http://vigil.test/sandbox' },
      accepts: invoice.accepts,
    };
    const good = encodePaymentSignatureHeader(await client.createPaymentPayload(required));
    const cheap = encodePaymentSignatureHeader(
      await client.createPaymentPayload({
        ...required,
        accepts: [{ ...invoice.accepts[0], amount: '10000' }],
      }),
    );

    const valid = await post(api, '/x402/sandbox/verify', { invoice_id: invoice.invoice_id, payment: good });
    expect(valid.status).toBe(200);
    expect(await json(valid)).toMatchObject({
      valid: true,
      reason: null,
      payer: payer.account.address,
      settled: false,
    });
    const viaHeader = await post(
      api,
      '/x402/sandbox/verify',
      { invoice_id: invoice.invoice_id },
      { 'x-payment': cheap },
    );
    expect(await json(viaHeader)).toMatchObject({
      valid: false,
      reason: 'invalid_exact_evm_payload_authorization_value_mismatch',
    });
    const garbage = await post(api, '/x402/sandbox/verify', {
      invoice_id: invoice.invoice_id,
      payment: 'not-a-proof',
    });
    expect(await json(garbage)).toMatchObject({ valid: false, reason: 'invalid_payload' });
    // Verified, never settled: the payer still holds everything, and the invoice is still open.
    expect(await balanceOf(payer.account.address)).toBe(100_000n);
    const pay = await post(api, invoice.pay_url, undefined, { 'x-payment': good });
    expect(pay.status).toBe(409);
    expect(await json(pay)).toMatchObject({ code: 'invoice_not_payable' });
    expect(await json(await fetch(`${api}/api/v1/x402/invoice/${invoice.invoice_id}`))).toMatchObject({
      state: 'open',
    });
    expect(await balanceOf(payer.account.address)).toBe(100_000n);

    const real = await createInvoice({ amount_usd: 0.05, description: 'not a sandbox one' });
    const mixed = await post(api, '/x402/sandbox/verify', { invoice_id: real.invoice_id, payment: good });
    expect(mixed.status).toBe(422);
  });
});
