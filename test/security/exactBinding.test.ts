import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ToolRunner } from '../../api/backend/x402/toolRunner.ts';
import { deployUnlistedToken, paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';
import {
  movedByServed,
  proofHeader,
  randomNonce,
  type ServedPurchase,
  signAuthorization,
} from '../support/attacks.ts';
import { testStack } from '../support/fixtures.ts';
import { fundedPayer, type PaymentsStack, startPaymentsStack } from '../support/payments.ts';

const json = (response: Response): Promise<any> => response.json() as Promise<any>;
const RISK_PRICE = 50_000n; // token_risk: $0.05
const CHEAP = 10_000n; // honeypot_check and the smallest invoice: $0.01

// An authorization's nonce is what the chain spends once, so one
// signed authorization must pay for one purchase, answered only to its own exact payload.
describe('exact binding of a payment to one purchase (attacks)', () => {
  const { rpcUrl, scenario } = testStack();
  let stack: PaymentsStack;
  let unlisted = '';

  beforeAll(async () => {
    // The payee's key signs refunds of charged empty results.
    const payeeKey = generatePrivateKey();
    [stack, unlisted] = await Promise.all([
      startPaymentsStack({ payeeKey, workerEnv: { X402_PAYEE_PRIVATE_KEY: payeeKey } }),
      deployUnlistedToken(rpcUrl),
    ]);
  });
  afterAll(() => stack?.close());

  const api = () => stack.api;
  const tool = (name: string, address: string, headers: Record<string, string> = {}) =>
    fetch(`${api()}/api/v1/x402-tools/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ chain: 'devnet', address }),
    });
  const quote = async (name: string, address: string): Promise<PaymentRequirements> => {
    const required = decodePaymentRequiredHeader(
      (await tool(name, address)).headers.get('payment-required') ?? '',
    );
    const option = required.accepts[0];
    if (!option) throw new Error('no quote');
    return option;
  };
  const invoice = async (body: unknown) => {
    const created = await fetch(`${api()}/api/v1/x402/invoice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    return json(created) as Promise<{ invoice_id: string; pay_url: string; accepts: PaymentRequirements[] }>;
  };
  const pay = (payUrl: string, proof: string) =>
    fetch(`${api()}${payUrl}`, { method: 'POST', headers: { 'x-payment': proof } });
  /** A served answer's transaction, from its receipt header. */
  const transactionOf = (response: Response) =>
    decodePaymentResponseHeader(response.headers.get('x-payment-response') ?? '').transaction;

  it('same nonce, different authorization: a 0-value self-transfer sent to the facilitator is not adopted by the paid call', async () => {
    const payer = await fundedPayer(rpcUrl, stack.token, 1_000_000n);
    const requirements = await quote('token_risk', scenario.tokens.honeypot.address);
    const nonce = randomNonce();
    const paying = await signAuthorization(payer.privateKey, stack.token, requirements, {
      to: stack.payTo,
      value: RISK_PRICE,
      nonce,
    });
    const selfRequirements = { ...requirements, amount: '0', payTo: payer.account.address };
    const free = await signAuthorization(payer.privateKey, stack.token, selfRequirements, {
      to: payer.account.address,
      value: 0n,
      nonce,
    });
    // While the tool runs, the payer sends the free authorization straight to the facilitator.
    // The real method, called on each runner below with its own `this`.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const run = ToolRunner.prototype.run;
    const direct: { status: number; success: boolean }[] = [];
    const spy = vi.spyOn(ToolRunner.prototype, 'run').mockImplementation(async function (
      this: ToolRunner,
      ...args
    ) {
      // Anonymously, and with a caller's token as an insider would: neither may settle it.
      for (const headers of [{}, stack.facilitator.auth]) {
        const response = await fetch(`${stack.facilitator.url}/settle`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({
            x402Version: 2,
            paymentPayload: free,
            paymentRequirements: selfRequirements,
          }),
        });
        const body = (await response.json()) as { success?: boolean };
        direct.push({ status: response.status, success: body.success === true });
      }
      return run.apply(this, args);
    });
    const payeeBefore = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    let answer: Response;
    try {
      answer = await tool('token_risk', scenario.tokens.honeypot.address, {
        'x-payment': proofHeader(paying),
      });
    } finally {
      spy.mockRestore();
    }
    expect(direct.map((attempt) => attempt.status === 200 && attempt.success)).toEqual([false, false]);
    const served: ServedPurchase[] =
      answer.status === 200
        ? [{ label: 'token_risk', amount: RISK_PRICE, transaction: transactionOf(answer) }]
        : [];
    const moved = await movedByServed(rpcUrl, stack.token, payer.account.address, stack.payTo, served);
    expect(moved).toEqual(moved.map((entry) => ({ ...entry, moved: entry.price })));
    const payeeGain = (await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo)) - payeeBefore;
    expect(payeeGain).toBe(served.reduce((sum, purchase) => sum + purchase.amount, 0n));
  });

  it('same nonce, different authorization: a $0.01 invoice and a $0.05 call paid at the same moment buy one of them', async () => {
    const payer = await fundedPayer(rpcUrl, stack.token, 1_000_000n);
    const [requirements, cheap] = await Promise.all([
      quote('token_risk', scenario.tokens.clean.address),
      invoice({ amount_usd: 0.01, description: 'same nonce' }),
    ]);
    const nonce = randomNonce();
    const [forInvoice, forCall] = await Promise.all([
      signAuthorization(payer.privateKey, stack.token, cheap.accepts[0] as PaymentRequirements, {
        to: stack.payTo,
        value: CHEAP,
        nonce,
      }),
      signAuthorization(payer.privateKey, stack.token, requirements, {
        to: stack.payTo,
        value: RISK_PRICE,
        nonce,
      }),
    ]);
    const payeeBefore = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    const [invoiceAnswer, callAnswer] = await Promise.all([
      pay(cheap.pay_url, proofHeader(forInvoice)),
      tool('token_risk', scenario.tokens.clean.address, { 'x-payment': proofHeader(forCall) }),
    ]);
    const served: ServedPurchase[] = [
      ...(invoiceAnswer.status === 200
        ? [{ label: 'invoice', amount: CHEAP, transaction: transactionOf(invoiceAnswer) }]
        : []),
      ...(callAnswer.status === 200
        ? [{ label: 'token_risk', amount: RISK_PRICE, transaction: transactionOf(callAnswer) }]
        : []),
    ];
    expect(served.length).toBeLessThanOrEqual(1);
    const moved = await movedByServed(rpcUrl, stack.token, payer.account.address, stack.payTo, served);
    expect(moved).toEqual(moved.map((entry) => ({ ...entry, moved: entry.price })));
    const payeeGain = (await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo)) - payeeBefore;
    expect(payeeGain).toBe(served.reduce((sum, purchase) => sum + purchase.amount, 0n));
  });

  it('one authorization sent to five invoices and a tool call at once buys one purchase, and only its own is refundable', async () => {
    const payer = await fundedPayer(rpcUrl, stack.token, 1_000_000n);
    const invoices = await Promise.all(
      Array.from({ length: 5 }, () =>
        invoice({ tool: 'honeypot_check', input: { chain: 'devnet', address: unlisted } }),
      ),
    );
    const requirements = await quote('honeypot_check', scenario.tokens.clean.address);
    const proof = proofHeader(
      await signAuthorization(payer.privateKey, stack.token, requirements, {
        to: stack.payTo,
        value: CHEAP,
        nonce: randomNonce(),
      }),
    );
    const payeeBefore = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    const answers = await Promise.all([
      ...invoices.map((entry) => pay(entry.pay_url, proof)),
      tool('honeypot_check', scenario.tokens.clean.address, { 'x-payment': proof }),
    ]);
    const bodies = await Promise.all(answers.map((answer) => json(answer.clone())));
    const served: ServedPurchase[] = answers.flatMap((answer, index) =>
      answer.status === 200
        ? [{ label: `purchase ${index}`, amount: CHEAP, transaction: transactionOf(answer) }]
        : [],
    );
    expect(served).toHaveLength(1);
    expect(new Set(served.map((purchase) => purchase.transaction)).size).toBe(served.length);
    const moved = await movedByServed(rpcUrl, stack.token, payer.account.address, stack.payTo, served);
    expect(moved).toEqual(moved.map((entry) => ({ ...entry, moved: entry.price })));
    expect((await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo)) - payeeBefore).toBe(CHEAP);
    // Refund the shared transaction: it gives back only what the one purchase it paid was worth,
    // and only if that purchase (an invoice whose tool found nothing) is a charged empty result.
    const transaction = served[0]?.transaction ?? '';
    const refund = await fetch(`${api()}/api/v1/x402/refund/${transaction}`, { method: 'POST' });
    const winner = bodies[answers.findIndex((answer) => answer.status === 200)];
    if (winner?.charged === true) expect(refund.status).toBe(200);
    else expect(refund.status).toBe(409);
    const again = await fetch(`${api()}/api/v1/x402/refund/${transaction}`, { method: 'POST' });
    expect(again.status).toBe(409);
    const payerLoss =
      1_000_000n - (await paymentTokenBalance(rpcUrl, stack.token.address, payer.account.address));
    expect(payerLoss).toBe(winner?.charged === true ? 0n : CHEAP);
    // No purchase other than the one that was paid answered data.
    expect(
      bodies.filter((body, index) => answers[index]?.status === 200 && body.data !== null).length,
    ).toBeLessThanOrEqual(1);
  });

  it('a stored paid answer is not served to a forged proof that shares its payer and nonce', async () => {
    const payer = await fundedPayer(rpcUrl, stack.token, 1_000_000n);
    const requirements = await quote('honeypot_check', scenario.tokens.high_tax.address);
    const nonce = randomNonce();
    const genuine = await signAuthorization(payer.privateKey, stack.token, requirements, {
      to: stack.payTo,
      value: CHEAP,
      nonce,
    });
    const paid = await tool('honeypot_check', scenario.tokens.high_tax.address, {
      'x-payment': proofHeader(genuine),
    });
    expect(paid.status).toBe(200);
    // Anyone can read payer and nonce off the chain; the forger has no key, so no signature.
    const forged = {
      ...genuine,
      payload: { ...(genuine.payload as object), signature: `0x${'11'.repeat(65)}` },
    };
    const stolen = await tool('honeypot_check', scenario.tokens.high_tax.address, {
      'x-payment': proofHeader(forged),
    });
    expect(stolen.status).toBe(402);
    const body = await json(stolen);
    expect(body.data).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('"tier"');
  });
});
