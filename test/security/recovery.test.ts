import { fileURLToPath } from 'node:url';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import {
  type Address,
  createWalletClient,
  encodeDeployData,
  type Hex,
  http,
  parseSignature,
  publicActions,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContracts } from '../../infra/devnet/compile.ts';
import {
  fundedDevAccount,
  paymentTokenBalance,
  type PaymentTokenInfo,
} from '../../infra/devnet/paymentToken.ts';
import { randomNonce, signAuthorization } from '../support/attacks.ts';
import { isolatedEnv, testStack } from '../support/fixtures.ts';
import {
  fundedPayer,
  requirementsFor,
  setupPaymentToken,
  startTestFacilitator,
  type TestFacilitator,
} from '../support/payments.ts';

const CHEAP = 10_000n;
const PRICE = 50_000n;

// A settlement whose answer is not stored is looked for on chain; only the exact
// transferWithAuthorization of the payload being settled may count, never a transfer that happens
// to match inside some other transaction.
describe('recovery of a settlement from the chain (attacks)', () => {
  const { rpcUrl } = testStack();
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  let token: PaymentTokenInfo;
  let fac: TestFacilitator;
  let batch: { address: Address; run(payloads: PaymentPayload[]): Promise<Hex> };

  beforeAll(async () => {
    token = await setupPaymentToken(rpcUrl);
    // A facilitator with its own empty store: every settle it is asked for is a "lost answer".
    fac = await startTestFacilitator(isolatedEnv(), rpcUrl, token, { payees: [payTo], listen: false });
    const artifacts = await compileContracts({
      sourceDir: fileURLToPath(new URL('./contracts/', import.meta.url)),
    });
    const artifact = artifacts.AuthorizationBatch;
    if (!artifact) throw new Error('AuthorizationBatch was not compiled');
    const owner = await fundedDevAccount(rpcUrl);
    const wallet = createWalletClient({ account: owner.account, transport: http(rpcUrl) }).extend(
      publicActions,
    );
    const deployed = await wallet.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({
        data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode }),
        gas: 3_000_000n,
        chain: null,
      }),
    });
    const address = deployed.contractAddress as Address;
    batch = {
      address,
      async run(payloads) {
        const calls = payloads.map((payload) => {
          const { authorization, signature } = payload.payload as {
            authorization: Record<'from' | 'to' | 'value' | 'validAfter' | 'validBefore' | 'nonce', string>;
            signature: Hex;
          };
          const { r, s, v } = parseSignature(signature);
          return {
            from: authorization.from as Address,
            to: authorization.to as Address,
            value: BigInt(authorization.value),
            validAfter: BigInt(authorization.validAfter),
            validBefore: BigInt(authorization.validBefore),
            nonce: authorization.nonce as Hex,
            v: Number(v),
            r,
            s,
          };
        });
        const hash = await wallet.writeContract({
          address,
          abi: artifact.abi,
          functionName: 'run',
          args: [token.address, calls],
          gas: 1_000_000n,
          chain: null,
        });
        const receipt = await wallet.waitForTransactionReceipt({ hash });
        if (receipt.status !== 'success') throw new Error('the batch reverted');
        return hash;
      },
    };
  });
  afterAll(() => fac?.close());

  const settle = async (payload: PaymentPayload, requirements: PaymentRequirements) =>
    (
      await fac.app.inject({
        method: 'POST',
        url: '/settle',
        headers: fac.auth,
        payload: { x402Version: 2, paymentPayload: payload, paymentRequirements: requirements },
      })
    ).json<{ success: boolean; transaction: string }>();

  it('a batch transaction does not pay for authorizations it spent or transfers it happens to contain', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const cheap = requirementsFor(token, payTo, CHEAP);
    const priced = requirementsFor(token, payTo, PRICE);
    const nonce = randomNonce();
    // Spent in the batch: $0.01 under nonce N, and $0.05 under another nonce.
    const spentCheap = await signAuthorization(payer.privateKey, token, cheap, {
      to: payTo,
      value: CHEAP,
      nonce,
    });
    const other = await signAuthorization(payer.privateKey, token, priced, {
      to: payTo,
      value: PRICE,
      nonce: randomNonce(),
    });
    // Never executed: $0.05 under nonce N, whose nonce the batch spent on the $0.01.
    const claimed = await signAuthorization(payer.privateKey, token, priced, {
      to: payTo,
      value: PRICE,
      nonce,
    });
    const hash = await batch.run([spentCheap, other]);
    expect(await paymentTokenBalance(rpcUrl, token.address, payTo)).toBe(CHEAP + PRICE);
    const answers = await Promise.all([
      settle(claimed, priced),
      settle(other, priced),
      settle(spentCheap, cheap),
    ]);
    expect(answers.map((answer) => answer.success)).toEqual([false, false, false]);
    expect(answers.map((answer) => answer.transaction)).not.toContain(hash);
  });
});
