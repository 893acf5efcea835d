import { afterAll, describe, expect, it } from 'vitest';
import { closeStores, createStores } from '../../clients/stores.ts';
import { StoresEnv } from '../config/stores.ts';
import { parseEnv } from '../config/env.ts';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import { luaScript } from './lua/luaScript.ts';
import type { PaymentReceipt } from './receipts.ts';

// The one store factory, as every process builds its stores, on a database of this file's own.
const stores = createStores(parseEnv(StoresEnv, isolatedEnv()), { failFast: true });
const { redis } = stores;
const store = stores.receipts;

afterAll(async () => {
  await stores.mongo.db.dropDatabase().catch(() => undefined);
  await closeStores(stores);
});

let serial = 0;
function receipt(overrides: Partial<PaymentReceipt> = {}): PaymentReceipt {
  serial += 1;
  const transaction = `0x${serial.toString(16).padStart(64, '0')}`;
  return {
    payment_id: `pay_${serial}_${Date.now()}`,
    status: 'settled',
    transaction,
    network: 'eip155:31337',
    asset: '0x0000000000000000000000000000000000000001',
    amount: '1000',
    amount_usd: 0.001,
    payer: '0x0000000000000000000000000000000000000002',
    pay_to: '0x0000000000000000000000000000000000000003',
    tool: 'honeypot_check',
    request_id: 'req',
    api_key_id: null,
    created_at: new Date().toISOString(),
    settled_at: new Date().toISOString(),
    error_reason: null,
    empty_result: false,
    invoice_id: null,
    refund: null,
    ...overrides,
  };
}

const requested = (): NonNullable<PaymentReceipt['refund']> => ({
  status: 'requested',
  transaction: null,
  requested_at: new Date().toISOString(),
  completed_at: null,
  error_reason: null,
});

describe('payment receipts written by three writers at once', () => {
  it('keeps a refund requested before the settlement workflow recorded its outcome', async () => {
    // The paid request saw its settlement, served the hot copy and answered no data; the caller
    // asked for the refund; only then does the settlement workflow record what it read earlier.
    const seen = receipt();
    await store.putHotIfAbsent(seen);
    await store.markEmptyResult(seen.payment_id);
    const afterRequest = await store.byPaymentId(seen.payment_id);
    expect(afterRequest).toBeDefined();
    await store.setRefund(afterRequest as PaymentReceipt, requested());
    const staleRead = { ...seen, settled_at: new Date().toISOString() };
    await store.recordSettlement(staleRead);
    const hot = await store.byPaymentId(seen.payment_id);
    expect(hot).toMatchObject({ empty_result: true, refund: { status: 'requested' } });
    await redis.del(`receipt:pay:${seen.payment_id}`, `receipt:tx:${seen.transaction}`);
    expect(await store.byTransaction(seen.transaction ?? '')).toMatchObject({
      empty_result: true,
      refund: { status: 'requested' },
      status: 'settled',
    });
  });

  it('lets the settlement record a new receipt whole, and a repeat of it change nothing else', async () => {
    const first = receipt({ empty_result: true });
    expect(await store.recordSettlement(first)).toEqual(first);
    await store.setRefund(first, requested());
    expect(await store.recordSettlement(first)).toMatchObject({ refund: { status: 'requested' } });
  });

  it('leaves no update lost when every writer runs at once', async () => {
    const base = receipt();
    await store.recordSettlement(base);
    const refund = requested();
    await Promise.all([
      store.recordSettlement({ ...base, status: 'settled', settled_at: new Date().toISOString() }),
      store.markEmptyResult(base.payment_id),
      store.setRefund(base, refund),
      store.recordSettlement(base),
    ]);
    await redis.del(`receipt:pay:${base.payment_id}`);
    expect(await store.byPaymentId(base.payment_id)).toMatchObject({ empty_result: true, refund });
  });

  it('never lets an older revision of the hot copy replace a newer one', async () => {
    const putNewer = luaScript(redis, 'putNewer', 1);
    const key = `receipt:pay:rev-test-${Date.now()}`;
    expect(await putNewer([key], [JSON.stringify({ _rev: 3, v: 'new' }), 3, 60])).toBe(1);
    expect(await putNewer([key], [JSON.stringify({ _rev: 2, v: 'old' }), 2, 60])).toBe(0);
    expect(JSON.parse((await redis.get(key)) ?? '{}')).toMatchObject({ v: 'new' });
    // A copy written before the record (no revision) yields to any revision.
    await redis.set(key, JSON.stringify({ v: 'unrecorded' }));
    expect(await putNewer([key], [JSON.stringify({ _rev: 1, v: 'recorded' }), 1, 60])).toBe(1);
  });
});
