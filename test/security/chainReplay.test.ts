import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { eip3009ABI } from '@x402/evm';
import { decodeFunctionData, type Hex, serializeSignature } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { proofHeader, randomNonce, signAuthorization } from '../support/attacks.ts';
import { testStack } from '../support/fixtures.ts';
import { fundedPayer, type PaymentsStack, startPaymentsStack } from '../support/payments.ts';
import { paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';

const json = (response: Response): Promise<any> => response.json() as Promise<any>;
const PRICE = 10_000n; // honeypot_check: $0.01

// Once a payment settles, its whole signed authorization is public: the settlement transaction's
// calldata carries every field and the signature. Anyone watching the payee's incoming transfers
// can rebuild the payer's proof byte for byte, and the public quote gives its requirements.
describe('who a paid answer goes to, and who pays an invoice (attacks)', () => {
  const { rpcUrl, scenario } = testStack();
  let stack: PaymentsStack;
  // Payer and thief on two networks, told apart by the trusted balancer's X-Forwarded-For.
  const PAYER_NET = { 'x-forwarded-for': '203.0.113.10' };
  const THIEF_NET = { 'x-forwarded-for': '198.51.100.20' };

  beforeAll(async () => {
    stack = await startPaymentsStack({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => stack?.close());

  const call = (address: string, headers: Record<string, string>) =>
    fetch(`${stack.api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ chain: 'devnet', address }),
    });
  const quote = async (address: string): Promise<PaymentRequirements> => {
    const option = decodePaymentRequiredHeader(
      (await call(address, THIEF_NET)).headers.get('payment-required') ?? '',
    ).accepts[0];
    if (!option) throw new Error('no quote');
    return option;
  };

  /** The payer's proof as anyone can rebuild it from the settlement transaction and the quote. */
  const rebuiltFromChain = async (transaction: string, requirements: PaymentRequirements) => {
    const sent = await createDevnetClient(rpcUrl).getTransaction({ hash: transaction as Hex });
    const decoded = decodeFunctionData({ abi: eip3009ABI, data: sent.input });
    if (decoded.functionName !== 'transferWithAuthorization') throw new Error('not a transfer');
    const args = decoded.args as readonly unknown[];
    const [from, to, value, validAfter, validBefore, nonce] = args as [
      string,
      string,
      bigint,
      bigint,
      bigint,
      Hex,
    ];
    const signature =
      args.length === 9
        ? serializeSignature({ v: BigInt(Number(args[6])), r: args[7] as Hex, s: args[8] as Hex })
        : (args[6] as Hex);
    const payload: PaymentPayload = {
      x402Version: 2,
      accepted: requirements,
      payload: {
        signature,
        authorization: {
          from,
          to,
          value: value.toString(),
          validAfter: validAfter.toString(),
          validBefore: validBefore.toString(),
          nonce,
        },
      },
    };
    return payload;
  };

  it('does not serve a paid tool answer to someone else presenting the proof rebuilt from its transaction', async () => {
    const address = scenario.tokens.honeypot.address;
    const requirements = await quote(address);
    const payer = await fundedPayer(rpcUrl, stack.token, 100_000n);
    const proof = await signAuthorization(payer.privateKey, stack.token, requirements, {
      to: stack.payTo,
      value: PRICE,
      nonce: randomNonce(),
    });
    const paid = await call(address, { ...PAYER_NET, 'x-payment': proofHeader(proof) });
    expect(paid.status).toBe(200);
    const { transaction } = decodePaymentResponseHeader(paid.headers.get('x-payment-response') ?? '');
    const rebuilt = await rebuiltFromChain(transaction, requirements);
    // The rebuilt proof is the payer's own, byte for byte: nothing in it is secret.
    expect(proofHeader(rebuilt)).toBe(proofHeader(proof));

    const stolen = await call(address, { ...THIEF_NET, 'x-payment': proofHeader(rebuilt) });
    expect(stolen.status).toBe(402);
    expect(await json(stolen)).toMatchObject({ error: 'payment_already_used' });
    // The payer itself still gets its answer again (a retry after a lost response).
    const again = await call(address, { ...PAYER_NET, 'x-payment': proofHeader(proof) });
    expect(again.status).toBe(200);
    expect((await json(again)).data).not.toBeNull();
  });

  it('does not lead a chain watcher from a transaction to the invoice it paid, and so to its result', async () => {
    const created = await fetch(`${stack.api}/api/v1/x402/invoice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...PAYER_NET },
      body: JSON.stringify({
        tool: 'honeypot_check',
        input: { chain: 'devnet', address: scenario.tokens.clean.address },
      }),
    });
    expect(created.status).toBe(201);
    const invoice = await json(created);
    const payer = await fundedPayer(rpcUrl, stack.token, 100_000n);
    const proof = await signAuthorization(payer.privateKey, stack.token, invoice.accepts[0], {
      to: stack.payTo,
      value: PRICE,
      nonce: randomNonce(),
    });
    const paid = await fetch(`${stack.api}${invoice.pay_url}`, {
      method: 'POST',
      headers: { ...PAYER_NET, 'x-payment': proofHeader(proof) },
    });
    expect(paid.status).toBe(200);
    expect((await json(paid)).data).not.toBeNull();
    const { transaction } = decodePaymentResponseHeader(paid.headers.get('x-payment-response') ?? '');
    // The chain names the transaction; its public receipt must not name the invoice (whose id is
    // what reads the invoice and its result).
    const receipt = await fetch(`${stack.api}/api/v1/x402/receipts/${transaction}`, { headers: THIEF_NET });
    expect(receipt.status).toBe(200);
    const text = await receipt.text();
    expect(text).not.toContain(invoice.invoice_id);
    expect(JSON.parse(text)).toMatchObject({ transaction, status: 'settled' });
  });

  it('charges one payer once when one invoice is paid with several authorizations at the same moment', async () => {
    const created = await fetch(`${stack.api}/api/v1/x402/invoice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...PAYER_NET },
      body: JSON.stringify({ amount_usd: 0.01, description: 'paid by many' }),
    });
    const invoice = await json(created);
    // The same payer with two nonces, and two other payers: four authorizations for one invoice.
    const first = await fundedPayer(rpcUrl, stack.token, 100_000n);
    const payers = [
      first,
      first,
      ...(await Promise.all([1, 2].map(() => fundedPayer(rpcUrl, stack.token, 100_000n)))),
    ];
    const proofs = await Promise.all(
      payers.map((payer) =>
        signAuthorization(payer.privateKey, stack.token, invoice.accepts[0], {
          to: stack.payTo,
          value: PRICE,
          nonce: randomNonce(),
        }),
      ),
    );
    const payeeBefore = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    const answers = await Promise.all(
      proofs.map((proof) =>
        fetch(`${stack.api}${invoice.pay_url}`, {
          method: 'POST',
          headers: { ...PAYER_NET, 'x-payment': proofHeader(proof) },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect((await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo)) - payeeBefore).toBe(PRICE);
    const spent = await Promise.all(
      [...new Set(payers)].map(
        async (payer) =>
          100_000n - (await paymentTokenBalance(rpcUrl, stack.token.address, payer.account.address)),
      ),
    );
    expect(spent.reduce((sum, each) => sum + each, 0n)).toBe(PRICE);
  });
});
