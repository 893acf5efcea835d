import {
  type Address,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  signBytes,
} from '@solana/kit';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLANA_DEVNET_CAIP2 } from '../../api/facilitator/svmFacilitator.ts';
import { testStack } from '../support/fixtures.ts';
import { type PaymentsStack, sendAtOnce, startPaymentsStack } from '../support/payments.ts';

const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
/** The most a transaction may ask for, and the SDK's default cap on the price per unit. */
const MAX_UNITS = 1_400_000;
const MAX_SDK_PRICE_MICROLAMPORTS = 5_000_000n;

/**
 * The official client's payment with its compute budget rewritten and signed again by the payer:
 * the payer's own transaction, whose fees the facilitator's fee payer pays.
 */
async function withComputeBudget(
  payload: PaymentPayload,
  secretKey: string,
  units: number,
  microLamports: bigint,
): Promise<PaymentPayload> {
  const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(secretKey));
  const { transaction } = payload.payload as { transaction: string };
  const decoded = getTransactionDecoder().decode(getBase64Encoder().encode(transaction));
  const message = getCompiledTransactionMessageDecoder().decode(decoded.messageBytes);
  if (message.version === 1) throw new Error('the client sends a legacy or v0 message');
  const budgetIndex = message.staticAccounts.findIndex((account) => account === COMPUTE_BUDGET);
  const instructions = message.instructions.map((instruction) => {
    if (instruction.programAddressIndex !== budgetIndex || !instruction.data) return instruction;
    const data = new Uint8Array(instruction.data);
    const view = new DataView(data.buffer);
    if (data[0] === 2) view.setUint32(1, units, true);
    if (data[0] === 3) view.setBigUint64(1, microLamports, true);
    return { ...instruction, data };
  });
  const messageBytes = getCompiledTransactionMessageEncoder().encode({ ...message, instructions });
  const signature = await signBytes(signer.keyPair.privateKey, messageBytes);
  const signatures = { ...decoded.signatures, [signer.address]: signature };
  const wire = getTransactionEncoder().encode({ messageBytes, signatures } as never);
  return { ...payload, payload: { transaction: Buffer.from(wire).toString('base64') } };
}

// The payer builds the Solana transaction, and the facilitator's fee payer pays its fees: base fee
// plus compute-unit price × compute-unit limit, both chosen by the payer.
describe('the Solana fee payer against a payer’s compute budget (attacks)', () => {
  const { scenario, solanaRpcUrl, solanaPayments } = testStack();
  const rpc = createSolanaRpc(solanaRpcUrl);
  let stack: PaymentsStack;

  beforeAll(async () => {
    stack = await startPaymentsStack({ solana: true });
  });
  afterAll(() => stack?.close());

  const call = (headers: Record<string, string> = {}) =>
    fetch(`${stack.api}/api/v1/x402-tools/honeypot_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ chain: 'devnet', address: scenario.tokens.honeypot.address }),
    });
  const lamports = async (address: string) => (await rpc.getBalance(address as Address).send()).value;

  it('refuses a payment whose compute budget would make the fee payer pay more than the payment is worth', async () => {
    const entry = solanaPayments.payers[14];
    if (!entry) throw new Error('the devnet has too few payers');
    const quote: PaymentRequired = decodePaymentRequiredHeader(
      (await call()).headers.get('payment-required') ?? '',
    );
    const option = quote.accepts.find(
      (accepted) => accepted.network === SOLANA_DEVNET_CAIP2,
    ) as PaymentRequirements;
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(entry.secretKey));
    const client = x402Client.fromConfig({
      schemes: [
        { network: SOLANA_DEVNET_CAIP2, client: new ExactSvmScheme(signer, { rpcUrl: solanaRpcUrl }) },
      ],
      spendControls: false,
    });
    const honest = await client.createPaymentPayload({ ...quote, accepts: [option] });
    const before = await lamports(solanaPayments.feePayer.address);
    // All the units a transaction may ask for, the SDK's top price per unit, and both at once.
    for (const [units, price] of [
      [MAX_UNITS, 1n],
      [20_000, MAX_SDK_PRICE_MICROLAMPORTS],
      [MAX_UNITS, MAX_SDK_PRICE_MICROLAMPORTS],
    ] as const) {
      const greedy = await withComputeBudget({ ...honest, accepted: option }, entry.secretKey, units, price);
      const { responses, runs } = await sendAtOnce(1, () =>
        call({ 'x-payment': encodePaymentSignatureHeader(greedy) }),
      );
      const answer = responses[0] as Response;
      expect({ units, price, status: answer.status, runs }).toEqual({ units, price, status: 402, runs: 0 });
      expect(((await answer.json()) as { error: string }).error).toMatch(
        /compute_(limit|price)_instruction_too_high/,
      );
    }
    // 1.4 M units at 5 lamports each were 0.007 SOL of the fee payer's for a $0.01 payment.
    expect(before - (await lamports(solanaPayments.feePayer.address))).toBe(0n);
    // The official client's own payment still settles, for its base fees and a negligible priority fee.
    const paid = await call({ 'x-payment': encodePaymentSignatureHeader({ ...honest, accepted: option }) });
    expect(paid.status).toBe(200);
    const spent = before - (await lamports(solanaPayments.feePayer.address));
    expect(spent).toBeGreaterThan(0n);
    expect(spent).toBeLessThanOrEqual(20_000n);
  });
});
