import { createKeyPairSignerFromBytes, getBase58Encoder } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { describe, expect, it } from 'vitest';
import { testStack } from '../../test/support/fixtures.ts';
import { PaymentProofError, readAnyPaymentProof, readPaymentProof } from './proof.ts';
import { svmPaymentKey } from './svmProof.ts';

const NETWORK = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';

describe('Solana payment proofs', () => {
  const { solanaRpcUrl, solanaPayments } = testStack();
  const requirements = {
    scheme: 'exact',
    network: NETWORK,
    amount: '10000',
    asset: solanaPayments.mint,
    payTo: solanaPayments.payTo.address,
    maxTimeoutSeconds: 60,
    extra: { feePayer: solanaPayments.feePayer.address },
  } as const;
  const signedProof = async () => {
    const payer = solanaPayments.payers[7];
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(payer?.secretKey ?? ''));
    const client = x402Client.fromConfig({
      schemes: [{ network: NETWORK, client: new ExactSvmScheme(signer, { rpcUrl: solanaRpcUrl }) }],
      spendControls: false,
    });
    const payload = await client.createPaymentPayload({
      x402Version: 2,
      resource: { url: 'http://vigil.test/paid' },
      accepts: [requirements],
    });
    return { header: encodePaymentSignatureHeader(payload), payer: signer.address, payload };
  };

  it('reads the payer and a per-transaction key from a signed transfer; the EVM-only reader refuses it', async () => {
    const first = await signedProof();
    const second = await signedProof();
    const proof = readAnyPaymentProof({ 'payment-signature': first.header });
    expect(proof).toMatchObject({ family: 'svm', payer: first.payer });
    const again = readAnyPaymentProof({ 'x-payment': second.header });
    // The same payment signed twice is two transactions (a fresh memo nonce each): two keys.
    expect(
      proof?.family === 'svm' && again?.family === 'svm' && proof.messageHash !== again.messageHash,
    ).toBe(true);
    expect(() => readPaymentProof({ 'x-payment': first.header })).toThrow(PaymentProofError);
  });

  it('refuses a Solana payload whose transaction does not decode, as invalid_payload', async () => {
    const { payload } = await signedProof();
    const broken = encodePaymentSignatureHeader({ ...payload, payload: { transaction: 'AAAA' } });
    let refused: unknown;
    try {
      readAnyPaymentProof({ 'x-payment': broken });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(PaymentProofError);
    expect((refused as PaymentProofError).reason).toBe('invalid_payload');
  });

  it('keys a payment by network, mint, payer and message hash, without folding case', () => {
    expect(svmPaymentKey(NETWORK, 'Mint', 'Payer', 'aB+/=')).toBe(`${NETWORK}:Mint:Payer:aB+/=`);
    expect(svmPaymentKey(NETWORK, 'Mint', 'Payer', 'ab+/=')).not.toBe(
      svmPaymentKey(NETWORK, 'Mint', 'Payer', 'AB+/='),
    );
  });
});
