import {
  type Address,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  getBase58Encoder,
  type Signature,
} from '@solana/kit';
import { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { wrapFetchWithPayment } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanJobs } from '../../api/backend/scanJobs.ts';
import { SOLANA_DEVNET_CAIP2 } from '../../api/facilitator/svmFacilitator.ts';
import { testStack } from '../support/fixtures.ts';
import { type PaymentsStack, sendAtOnce, startPaymentsStack } from '../support/payments.ts';

const json = (response: Response): Promise<any> => response.json() as Promise<any>;
const HONEYPOT_PRICE = 10_000n; // honeypot_check: $0.01 in the 6-decimal mint
const RISK_PRICE = 50_000n; // token_risk: $0.05

describe('x402 on Solana end to end (official @x402/svm client, facilitator and LiteSVM devnet)', () => {
  const { scenario, solanaRpcUrl, solanaPayments } = testStack();
  const rpc = createSolanaRpc(solanaRpcUrl);
  let stack: PaymentsStack;
  let api = '';

  beforeAll(async () => {
    stack = await startPaymentsStack({ solana: true });
    ({ api } = stack);
  });
  afterAll(() => stack?.close());

  const body = (address: string) => JSON.stringify({ chain: 'devnet', address });
  const post = (tool: string, payload: string, headers: Record<string, string> = {}) =>
    fetch(`${api}/api/v1/x402-tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: payload,
    });
  const balance = async (tokenAccount: string) =>
    BigInt((await rpc.getTokenAccountBalance(tokenAccount as Address).send()).value.amount);
  /** The official client for one of the devnet's funded payers, on the local RPC. */
  const payer = async (index: number) => {
    const entry = solanaPayments.payers[index];
    if (!entry) throw new Error(`no payer ${index}`);
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(entry.secretKey));
    const client = x402Client.fromConfig({
      schemes: [
        { network: SOLANA_DEVNET_CAIP2, client: new ExactSvmScheme(signer, { rpcUrl: solanaRpcUrl }) },
      ],
      // The devnet mint is not one of the SDK's default assets: allow it, up to $1.
      spendControls: {
        allowedAssets: [
          { network: SOLANA_DEVNET_CAIP2, asset: solanaPayments.mint, maxAmountPerPayment: '1000000' },
        ],
      },
    });
    return { ...entry, client };
  };
  const quoteOf = async (tool: string, address: string): Promise<PaymentRequired> =>
    decodePaymentRequiredHeader((await post(tool, body(address))).headers.get('payment-required') ?? '');
  const solanaOption = (quote: PaymentRequired): PaymentRequirements => {
    const option = quote.accepts.find((entry) => entry.network === SOLANA_DEVNET_CAIP2);
    if (!option) throw new Error('no Solana option quoted');
    return option;
  };
  /** A proof the official client signs for the given requirements (which a test may have altered). */
  const proofFor = async (
    client: x402Client,
    quote: PaymentRequired,
    requirements: PaymentRequirements,
  ): Promise<string> => {
    const payload = await client.createPaymentPayload({ ...quote, accepts: [requirements] });
    // Presented as an answer to the quote as it was: only the signed transaction differs.
    return encodePaymentSignatureHeader({ ...payload, accepted: solanaOption(quote) });
  };

  it('quotes EVM and Solana, and the facilitator lists Solana with its fee payer', async () => {
    const quote = await quoteOf('token_risk', scenario.tokens.clean.address);
    expect(quote.accepts.map((option) => option.network)).toEqual(['eip155:31337', SOLANA_DEVNET_CAIP2]);
    expect(solanaOption(quote)).toEqual({
      scheme: 'exact',
      network: SOLANA_DEVNET_CAIP2,
      amount: RISK_PRICE.toString(),
      asset: solanaPayments.mint,
      payTo: solanaPayments.payTo.address,
      maxTimeoutSeconds: 300,
      extra: { feePayer: solanaPayments.feePayer.address },
    });
    const supported = await json(await fetch(`${stack.facilitator.url}/supported`));
    expect(supported.kinds).toContainEqual({
      x402Version: 2,
      scheme: 'exact',
      network: SOLANA_DEVNET_CAIP2,
      extra: { feePayer: solanaPayments.feePayer.address },
    });
    expect(supported.unsupported).toEqual([]);
    const health = await json(await fetch(`${stack.facilitator.url}/healthz`));
    expect(health.solana).toMatchObject({
      status: 'ok',
      rpc: { reachable: true },
      fee_payer: { address: solanaPayments.feePayer.address, funded: true },
    });
  });

  it('is paid by the unmodified @x402/fetch client: token balances move by exactly the quote, the receipt names a transaction the devnet knows', async () => {
    const { client, tokenAccount, address } = await payer(0);
    const before = await Promise.all([balance(solanaPayments.payTo.tokenAccount), balance(tokenAccount)]);
    const payFetch = wrapFetchWithPayment(fetch, client);
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
    expect(receipt).toMatchObject({ success: true, network: SOLANA_DEVNET_CAIP2, payer: address });
    expect(answer.payment).toMatchObject({
      status: 'settled',
      transaction: receipt.transaction,
      payer: address,
    });
    const after = await Promise.all([balance(solanaPayments.payTo.tokenAccount), balance(tokenAccount)]);
    expect(after[0] - before[0]).toBe(RISK_PRICE);
    expect(before[1] - after[1]).toBe(RISK_PRICE);
    const statuses = await rpc.getSignatureStatuses([receipt.transaction as Signature]).send();
    expect(statuses.value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    const stored = await json(await fetch(`${api}/api/v1/x402/receipts/${receipt.transaction}`));
    expect(stored).toMatchObject({
      status: 'settled',
      transaction: receipt.transaction,
      network: SOLANA_DEVNET_CAIP2,
      amount: RISK_PRICE.toString(),
      payer: address,
    });
  });

  it('refuses a tampered amount and a wrong destination with the SDK’s reasons, moving nothing', async () => {
    const { client, tokenAccount } = await payer(1);
    const quote = await quoteOf('honeypot_check', scenario.tokens.clean.address);
    const option = solanaOption(quote);
    const elsewhere = solanaPayments.payers[2]?.address ?? '';
    const cases = [
      { requirements: { ...option, amount: (HONEYPOT_PRICE - 1n).toString() }, reason: 'amount_mismatch' },
      { requirements: { ...option, payTo: elsewhere }, reason: 'recipient_mismatch' },
    ];
    const before = await Promise.all([balance(solanaPayments.payTo.tokenAccount), balance(tokenAccount)]);
    const submit = vi.spyOn(ScanJobs.prototype, 'submit');
    for (const { requirements, reason } of cases) {
      const proof = await proofFor(client, quote, requirements);
      const refused = await post('honeypot_check', body(scenario.tokens.clean.address), {
        'x-payment': proof,
      });
      expect(refused.status).toBe(402);
      expect((await json(refused)).error).toBe(`invalid_exact_svm_payload_${reason}`);
    }
    const runs = submit.mock.calls.length;
    submit.mockRestore();
    expect(runs).toBe(0);
    expect(await Promise.all([balance(solanaPayments.payTo.tokenAccount), balance(tokenAccount)])).toEqual(
      before,
    );
  });

  it('runs a proof sent 10 times at once once, charges once, answers a replay the same and refuses it for another request', async () => {
    const { client, tokenAccount } = await payer(3);
    const quote = await quoteOf('honeypot_check', scenario.tokens.clean.address);
    const proof = await proofFor(client, quote, solanaOption(quote));
    const before = await Promise.all([balance(solanaPayments.payTo.tokenAccount), balance(tokenAccount)]);
    const { responses, runs } = await sendAtOnce(10, () =>
      post('honeypot_check', body(scenario.tokens.clean.address), { 'x-payment': proof }),
    );
    expect(runs).toBe(1);
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    const first = responses.find((response) => response.status === 200);
    expect(first).toBeDefined();
    const charged = async () => {
      const now = await Promise.all([balance(solanaPayments.payTo.tokenAccount), balance(tokenAccount)]);
      return [now[0] - before[0], before[1] - now[1]];
    };
    expect(await charged()).toEqual([HONEYPOT_PRICE, HONEYPOT_PRICE]);
    // Replayed for the same request: the first answer again; for another request: refused.
    const again = await post('honeypot_check', body(scenario.tokens.clean.address), { 'x-payment': proof });
    expect(again.status).toBe(200);
    expect(again.headers.get('payment-response')).toBe(first?.headers.get('payment-response'));
    const replay = await post('honeypot_check', body(scenario.tokens.mintable.address), {
      'payment-signature': proof,
    });
    expect(replay.status).toBe(402);
    expect((await json(replay)).error).toBe('payment_already_used');
    expect(await charged()).toEqual([HONEYPOT_PRICE, HONEYPOT_PRICE]);
  });

  it('settles the same transaction once however often the facilitator is asked, concurrently or later', async () => {
    const { client, tokenAccount } = await payer(4);
    const quote = await quoteOf('honeypot_check', scenario.tokens.clean.address);
    const requirements = solanaOption(quote);
    const payload = await client.createPaymentPayload({ ...quote, accepts: [requirements] });
    const before = await balance(tokenAccount);
    const settle = () =>
      fetch(`${stack.facilitator.url}/settle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...stack.facilitator.auth },
        body: JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: requirements }),
      }).then(json);
    const answers = await Promise.all(Array.from({ length: 5 }, settle));
    const transactions = new Set(answers.map((answer) => answer.transaction));
    expect(answers.every((answer) => answer.success === true)).toBe(true);
    expect(transactions.size).toBe(1);
    expect(await settle()).toEqual(answers[0]);
    expect(before - (await balance(tokenAccount))).toBe(HONEYPOT_PRICE);
  });
});
