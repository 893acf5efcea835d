import {
  type Address,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Encoder,
  type TransactionSigner,
} from '@solana/kit';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLANA_DEVNET_CAIP2, servesNetwork } from '../../api/facilitator/svmFacilitator.ts';
import { SOLANA_DEVNET_GENESIS_HASH } from '../../core/chains/registry.ts';
import { isolatedEnv, testStack } from '../support/fixtures.ts';
import { setupPaymentToken, startTestFacilitator, type TestFacilitator } from '../support/payments.ts';

describe('the x402 facilitator on the Solana devnet (@x402/svm, LiteSVM)', () => {
  const { rpcUrl, solanaRpcUrl, solanaPayments, solanaMints } = testStack();
  const rpc = createSolanaRpc(solanaRpcUrl);
  let withSolana: TestFacilitator;
  let withoutSolana: TestFacilitator;
  /** An EVM payee for the facilitator's EVM side (unused here). */
  const payees = [privateKeyToAccount(generatePrivateKey()).address];

  beforeAll(async () => {
    const token = await setupPaymentToken(rpcUrl);
    [withSolana, withoutSolana] = await Promise.all([
      startTestFacilitator(isolatedEnv(), rpcUrl, token, { listen: false, solana: true, payees }),
      startTestFacilitator(isolatedEnv(), rpcUrl, token, { listen: false, payees }),
    ]);
  });
  afterAll(() => Promise.all([withSolana?.close(), withoutSolana?.close()]));

  const requirements: PaymentRequirements = {
    scheme: 'exact',
    network: SOLANA_DEVNET_CAIP2,
    amount: '10000',
    asset: solanaPayments.mint,
    payTo: solanaPayments.payTo.address,
    maxTimeoutSeconds: 60,
    extra: { feePayer: solanaPayments.feePayer.address },
  };
  const signed = async (
    signer: TransactionSigner,
    required: PaymentRequirements,
  ): Promise<PaymentPayload> => {
    const client = x402Client.fromConfig({
      schemes: [
        { network: SOLANA_DEVNET_CAIP2, client: new ExactSvmScheme(signer, { rpcUrl: solanaRpcUrl }) },
      ],
      spendControls: false,
    });
    return client.createPaymentPayload({
      x402Version: 2,
      resource: { url: 'http://vigil.test/paid' },
      accepts: [required],
    });
  };
  const payerSigner = (index: number) =>
    createKeyPairSignerFromBytes(getBase58Encoder().encode(solanaPayments.payers[index]?.secretKey ?? ''));
  const post = async (
    fac: TestFacilitator,
    path: '/verify' | '/settle',
    payload: PaymentPayload,
    required: PaymentRequirements,
  ) => {
    const response = await fac.app.inject({
      method: 'POST',
      url: path,
      headers: fac.auth,
      payload: { x402Version: 2, paymentPayload: payload, paymentRequirements: required },
    });
    return { status: response.statusCode, body: response.json() };
  };
  const balance = async (account: string) =>
    BigInt((await rpc.getTokenAccountBalance(account as Address).send()).value.amount);

  it('knows which cluster serves which network, the local devnet posing as Solana devnet', () => {
    expect(servesNetwork(SOLANA_DEVNET_GENESIS_HASH, SOLANA_DEVNET_CAIP2)).toBe(true);
    expect(
      servesNetwork(
        '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d',
        'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      ),
    ).toBe(true);
    expect(servesNetwork(SOLANA_DEVNET_GENESIS_HASH, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBe(false);
    expect(servesNetwork('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d', SOLANA_DEVNET_CAIP2)).toBe(false);
  });

  it('without Solana configured, lists it as not offered and refuses its payments with that reason', async () => {
    const supported = (await withoutSolana.app.inject({ method: 'GET', url: '/supported' })).json();
    expect(supported.kinds.map((kind: { network: string }) => kind.network)).toEqual(['eip155:31337']);
    expect(supported.unsupported[0].network).toMatch(/^solana:/);
    const payload = await signed(await payerSigner(5), requirements);
    const verdict = await post(withoutSolana, '/verify', payload, requirements);
    expect(verdict.body).toMatchObject({ isValid: false, invalidReason: 'invalid_network' });
    const settled = await post(withoutSolana, '/settle', payload, requirements);
    expect(settled.body).toMatchObject({ success: false, errorReason: 'invalid_network', transaction: '' });
  });

  it('verifies a payment without moving anything, and names its payer', async () => {
    const signer = await payerSigner(5);
    const before = await balance(solanaPayments.payers[5]?.tokenAccount ?? '');
    const verdict = await post(withSolana, '/verify', await signed(signer, requirements), requirements);
    expect(verdict).toEqual({ status: 200, body: { isValid: true, payer: signer.address } });
    expect(await balance(solanaPayments.payers[5]?.tokenAccount ?? '')).toBe(before);
  });

  it('refuses a fee payer it does not hold, a mint it does not settle, an amount above its limit and a payer without the tokens', async () => {
    const signer = await payerSigner(6);
    const stranger = await generateKeyPairSigner();
    const cases: [PaymentRequirements, TransactionSigner, string][] = [
      [
        { ...requirements, extra: { feePayer: stranger.address } },
        signer,
        'invalid_exact_svm_fee_payer_not_managed_by_facilitator',
      ],
      [{ ...requirements, asset: solanaMints.sol_clean?.address ?? '' }, signer, 'unsupported_asset'],
      [{ ...requirements, amount: '5000001' }, signer, 'amount_above_limit'],
      [requirements, stranger, 'invalid_exact_svm_transaction_simulation_failed'],
    ];
    for (const [required, payer, reason] of cases) {
      const payload = await signed(payer, required);
      const verdict = await post(withSolana, '/verify', payload, required);
      expect(verdict.body).toMatchObject({ isValid: false, invalidReason: reason });
      const settled = await post(withSolana, '/settle', payload, required);
      expect(settled.body).toMatchObject({ success: false, errorReason: reason, transaction: '' });
    }
  });

  it('settles a transaction once: a facilitator that never saw it (own store) cannot make the chain move funds again', async () => {
    const signer = await payerSigner(8);
    const account = solanaPayments.payers[8]?.tokenAccount ?? '';
    const payload = await signed(signer, requirements);
    const before = await balance(account);
    const first = await post(withSolana, '/settle', payload, requirements);
    expect(first.body).toMatchObject({ success: true, payer: signer.address });
    const token = await setupPaymentToken(rpcUrl);
    const amnesiac = await startTestFacilitator(isolatedEnv(), rpcUrl, token, {
      listen: false,
      solana: true,
      payees,
    });
    try {
      const second = await post(amnesiac, '/settle', payload, requirements);
      // The same signed transaction is refused by the cluster (already processed): nothing sent twice.
      expect(second.body).toMatchObject({
        success: false,
        errorReason: 'invalid_exact_svm_transaction_failed',
        transaction: '',
      });
    } finally {
      await amnesiac.close();
    }
    expect(before - (await balance(account))).toBe(BigInt(requirements.amount));
  });

  it('reports the Solana RPC and the fee payer’s SOL in /healthz', async () => {
    const health = await withSolana.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json().solana).toEqual({
      status: 'ok',
      network: SOLANA_DEVNET_CAIP2,
      rpc: { reachable: true, genesis_hash: SOLANA_DEVNET_GENESIS_HASH, latency_ms: expect.any(Number) },
      // Other test files settle through the same fee payer meanwhile: its balance only has to be read.
      fee_payer: {
        address: solanaPayments.feePayer.address,
        balance_lamports: expect.stringMatching(/^[1-9]\d*$/),
        funded: true,
      },
    });
  });
});
