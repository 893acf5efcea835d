import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createPublicClient, http, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanJobs } from '../../api/backend/scanJobs.ts';
import {
  deployUnlistedToken,
  fiatTokenAbi,
  paymentTokenBalance,
  type PaymentTokenInfo,
} from '../../infra/devnet/paymentToken.ts';
import { awayFromMinuteEdge, until } from '../support/until.ts';
import { httpSend, proveWallet } from '../support/walletProof.ts';
import { startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import {
  fundedPayer,
  payerClient,
  type PaymentsStack,
  sendAtOnce,
  startPaymentsStack,
} from '../support/payments.ts';

const json = (response: Response | undefined): Promise<any> =>
  (response ? response.json() : Promise.resolve(undefined)) as Promise<any>;
const RISK_PRICE = 50_000n; // token_risk: $0.05 in 6-decimal USDC
const HONEYPOT_PRICE = 10_000n; // honeypot_check: $0.01

describe('x402 tool calls end to end (backend, Temporal payments pool, facilitator, devnet USDC)', () => {
  const { rpcUrl, scenario } = testStack();
  let stack: PaymentsStack;
  let token: PaymentTokenInfo;
  let backend: TestBackend;
  let payTo = '';
  let api = '';
  let unlisted = '';
  const chain = createPublicClient({ transport: http(rpcUrl) });

  beforeAll(async () => {
    [stack, unlisted] = await Promise.all([startPaymentsStack(), deployUnlistedToken(rpcUrl)]);
    ({ token, backend, payTo, api } = stack);
  });
  afterAll(() => stack?.close());

  const body = (address: string) => JSON.stringify({ chain: 'devnet', address });
  const post = (tool: string, payload: string, headers: Record<string, string> = {}) =>
    fetch(`${api}/api/v1/x402-tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
    });

  it('answers 404 for an unknown tool, 422 naming the field, and 402 with a v2 quote in body and header', async () => {
    const unknown = await post('no_such_tool', body(scenario.tokens.clean.address));
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).code).toBe('unknown_tool');

    const invalid = await post('token_risk', JSON.stringify({ chain: 'devnet' }), {
      'x-client-id': 'client-invalid-1',
    });
    expect(invalid.status).toBe(422);
    expect((await json(invalid)).errors.map((error: { loc: string[] }) => error.loc.join('.'))).toEqual([
      'body.address',
    ]);

    const unpaid = await post('token_risk', body(scenario.tokens.clean.address));
    expect(unpaid.status).toBe(402);
    const header = unpaid.headers.get('payment-required');
    expect(header).toBeTruthy();
    const quote = decodePaymentRequiredHeader(header ?? '');
    const problem = await json(unpaid);
    expect(problem).toMatchObject({ status: 402, code: 'payment_required', x402Version: 2 });
    expect(problem.accepts).toEqual(quote.accepts);
    expect(quote.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:31337',
        amount: RISK_PRICE.toString(),
        asset: token.address,
        payTo,
        maxTimeoutSeconds: 300,
        extra: { name: 'USD Coin', version: '2' },
      },
    ]);
    expect(unpaid.headers.get('x-ratelimit-limit')).toBeTruthy();
  });

  it('spends a client’s trial per tool, then quotes; shows the balances; a wallet gets more', async () => {
    const client = `trial-client-${Date.now()}`;
    const call = () =>
      post('contract_audit', body(scenario.tokens.mintable.address), { 'x-client-id': client });
    const answers = [await call(), await call(), await call()];
    expect(answers.map((response) => response.status)).toEqual([200, 200, 402]);
    expect(answers.map((response) => response.headers.get('x-trial-remaining'))).toEqual(['1', '0', null]);
    const audit = (await json(answers[0])).data;
    expect(audit.flags).toContain('is_mintable');
    const balances = await json(await fetch(`${api}/api/v1/x402-databus/trials/${client}`));
    expect(balances.tools.find((tool: { tool: string }) => tool.tool === 'contract_audit')).toMatchObject({
      limit: 2,
      used: 2,
      remaining: 0,
    });
    expect(balances.tools.find((tool: { tool: string }) => tool.tool === 'token_risk')).toMatchObject({
      limit: 3,
      used: 0,
    });
    // A wallet proven by a signed sign-in message (EIP-4361) gets the larger allotment.
    const token = await proveWallet(httpSend(api), privateKeyToAccount(generatePrivateKey()));
    const walletCall = await post('contract_audit', body(scenario.tokens.mintable.address), {
      'x-wallet-proof': token,
    });
    expect(walletCall.headers.get('x-trial-limit')).toBe('4');
  });

  it('is paid by the unmodified @x402/fetch client: balances move by exactly the quote and the receipt matches the chain', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const payFetch = wrapFetchWithPayment(fetch, payerClient(payer.privateKey, token));
    const before = await Promise.all([
      paymentTokenBalance(rpcUrl, token.address, payTo),
      paymentTokenBalance(rpcUrl, token.address, payer.account.address),
    ]);
    const response = await payFetch(`${api}/api/v1/x402-tools/token_risk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(scenario.tokens.honeypot.address),
    });
    expect(response.status).toBe(200);
    const answer = await json(response);
    expect(answer.data.tier).toBe('critical');
    const receipt = decodePaymentResponseHeader(response.headers.get('payment-response') ?? '');
    expect(decodePaymentResponseHeader(response.headers.get('x-payment-response') ?? '')).toEqual(receipt);
    expect(receipt).toMatchObject({ success: true, network: 'eip155:31337', payer: payer.account.address });
    const after = await Promise.all([
      paymentTokenBalance(rpcUrl, token.address, payTo),
      paymentTokenBalance(rpcUrl, token.address, payer.account.address),
    ]);
    expect(after[0] - (before[0] ?? 0n)).toBe(RISK_PRICE);
    expect((before[1] ?? 0n) - after[1]).toBe(RISK_PRICE);
    const onChain = await chain.getTransactionReceipt({ hash: receipt.transaction as `0x${string}` });
    const transfers = parseEventLogs({
      abi: fiatTokenAbi,
      logs: onChain.logs,
      eventName: 'Transfer',
    }) as unknown as { args: { from: string; to: string; value: bigint } }[];
    expect(transfers.map((log) => [log.args.from, log.args.to, log.args.value])).toEqual([
      [payer.account.address, payTo, RISK_PRICE],
    ]);
    const stored = await json(await fetch(`${api}/api/v1/x402/receipts/${receipt.transaction}`));
    expect(stored).toMatchObject({
      status: 'settled',
      transaction: receipt.transaction,
      amount: RISK_PRICE.toString(),
      tool: 'token_risk',
      payer: payer.account.address,
    });
  });

  it('answers an empty result 200 with data null and charges nothing', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const payFetch = wrapFetchWithPayment(fetch, payerClient(payer.privateKey, token));
    const response = await payFetch(`${api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(unlisted),
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      data: null,
      reason: 'no_data',
      sources_tried: ['Uniswap V2'],
      payment: null,
    });
    expect(response.headers.get('payment-response')).toBeNull();
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(1_000_000n);
  });

  it('runs a proof sent 20 times at once once, charges once, and refuses it for another request', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const quote = decodePaymentRequiredHeader(
      (await post('honeypot_check', body(scenario.tokens.clean.address))).headers.get('payment-required') ??
        '',
    );
    const proof = encodePaymentSignatureHeader(
      await payerClient(payer.privateKey, token).createPaymentPayload(quote),
    );
    const { responses, runs } = await sendAtOnce(20, () =>
      post('honeypot_check', body(scenario.tokens.clean.address), { 'x-payment': proof }),
    );
    expect(runs).toBe(1);
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(
      1_000_000n - HONEYPOT_PRICE,
    );
    // The same request again gets the first answer; another request with the same proof is refused.
    const again = await post('honeypot_check', body(scenario.tokens.clean.address), { 'x-payment': proof });
    expect(again.status).toBe(200);
    const first = responses.find((response) => response.status === 200);
    expect(again.headers.get('payment-response')).toBe(first?.headers.get('payment-response'));
    const elsewhere = await post('honeypot_check', body(scenario.tokens.mintable.address), {
      'payment-signature': proof,
    });
    expect(elsewhere.status).toBe(402);
    expect((await json(elsewhere)).error).toBe('payment_already_used');
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(
      1_000_000n - HONEYPOT_PRICE,
    );
  });

  it('settles 50 concurrent paid calls once each, with no lost receipt', async () => {
    const payers = await Promise.all(
      Array.from({ length: 50 }, () => fundedPayer(rpcUrl, token, HONEYPOT_PRICE)),
    );
    const before = await paymentTokenBalance(rpcUrl, token.address, payTo);
    const responses = await Promise.all(
      payers.map((payer) =>
        wrapFetchWithPayment(fetch, payerClient(payer.privateKey, token))(
          `${api}/api/v1/x402-tools/honeypot_check`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: body(scenario.tokens.high_tax.address),
          },
        ),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(payers.map(() => 200));
    const receipts = responses.map((response) =>
      decodePaymentResponseHeader(response.headers.get('payment-response') ?? ''),
    );
    expect(receipts.every((receipt) => receipt.success)).toBe(true);
    expect(new Set(receipts.map((receipt) => receipt.transaction)).size).toBe(50);
    expect(await paymentTokenBalance(rpcUrl, token.address, payTo)).toBe(before + HONEYPOT_PRICE * 50n);
    const balances = await Promise.all(
      payers.map((payer) => paymentTokenBalance(rpcUrl, token.address, payer.account.address)),
    );
    expect(balances.every((balance) => balance === 0n)).toBe(true);
    const stored = await Promise.all(
      receipts.map((receipt) => backend.deps.x402.receipts.byTransaction(receipt.transaction)),
    );
    expect(stored.filter((entry) => entry?.status === 'settled')).toHaveLength(50);
    // Every settlement workflow records its receipt durably (MongoDB), not only the request's copy.
    const hashes = receipts.map((receipt) => receipt.transaction);
    await until(async () => {
      const recorded = await backend.deps.mongo.db
        .collection('payment_receipts')
        .countDocuments({ transaction: { $in: hashes }, status: 'settled' });
      return recorded === 50 ? recorded : undefined;
    });
  });

  it('charges nothing when the tool fails, and the proof then pays for a call that works', async () => {
    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const quote = decodePaymentRequiredHeader(
      (await post('honeypot_check', body(scenario.tokens.clean.address))).headers.get('payment-required') ??
        '',
    );
    const proof = encodePaymentSignatureHeader(
      await payerClient(payer.privateKey, token).createPaymentPayload(quote),
    );
    // An address without code: the scan refuses it, so the tool produced nothing to pay for.
    const failed = await post('honeypot_check', body(payer.account.address), { 'x-payment': proof });
    expect(failed.status).toBe(422);
    expect((await json(failed)).code).toBe('address_not_contract');
    expect(failed.headers.get('payment-response')).toBeNull();
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(100_000n);
    const works = await post('honeypot_check', body(scenario.tokens.clean.address), { 'x-payment': proof });
    expect(works.status).toBe(200);
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(
      100_000n - HONEYPOT_PRICE,
    );
  });

  it('meters paid calls by payment: never capped, while refused proofs are held to the caps', async () => {
    await awayFromMinuteEdge(); // the limit counts in fixed wall-clock minutes
    const capped = await startTestBackend({
      ...backend.env,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2',
    });
    try {
      const headers = { 'content-type': 'application/json', 'x-client-id': `metered-${Date.now()}` };
      const call = (extra: Record<string, string>, address = scenario.tokens.clean.address) =>
        capped.app.inject({
          method: 'POST',
          url: '/api/v1/x402-tools/honeypot_check',
          headers: { ...headers, ...extra },
          payload: { chain: 'devnet', address },
        });
      const payers = await Promise.all(
        Array.from({ length: 4 }, () => fundedPayer(rpcUrl, token, HONEYPOT_PRICE)),
      );
      const quote = decodePaymentRequiredHeader(
        (await post('honeypot_check', body(scenario.tokens.clean.address))).headers.get('payment-required') ??
          '',
      );
      for (const payer of payers) {
        const proof = encodePaymentSignatureHeader(
          await payerClient(payer.privateKey, token).createPaymentPayload(quote),
        );
        const paid = await call({ 'x-payment': proof });
        expect(paid.statusCode).toBe(200);
        expect(paid.headers['x-ratelimit-limit']).toBe('2');
      }
      const submit = vi.spyOn(ScanJobs.prototype, 'submit');
      const tampered = encodePaymentSignatureHeader(
        await payerClient((await fundedPayer(rpcUrl, token, 0n)).privateKey, token).createPaymentPayload({
          ...quote,
          accepts: [{ ...quote.accepts[0], amount: '1' } as (typeof quote.accepts)[number]],
        }),
      );
      const refused = [
        await call({ 'x-payment': tampered }),
        await call({ 'x-payment': tampered }),
        await call({ 'x-payment': tampered }),
      ];
      submit.mockRestore();
      expect(refused.map((answer) => answer.statusCode)).toEqual([402, 402, 429]);
      expect(refused[0]?.json().error).toBe('invalid_exact_evm_payload_authorization_value_mismatch');
      expect(Number(refused[2]?.headers['retry-after'])).toBeGreaterThan(0);
      expect(submit).not.toHaveBeenCalled();
    } finally {
      await capped.close();
    }
  });

  it('answers refund_failed when no refund signer is configured, leaving the refund open to a retry', async () => {
    // This deployment's payments pool has no X402_PAYEE_PRIVATE_KEY.
    const created = await fetch(`${api}/api/v1/x402/invoice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'honeypot_check', input: { chain: 'devnet', address: unlisted } }),
    });
    const invoice = await json(created);
    const payer = await fundedPayer(rpcUrl, token, 100_000n);
    const paid = await wrapFetchWithPayment(fetch, payerClient(payer.privateKey, token))(
      `${api}${invoice.pay_url}`,
      {
        method: 'POST',
      },
    );
    const answer = await json(paid);
    expect(answer).toMatchObject({ data: null, charged: true });
    const refund = await fetch(`${api}${answer.refund.url}`, { method: 'POST' });
    expect(refund.status).toBe(503);
    expect(await json(refund)).toMatchObject({ code: 'refund_failed', reason: 'refunds_not_configured' });
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(
      100_000n - HONEYPOT_PRICE,
    );
    const receipt = await json(await fetch(`${api}/api/v1/x402/receipts/${answer.invoice.transaction}`));
    expect(receipt.refund).toMatchObject({ status: 'failed', error_reason: 'refunds_not_configured' });
    // A failed refund may be asked for again (and fails the same way here).
    const again = await fetch(`${api}${answer.refund.url}`, { method: 'POST' });
    expect(again.status).toBe(503);
  });
});
