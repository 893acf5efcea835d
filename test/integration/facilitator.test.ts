import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { createPublicClient, createWalletClient, type Hex, http, publicActions } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fiatTokenAbi,
  fundedDevAccount,
  paymentTokenBalance,
  type PaymentTokenInfo,
} from '../../infra/devnet/paymentToken.ts';
import { isolatedEnv, testStack } from '../support/fixtures.ts';
import {
  fundedPayer,
  paymentRequiredFor,
  payerClient,
  requirementsFor,
  setupPaymentToken,
  startDedicatedChain,
  startTestFacilitator,
  type TestFacilitator,
} from '../support/payments.ts';
import { startRecordingRpc } from '../support/recordingRpc.ts';

const PRICE = 50_000n;

describe('the x402 facilitator on the devnet (FiatTokenV2_2, @x402/evm)', () => {
  const { rpcUrl } = testStack();
  let token: PaymentTokenInfo;
  let other: PaymentTokenInfo;
  let fac: TestFacilitator;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;

  beforeAll(async () => {
    [token, other] = await Promise.all([setupPaymentToken(rpcUrl), setupPaymentToken(rpcUrl)]);
    fac = await startTestFacilitator(isolatedEnv(), rpcUrl, token, { listen: false, payees: [payTo] });
  });
  afterAll(() => fac?.close());

  const post = async (
    path: '/verify' | '/settle',
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ) => {
    const response = await fac.app.inject({
      method: 'POST',
      url: path,
      headers: fac.auth,
      payload: { x402Version: 2, paymentPayload: payload, paymentRequirements: requirements },
    });
    return { status: response.statusCode, body: response.json() };
  };

  async function signed(payerKey: `0x${string}`, signedFor: PaymentRequirements) {
    return payerClient(payerKey, token).createPaymentPayload(paymentRequiredFor(signedFor));
  }

  it('runs on a devnet whose clock is the wall clock, as authorizations are dated by it', async () => {
    const latest = await createPublicClient({ transport: http(rpcUrl) }).getBlock({ blockTag: 'latest' });
    expect(Math.abs(Number(latest.timestamp) - Date.now() / 1000)).toBeLessThan(120);
  });

  it('lists its network, asset with EIP-712 domain, signer and limits; says Solana is not offered', async () => {
    const supported = (await fac.app.inject({ method: 'GET', url: '/supported' })).json();
    expect(supported.kinds).toEqual([{ x402Version: 2, scheme: 'exact', network: 'eip155:31337' }]);
    expect(supported.assets[0]).toMatchObject({
      address: token.address,
      name: 'USD Coin',
      version: '2',
      decimals: 6,
    });
    expect(supported.signers['eip155:*']).toEqual([fac.signer]);
    expect(supported.unsupported[0].network).toMatch(/^solana:/);
    const health = await fac.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      rpc: { reachable: true, chain_id: 31337 },
      signer: { funded: true },
    });
  });

  it('verifies, settles exactly the amount once, and answers a repeated settle with the same receipt', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const payload = await signed(payer.privateKey, requirements);
    const before = await paymentTokenBalance(rpcUrl, token.address, payTo);
    expect((await post('/verify', payload, requirements)).body).toMatchObject({
      isValid: true,
      payer: payer.account.address,
    });
    const [first, second] = await Promise.all([
      post('/settle', payload, requirements),
      post('/settle', payload, requirements),
    ]);
    expect(first.body.success).toBe(true);
    expect(second.body).toEqual(first.body);
    const third = await post('/settle', payload, requirements);
    expect(third.body).toEqual(first.body);
    expect(await paymentTokenBalance(rpcUrl, token.address, payTo)).toBe(before + PRICE);
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(1_000_000n - PRICE);
    const client = createPublicClient({ transport: http(rpcUrl) });
    const receipt = await client.getTransactionReceipt({ hash: first.body.transaction });
    expect(receipt.status).toBe('success');
    // Replaying the used authorization is refused with the precise reason.
    expect((await post('/verify', payload, requirements)).body).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_nonce_already_used',
    });
  });

  it('refuses tampered, misdirected, wrong-asset, expired and underfunded proofs, moving nothing', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const poor = await fundedPayer(rpcUrl, token, PRICE - 1n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const cheaper = await signed(payer.privateKey, { ...requirements, amount: '10000' });
    const elsewhere = await signed(payer.privateKey, {
      ...requirements,
      payTo: privateKeyToAccount(generatePrivateKey()).address,
    });
    const wrongAsset = await payerClient(payer.privateKey, other).createPaymentPayload(
      paymentRequiredFor({ ...requirements, asset: other.address }),
    );
    const valid = await signed(payer.privateKey, requirements);
    const auth = (valid.payload as { authorization: Record<string, string> }).authorization;
    // Re-pointing a signed authorization at more money breaks its signature.
    const inflated = {
      ...valid,
      payload: { ...valid.payload, authorization: { ...auth, value: '60000' } },
      accepted: { ...valid.accepted, amount: '60000' },
    };
    // Valid for one second: already past the window any settlement needs.
    const shortLived = { ...requirements, maxTimeoutSeconds: 1 };
    const expired = await signed(payer.privateKey, shortLived);
    const underfunded = await signed(poor.privateKey, requirements);

    const cases: [string, PaymentPayload, PaymentRequirements, string][] = [
      ['tampered amount', cheaper, requirements, 'invalid_exact_evm_payload_authorization_value_mismatch'],
      [
        'inflated after signing',
        inflated,
        { ...requirements, amount: '60000' },
        'invalid_exact_evm_signature',
      ],
      ['wrong recipient', elsewhere, requirements, 'invalid_exact_evm_recipient_mismatch'],
      ['wrong asset', wrongAsset, requirements, 'invalid_exact_evm_asset_mismatch'],
      ['expired', expired, shortLived, 'invalid_exact_evm_payload_authorization_valid_before'],
      ['underfunded', underfunded, requirements, 'invalid_exact_evm_insufficient_balance'],
    ];
    const before = await Promise.all(
      [payTo, payer.account.address, poor.account.address].map((a) =>
        paymentTokenBalance(rpcUrl, token.address, a),
      ),
    );
    for (const [name, payload, reqs, reason] of cases) {
      const verify = await post('/verify', payload, reqs);
      expect(verify.body, name).toMatchObject({ isValid: false, invalidReason: reason });
      const settle = await post('/settle', payload, reqs);
      expect(settle.body, name).toMatchObject({ success: false, errorReason: reason, transaction: '' });
    }
    const after = await Promise.all(
      [payTo, payer.account.address, poor.account.address].map((a) =>
        paymentTokenBalance(rpcUrl, token.address, a),
      ),
    );
    expect(after).toEqual(before);
  });

  it('settles 25 distinct payments at once without colliding on the signer nonce', async () => {
    const requirements = requirementsFor(token, payTo, PRICE);
    const payers = await Promise.all(Array.from({ length: 25 }, () => fundedPayer(rpcUrl, token, PRICE)));
    const payloads = await Promise.all(payers.map((payer) => signed(payer.privateKey, requirements)));
    const before = await paymentTokenBalance(rpcUrl, token.address, payTo);
    const results = await Promise.all(payloads.map((payload) => post('/settle', payload, requirements)));
    expect(results.map((result) => result.body.success)).toEqual(payers.map(() => true));
    expect(new Set(results.map((result) => result.body.transaction)).size).toBe(25);
    expect(await paymentTokenBalance(rpcUrl, token.address, payTo)).toBe(before + PRICE * 25n);
  });

  it('recovers a settlement whose record was lost from the token’s AuthorizationUsed log', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const payload = await signed(payer.privateKey, requirements);
    const before = await paymentTokenBalance(rpcUrl, token.address, payTo);
    const first = await post('/settle', payload, requirements);
    expect(first.body.success).toBe(true);
    // Another facilitator over an empty store: as if the first crashed after broadcasting, or
    // its Redis lost the answer. The chain still knows which transaction used the authorization.
    const amnesiac = await startTestFacilitator(isolatedEnv(), rpcUrl, token, {
      listen: false,
      payees: [payTo],
    });
    try {
      const again = await amnesiac.app.inject({
        method: 'POST',
        url: '/settle',
        headers: amnesiac.auth,
        payload: { x402Version: 2, paymentPayload: payload, paymentRequirements: requirements },
      });
      expect(again.json()).toEqual(first.body);
      expect(again.headers['server-timing']).toMatch(/\brecover;dur=/);
    } finally {
      await amnesiac.close();
    }
    expect(await paymentTokenBalance(rpcUrl, token.address, payTo)).toBe(before + PRICE);
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(1_000_000n - PRICE);
  });

  it('does not mistake a nonce the payer cancelled for a settlement', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const payload = await signed(payer.privateKey, requirements);
    const { nonce } = (payload.payload as { authorization: { nonce: Hex } }).authorization;
    const signature = await payer.account.signTypedData({
      domain: {
        name: token.name,
        version: token.version,
        chainId: 31337,
        verifyingContract: token.address as Hex,
      },
      types: {
        CancelAuthorization: [
          { name: 'authorizer', type: 'address' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'CancelAuthorization',
      message: { authorizer: payer.account.address, nonce },
    });
    const sender = await fundedDevAccount(rpcUrl);
    const wallet = createWalletClient({ account: sender.account, transport: http(rpcUrl) }).extend(
      publicActions,
    );
    const hash = await wallet.writeContract({
      address: token.address as Hex,
      abi: fiatTokenAbi,
      functionName: 'cancelAuthorization',
      args: [payer.account.address, nonce, signature],
      chain: null,
    });
    expect((await wallet.waitForTransactionReceipt({ hash })).status).toBe('success');
    const settle = await post('/settle', payload, requirements);
    expect(settle.body).toMatchObject({
      success: false,
      errorReason: 'invalid_exact_evm_nonce_already_used',
      transaction: '',
    });
    expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(1_000_000n);
  });

  it('settles through an RPC without eth_fillTransaction: gas estimated (the simulation) before a nonce is taken', async () => {
    const plain = await startRecordingRpc(rpcUrl);
    plain.refuse(['eth_fillTransaction']);
    const bare = await startTestFacilitator(isolatedEnv(), plain.url, token, {
      listen: false,
      payees: [payTo],
    });
    try {
      const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
      const requirements = requirementsFor(token, payTo, PRICE);
      const payload = await signed(payer.privateKey, requirements);
      plain.calls.length = 0;
      const settled = await bare.app.inject({
        method: 'POST',
        url: '/settle',
        headers: bare.auth,
        payload: { x402Version: 2, paymentPayload: payload, paymentRequirements: requirements },
      });
      expect(settled.json()).toMatchObject({ success: true });
      const methods = plain.calls.map((call) => call.method);
      expect(methods.indexOf('eth_estimateGas')).toBeGreaterThanOrEqual(0);
      expect(methods.indexOf('eth_estimateGas')).toBeLessThan(methods.indexOf('eth_sendRawTransaction'));
      expect(await paymentTokenBalance(rpcUrl, token.address, payer.account.address)).toBe(
        1_000_000n - PRICE,
      );
    } finally {
      await bare.close();
      await plain.close();
    }
  });

  it('reports itself unhealthy (503) with an unfunded signer, and down when its RPC is gone', async () => {
    const broke = await startTestFacilitator(isolatedEnv(), rpcUrl, token, {
      listen: false,
      payees: [payTo],
      signerEther: '0',
    });
    try {
      const health = await broke.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({
        status: 'degraded',
        rpc: { reachable: true },
        signer: { balance_wei: '0', funded: false },
      });
    } finally {
      await broke.close();
    }
    const chain = await startDedicatedChain();
    const orphan = await startTestFacilitator(isolatedEnv(), chain.rpcUrl, chain.token, {
      listen: false,
      payees: [payTo],
    });
    try {
      await chain.stop();
      const health = await orphan.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: 'down', rpc: { reachable: false } });
      // Viem's short message only: its long one quotes the request bodies.
      expect(health.json().rpc.error).toBe('HTTP request failed.');
    } finally {
      await orphan.close();
    }
  });

  it('refuses a body that is not an x402 request with 400 and the reason', async () => {
    const response = await fac.app.inject({
      method: 'POST',
      url: '/verify',
      headers: fac.auth,
      payload: { x402Version: 1, paymentPayload: {}, paymentRequirements: {} },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ isValid: false, invalidReason: 'invalid_x402_version' });
    expect(
      await paymentTokenBalance(rpcUrl, token.address, '0x0000000000000000000000000000000000000001'),
    ).toBe(0n);
  });
});
