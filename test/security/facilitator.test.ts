import { createKeyPairSignerFromBytes, getBase58Encoder, type TransactionSigner } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLANA_DEVNET_CAIP2 } from '../../api/facilitator/svmFacilitator.ts';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { paymentTokenBalance, type PaymentTokenInfo } from '../../infra/devnet/paymentToken.ts';
import { cancelOnChain, randomNonce, signAuthorization, submitOnChain } from '../support/attacks.ts';
import { isolatedEnv, testStack } from '../support/fixtures.ts';
import {
  fundedPayer,
  requirementsFor,
  setupPaymentToken,
  startTestFacilitator,
  type TestFacilitator,
} from '../support/payments.ts';
import { startRecordingRpc } from '../support/recordingRpc.ts';
import { awayFromMinuteEdge } from '../support/until.ts';

const PRICE = 10_000n;

// The facilitator holds a funded signer (and a Solana fee payer). Whoever can
// reach it must not be able to make it spend gas, relay transfers, or burn RPC quota.
describe('the facilitator serves Vigil alone (attacks)', () => {
  const { rpcUrl, solanaRpcUrl, solanaPayments } = testStack();
  const chain = createDevnetClient(rpcUrl);
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  let token: PaymentTokenInfo;
  let rpc: Awaited<ReturnType<typeof startRecordingRpc>>;
  let fac: TestFacilitator;

  beforeAll(async () => {
    [token, rpc] = await Promise.all([setupPaymentToken(rpcUrl), startRecordingRpc(rpcUrl)]);
    fac = await startTestFacilitator(isolatedEnv(), rpc.url, token, { payees: [payTo], solana: true });
  });
  afterAll(async () => {
    await fac?.close();
    await rpc?.close();
  });

  const post = async (
    path: '/verify' | '/settle',
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    headers: Record<string, string> = {},
    target: TestFacilitator = fac,
  ) => {
    const response = await target.app.inject({
      method: 'POST',
      url: path,
      headers,
      payload: { x402Version: 2, paymentPayload: payload, paymentRequirements: requirements },
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };
  /** What the signer has sent, and what it has to pay gas with. */
  const signerState = async () =>
    Promise.all([
      chain.getTransactionCount({ address: fac.signer, blockTag: 'pending' }),
      chain.getBalance({ address: fac.signer }),
    ]);

  it('never makes its signer send for 0-value or dust transfers, self-transfers from unfunded keys, or transfers to anyone but a payee', async () => {
    const unfunded = generatePrivateKey();
    const self = privateKeyToAccount(unfunded).address;
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const attempts: [string, PaymentPayload, PaymentRequirements][] = [];
    const add = async (label: string, key: Hex, to: Address, value: bigint) => {
      const requirements = requirementsFor(token, to, value);
      attempts.push([
        label,
        await signAuthorization(key, token, requirements, { to, value, nonce: randomNonce() }),
        requirements,
      ]);
    };
    await add('0 to self from an unfunded key', unfunded, self, 0n);
    await add('0 to the payee from an unfunded key', unfunded, payTo, 0n);
    await add('dust to the payee', payer.privateKey, payTo, 1n);
    await add('a free relay to a stranger', payer.privateKey, stranger, 1_000_000n);
    const before = await signerState();
    const answers = [];
    for (const [label, payload, requirements] of attempts)
      for (const headers of [{}, fac.auth])
        answers.push({ label, ...(await post('/settle', payload, requirements, headers)) });
    expect(answers.filter((answer) => answer.body.success === true).map((answer) => answer.label)).toEqual(
      [],
    );
    expect(await signerState()).toEqual(before);
    expect(await paymentTokenBalance(rpcUrl, token.address, stranger)).toBe(0n);
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(1_000_000n);
  });

  it('refuses anonymous callers, a wrong EIP-712 domain and a below-minimum amount without a single chain read, and searches a spent nonce once however the requirements vary', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const nonce = randomNonce();
    const payload = await signAuthorization(payer.privateKey, token, requirements, {
      to: payTo,
      value: PRICE,
      nonce,
    });
    const fake = { ...requirements, extra: { name: 'USD Coin', version: '1' } };
    const underpriced = requirementsFor(token, payTo, 1n);
    const dust = await signAuthorization(payer.privateKey, token, underpriced, {
      to: payTo,
      value: 1n,
      nonce: randomNonce(),
    });
    rpc.calls.length = 0;
    expect((await post('/settle', payload, requirements)).status).toBe(401);
    expect((await post('/verify', payload, requirements)).status).toBe(401);
    expect((await post('/settle', { ...payload, accepted: fake }, fake, fac.auth)).body.success).toBe(false);
    expect((await post('/settle', dust, underpriced, fac.auth)).body.success).toBe(false);
    expect(rpc.calls).toEqual([]);

    // The payer spends the nonce (cancels it), then asks for its settlement under ever new
    // requirements (maxTimeoutSeconds varied: each a new payload, a new stored refusal).
    await chain.waitForTransactionReceipt({
      hash: await cancelOnChain(rpcUrl, token, payer.privateKey, nonce),
    });
    rpc.calls.length = 0;
    for (let variant = 0; variant < 8; variant++) {
      const varied = { ...requirements, maxTimeoutSeconds: 300 + variant };
      const answer = await post('/settle', { ...payload, accepted: varied }, varied, fac.auth);
      expect(answer.body).toMatchObject({
        success: false,
        errorReason: 'invalid_exact_evm_nonce_already_used',
      });
    }
    const searches = rpc.calls.filter((call) => call.method === 'eth_getLogs');
    expect(searches.length).toBeLessThanOrEqual(1);
    for (const search of searches) {
      const { fromBlock, toBlock } = search.params[0] as { fromBlock: Hex; toBlock: Hex };
      expect(BigInt(toBlock) - BigInt(fromBlock)).toBeLessThanOrEqual(2_000n);
    }
  });

  it('refuses a body that is not an x402 v2 exact request with 400 and an x402 reason, before any chain read, whatever network it names; a signed payment still verifies', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const payload = await signAuthorization(payer.privateKey, token, requirements, {
      to: payTo,
      value: PRICE,
      nonce: randomNonce(),
    });
    const solana = { ...requirements, network: SOLANA_DEVNET_CAIP2 };
    const { maxTimeoutSeconds: _dropped, ...noTimeout } = solana;
    const raw = async (path: string, body: unknown) => {
      const response = await fac.app.inject({
        method: 'POST',
        url: path,
        headers: { ...fac.auth, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
    };
    const envelope = (paymentPayload: unknown, paymentRequirements: unknown, extra = {}) => ({
      x402Version: 2,
      paymentPayload,
      paymentRequirements,
      ...extra,
    });
    rpc.calls.length = 0;
    const refusals = [
      ['/verify', null, 'invalid_x402_version'],
      ['/settle', [], 'invalid_x402_version'],
      ['/verify', envelope(payload, { ...requirements, scheme: 'upto' }), 'invalid_payment_requirements'],
      // A Solana body on the Solana path is checked as strictly as an EVM one.
      ['/settle', envelope({ ...payload, accepted: noTimeout }, noTimeout), 'invalid_payment_requirements'],
      [
        '/refund',
        envelope({ ...payload, accepted: noTimeout }, noTimeout, { refundOf: '0x' }),
        'invalid_payment_requirements',
      ],
      ['/settle', envelope({ ...payload, payload: { authorization: {} } }, requirements), 'invalid_payload'],
      ['/refund', envelope(payload, requirements, { refundOf: 7 }), 'invalid_payload'],
    ] as const;
    for (const [path, body, reason] of refusals) {
      const answer = await raw(path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body['invalidReason'] ?? answer.body['errorReason']).toBe(reason);
    }
    expect(rpc.calls).toEqual([]);
    const verdict = await post('/verify', payload, requirements, fac.auth);
    expect(verdict).toMatchObject({ status: 200, body: { isValid: true } });
  });

  it('takes a signer nonce only for a transfer whose simulation passed: failing settles in the middle of good ones stall nothing', async () => {
    const requirements = requirementsFor(token, payTo, PRICE);
    const [good, bad] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, () => fundedPayer(rpcUrl, token, PRICE))),
      Promise.all(Array.from({ length: 6 }, () => fundedPayer(rpcUrl, token, PRICE))),
    ]);
    const sign = (key: Hex) =>
      signAuthorization(key, token, requirements, { to: payTo, value: PRICE, nonce: randomNonce() });
    const [goodPayloads, badPayloads] = await Promise.all([
      Promise.all(good.map((payer) => sign(payer.privateKey))),
      Promise.all(bad.map((payer) => sign(payer.privateKey))),
    ]);
    // The bad payers pass verification, then move their money away before settlement: their
    // transfers can no longer succeed, and the facilitator has just seen them valid.
    for (const payload of badPayloads)
      expect((await post('/verify', payload, requirements, fac.auth)).body.isValid).toBe(true);
    const sink = privateKeyToAccount(generatePrivateKey()).address;
    await Promise.all(
      bad.map(async (payer) =>
        submitOnChain(
          rpcUrl,
          token,
          await signAuthorization(payer.privateKey, token, requirementsFor(token, sink, PRICE), {
            to: sink,
            value: PRICE,
            nonce: randomNonce(),
          }),
        ),
      ),
    );
    const mixed = [...goodPayloads.slice(0, 6), ...badPayloads, ...goodPayloads.slice(6)];
    const answers = await Promise.all(
      mixed.map((payload) => post('/settle', payload, requirements, fac.auth)),
    );
    const succeeded = answers.filter((answer) => answer.body.success === true);
    expect(succeeded).toHaveLength(good.length);
    const [pending, latest] = await Promise.all([
      chain.getTransactionCount({ address: fac.signer, blockTag: 'pending' }),
      chain.getTransactionCount({ address: fac.signer, blockTag: 'latest' }),
    ]);
    // Nothing waits behind a gap: every nonce the signer used is mined.
    expect(pending).toBe(latest);
    expect(await paymentTokenBalance(rpcUrl, token.address, sink)).toBe(PRICE * BigInt(bad.length));
  });

  it('does not turn a burst of anonymous health checks into as many chain reads', async () => {
    rpc.calls.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fac.app.inject({ method: 'GET', url: '/healthz' })),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    // One probe (chain id and the signer's balance, and Solana's two reads) serves them all.
    expect(rpc.calls.length).toBeLessThanOrEqual(4);
  });

  it('is rate-limited per caller and per address', async () => {
    await awayFromMinuteEdge(); // the limit counts in fixed wall-clock minutes
    const limited = await startTestFacilitator(isolatedEnv(), rpcUrl, token, {
      payees: [payTo],
      listen: false,
      rateLimitPerMinute: 3,
      publicRateLimitPerMinute: 3,
    });
    try {
      const requirements = requirementsFor(token, payTo, PRICE);
      const payer = await fundedPayer(rpcUrl, token, PRICE);
      const payload = await signAuthorization(payer.privateKey, token, requirements, {
        to: payTo,
        value: PRICE,
        nonce: randomNonce(),
      });
      const verdicts = [];
      for (let call = 0; call < 5; call++)
        verdicts.push((await post('/verify', payload, requirements, limited.auth, limited)).status);
      expect(verdicts.slice(3)).toEqual([429, 429]);
      const reads = [];
      for (let call = 0; call < 5; call++)
        reads.push((await limited.app.inject({ method: 'GET', url: '/supported' })).statusCode);
      expect(reads.slice(3)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('never makes the Solana fee payer settle for anonymous callers, to a wallet that is not a payee, or below the smallest price', async () => {
    const requirements: PaymentRequirements = {
      scheme: 'exact',
      network: SOLANA_DEVNET_CAIP2,
      amount: PRICE.toString(),
      asset: solanaPayments.mint,
      payTo: solanaPayments.payTo.address,
      maxTimeoutSeconds: 60,
      extra: { feePayer: solanaPayments.feePayer.address },
    };
    const entry = solanaPayments.payers[12];
    const bystander = solanaPayments.payers[13];
    if (!entry || !bystander) throw new Error('the devnet has too few payers');
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(entry.secretKey));
    const signed = (payer: TransactionSigner, required: PaymentRequirements) =>
      x402Client
        .fromConfig({
          schemes: [
            { network: SOLANA_DEVNET_CAIP2, client: new ExactSvmScheme(payer, { rpcUrl: solanaRpcUrl }) },
          ],
          spendControls: false,
        })
        .createPaymentPayload({
          x402Version: 2,
          resource: { url: 'http://vigil.test/paid' },
          accepts: [required],
        });
    const relay = { ...requirements, payTo: bystander.address };
    const dust = { ...requirements, amount: '1' };
    const attempts: [PaymentPayload, PaymentRequirements, Record<string, string>][] = [
      [await signed(signer, requirements), requirements, {}],
      [await signed(signer, relay), relay, fac.auth],
      [await signed(signer, dust), dust, fac.auth],
    ];
    const balance = async (account: string) =>
      BigInt(
        (
          (await (
            await fetch(solanaRpcUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'getTokenAccountBalance',
                params: [account],
              }),
            })
          ).json()) as { result: { value: { amount: string } } }
        ).result.value.amount,
      );
    const before = await balance(entry.tokenAccount);
    const answers = [];
    for (const [payload, required, headers] of attempts)
      answers.push(await post('/settle', payload, required, headers));
    expect(answers.map((answer) => answer.body.success === true)).toEqual([false, false, false]);
    expect(await balance(entry.tokenAccount)).toBe(before);
  });
});
