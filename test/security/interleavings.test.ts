import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployUnlistedToken, paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';
import {
  cancelOnChain,
  movedByServed,
  proofHeader,
  type ServedPurchase,
  signAuthorization,
  startBackendProcess,
  submitOnChain,
} from '../support/attacks.ts';
import { testStack } from '../support/fixtures.ts';
import {
  fundedPayer,
  payerClient,
  paymentRequiredFor,
  type PaymentsStack,
  startPaymentsStack,
} from '../support/payments.ts';
import { until } from '../support/until.ts';

/** A small deterministic generator, so every run fires the same interleavings (and a failure replays). */
function mulberry32(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ROUNDS = 12;
const SEED = 9;

interface Purchase {
  label: string;
  price: bigint;
  /** Sends a proof for this purchase to one API replica. */
  send(api: string, proof: string): Promise<Response>;
  requirements: PaymentRequirements;
}

// The payments invariant (docs/security.md): every served paid answer moved exactly its quoted amount from
// the payer to the payee on chain, in a transaction of its own, or was refused; for any
// interleaving one payer can produce with one or several signatures over one nonce, across two
// API processes sharing Redis, Temporal and MongoDB.
describe('any interleaving of one payer’s requests over one nonce, across two API processes', () => {
  const { rpcUrl, scenario } = testStack();
  let stack: PaymentsStack;
  let replicas: { url: string; stop: () => Promise<void> }[] = [];
  let unlisted = '';

  beforeAll(async () => {
    [stack, unlisted] = await Promise.all([startPaymentsStack(), deployUnlistedToken(rpcUrl)]);
    replicas = await Promise.all([
      startBackendProcess(stack.backend.env),
      startBackendProcess(stack.backend.env),
    ]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await stack?.close();
  });

  it('serves a paid answer only for a payment of exactly its price, one transaction per answer', async () => {
    const random = mulberry32(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const payer = await fundedPayer(rpcUrl, stack.token, 10_000_000n);
    const client = payerClient(payer.privateKey, stack.token);
    const [first] = replicas;
    if (!first) throw new Error('no replica');
    const quoteOf = async (tool: string, address: string) => {
      const answer = await fetch(`${first.url}/api/v1/x402-tools/${tool}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain: 'devnet', address }),
      });
      return decodePaymentRequiredHeader(answer.headers.get('payment-required') ?? '')
        .accepts[0] as PaymentRequirements;
    };
    const toolPurchase = async (tool: string, address: string, price: bigint): Promise<Purchase> => ({
      label: `${tool}:${address.slice(0, 8)}`,
      price,
      requirements: await quoteOf(tool, address),
      send: (api, proof) =>
        fetch(`${api}/api/v1/x402-tools/${tool}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-payment': proof },
          body: JSON.stringify({ chain: 'devnet', address }),
        }),
    });
    const invoicePurchase = async (body: unknown, price: bigint, label: string): Promise<Purchase> => {
      const created = (await (
        await fetch(`${first.url}/api/v1/x402/invoice`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { pay_url: string; accepts: PaymentRequirements[] };
      return {
        label,
        price,
        requirements: created.accepts[0] as PaymentRequirements,
        send: (api, proof) =>
          fetch(`${api}${created.pay_url}`, { method: 'POST', headers: { 'x-payment': proof } }),
      };
    };

    const served: ServedPurchase[] = [];
    const payeeBefore = await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo);
    let spentElsewhere = 0n;
    for (let round = 0; round < ROUNDS; round++) {
      const purchases = await Promise.all([
        toolPurchase(
          'honeypot_check',
          pick([scenario.tokens.clean.address, scenario.tokens.high_tax.address]),
          10_000n,
        ),
        toolPurchase(
          'token_risk',
          pick([scenario.tokens.clean.address, scenario.tokens.honeypot.address]),
          50_000n,
        ),
        toolPurchase('honeypot_check', unlisted, 10_000n),
        invoicePurchase({ amount_usd: 0.01, description: `round ${round}` }, 10_000n, 'invoice $0.01'),
        invoicePurchase({ amount_usd: 0.05, description: `round ${round}` }, 50_000n, 'invoice $0.05'),
        invoicePurchase(
          { tool: 'honeypot_check', input: { chain: 'devnet', address: unlisted } },
          10_000n,
          'invoice for nothing',
        ),
      ]);
      // The official client signs one payment; the payer signs others by hand over its nonce.
      const official = await client.createPaymentPayload(paymentRequiredFor(pick(purchases).requirements));
      const { nonce } = (official.payload as { authorization: { nonce: Hex } }).authorization;
      const variants: PaymentPayload[] = [official];
      for (const purchase of purchases) {
        if (random() < 0.5) continue;
        variants.push(
          await signAuthorization(payer.privateKey, stack.token, purchase.requirements, {
            to: random() < 0.85 ? stack.payTo : payer.account.address,
            value: random() < 0.8 ? purchase.price : pick([0n, 10_000n, 50_000n]),
            nonce,
            validBefore: BigInt(Math.floor(Date.now() / 1000) + 120 + Math.floor(random() * 100)),
          }),
        );
      }
      // Each signature to one or more purchases, each request to either replica, some twice.
      const requests: { purchase: Purchase; proof: string }[] = [];
      for (const variant of variants)
        for (const purchase of purchases)
          if (random() < 0.4) requests.push({ purchase, proof: proofHeader(variant) });
      for (const request of [...requests]) if (random() < 0.25) requests.push(request);
      // Sometimes the payer also spends the nonce behind Vigil's back, on chain.
      const onChain = random();
      const sideDoor =
        onChain < 0.2
          ? submitOnChain(rpcUrl, stack.token, pick(variants)).then(() => 'submitted' as const)
          : onChain < 0.35
            ? cancelOnChain(rpcUrl, stack.token, payer.privateKey, nonce).then(() => 'cancelled' as const)
            : Promise.resolve('none' as const);
      const payerBefore = await paymentTokenBalance(rpcUrl, stack.token.address, payer.account.address);
      const [answers] = await Promise.all([
        Promise.all(requests.map(({ purchase, proof }) => purchase.send(pick(replicas).url, proof))),
        sideDoor.catch(() => 'failed' as const),
      ]);
      // A request still settling is asked again with the same proof until it has an outcome.
      const finals = await Promise.all(
        answers.map(async (answer, index) => {
          let current = answer;
          const request = requests[index];
          if (!request) return current;
          if (current.status === 202 || current.status === 409)
            current = await until(
              async () => {
                const again = await request.purchase.send(pick(replicas).url, request.proof);
                return again.status === 202 || again.status === 409 ? undefined : again;
              },
              { timeoutMs: 30_000, intervalMs: 100 },
            );
          return current;
        }),
      );
      const roundServed = new Map<string, ServedPurchase>();
      for (const [index, answer] of finals.entries()) {
        const request = requests[index];
        if (answer.status !== 200 || !request) continue;
        const body = (await answer.json()) as { payment?: { status?: string } | null };
        // Paid answers only (an empty tool result is answered free, with no payment).
        if (!body.payment) continue;
        const transaction = decodePaymentResponseHeader(
          answer.headers.get('x-payment-response') ?? '',
        ).transaction;
        // The same purchase answered twice (a replay) is one purchase.
        roundServed.set(`${request.purchase.label}:${transaction}`, {
          label: `round ${round} ${request.purchase.label}`,
          amount: request.purchase.price,
          transaction,
        });
      }
      served.push(...roundServed.values());
      const payerSpent =
        payerBefore - (await paymentTokenBalance(rpcUrl, stack.token.address, payer.account.address));
      const servedThisRound = [...roundServed.values()].reduce((sum, purchase) => sum + purchase.amount, 0n);
      // Anything the payer lost beyond what was served went out through the side door.
      expect(payerSpent).toBeGreaterThanOrEqual(servedThisRound);
      spentElsewhere += payerSpent - servedThisRound;
    }
    // One transaction per served answer, each moving exactly that answer's price to the payee.
    expect(new Set(served.map((purchase) => purchase.transaction)).size).toBe(served.length);
    const moved = await movedByServed(rpcUrl, stack.token, payer.account.address, stack.payTo, served);
    expect(moved).toEqual(moved.map((entry) => ({ ...entry, moved: entry.price })));
    const payeeGain = (await paymentTokenBalance(rpcUrl, stack.token.address, stack.payTo)) - payeeBefore;
    expect(payeeGain).toBe(served.reduce((sum, purchase) => sum + purchase.amount, 0n) + spentElsewhere);
    // The rounds did serve paid answers (the property is not met by refusing everything).
    expect(served.length).toBeGreaterThanOrEqual(ROUNDS / 4);
  });

  it('indexes the receipts a transaction hash is looked up by (the API processes made them at boot)', async () => {
    const indexes = await stack.backend.deps.mongo.db.collection('payment_receipts').listIndexes().toArray();
    expect(indexes.map((index) => Object.keys(index.key as object).join(','))).toContain('transaction');
    const unknown = await fetch(`${replicas[0]?.url}/api/v1/x402/receipts/0x${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
  });
});
