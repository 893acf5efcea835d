import { afterAll, describe, expect, it } from 'vitest';
import { closeStores, createStores } from '../../clients/stores.ts';
import { StoresEnv } from '../config/stores.ts';
import { parseEnv } from '../config/env.ts';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import type { Invoice } from './invoices.ts';

// The one store factory, as every process builds its stores, on a database of this file's own.
const stores = createStores(parseEnv(StoresEnv, isolatedEnv()), { failFast: true });
const { redis } = stores;
const store = stores.invoices;

afterAll(async () => {
  await stores.mongo.db.dropDatabase().catch(() => undefined);
  await closeStores(stores);
});

function invoice(id: string): Invoice {
  const now = Date.now();
  return {
    invoice_id: id,
    state: 'open',
    sandbox: false,
    description: 'one honeypot_check call',
    tool: 'honeypot_check',
    input: { chain: 'devnet', address: '0x0000000000000000000000000000000000000001' },
    amount_usd: 0.01,
    network: 'eip155:31337',
    asset: '0x0000000000000000000000000000000000000002',
    amount: '10000',
    pay_to: '0x0000000000000000000000000000000000000003',
    accepts: [],
    pay_url: `/api/v1/x402/pay/${id}`,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + 600_000).toISOString(),
    paid_at: null,
    settled_at: null,
    payment_id: null,
    payer: null,
    transaction: null,
    result: null,
    refund_transaction: null,
  };
}

describe('invoices written by the paid request and the settlement at once', () => {
  it('keeps both the tool’s result and the settlement’s transaction', async () => {
    for (let round = 0; round < 5; round++) {
      const id = `inv_race_${round}_${Date.now()}`;
      await store.create(invoice(id));
      expect((await store.transition(id, ['open'], 'paid', { payment_id: 'pay_1' })).moved).toBe(true);
      const result = {
        data: null,
        reason: 'no_data' as const,
        detail: null,
        sources_tried: ['devnet'],
        completed_at: new Date().toISOString(),
      };
      const [, moved] = await Promise.all([
        store.update(id, { result }),
        store.transition(id, ['paid'], 'settled', { transaction: '0xabc', settled_at: result.completed_at }),
      ]);
      expect(moved.moved).toBe(true);
      const stored = await store.get(id);
      expect(stored).toMatchObject({ state: 'settled', transaction: '0xabc', result, payment_id: 'pay_1' });
      // The record agrees once the hot copies are gone.
      await redis.del(`x402:invoice:${id}`, `x402:invoice:${id}:state`);
      expect(await store.get(id)).toMatchObject({ state: 'settled', transaction: '0xabc', result });
    }
  });
});
