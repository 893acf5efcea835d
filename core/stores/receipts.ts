import { type Db, MongoServerError } from 'mongodb';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { luaScript } from './lua/luaScript.ts';
import { RedisLock } from './redisLock.ts';

/** The record of one paid call: what was paid, by whom, for which tool, and how it settled. */
export const PaymentReceipt = z
  .object({
    payment_id: z.string(),
    status: z.enum(['pending', 'settled', 'failed']),
    transaction: z.string().nullable(),
    network: z.string(),
    asset: z.string(),
    amount: z.string().describe('atomic units of the asset'),
    amount_usd: z.number(),
    payer: z.string(),
    pay_to: z.string(),
    tool: z.string(),
    request_id: z.string(),
    api_key_id: z.string().nullable().describe('the caller’s API key id, when the call carried one'),
    created_at: z.iso.datetime(),
    settled_at: z.iso.datetime().nullable(),
    error_reason: z.string().nullable(),
    /** The paid call answered no data (refundable within the window). */
    empty_result: z.boolean(),
    /** The invoice this payment paid, when it paid one. */
    invoice_id: z.string().nullable().default(null),
    refund: z
      .object({
        status: z.enum(['requested', 'refunded', 'failed']),
        transaction: z.string().nullable(),
        requested_at: z.iso.datetime(),
        completed_at: z.iso.datetime().nullable().default(null),
        error_reason: z.string().nullable().default(null),
      })
      .nullable(),
  })
  .meta({ id: 'PaymentReceipt' });
export type PaymentReceipt = z.infer<typeof PaymentReceipt>;

/**
 * A receipt as anyone may read it by its transaction hash or payment id (both public: the hash is
 * on chain, the id derives from the payload the chain reveals). It leaves out what links the
 * payment to its buyer: the invoice (whose id reads the invoice and its paid result) and the API
 * key. The key's own history still has both.
 */
export const PublicReceipt = PaymentReceipt.omit({ invoice_id: true, api_key_id: true }).meta({
  id: 'PublicReceipt',
});
export type PublicReceipt = z.infer<typeof PublicReceipt>;

export function publicReceipt(receipt: PaymentReceipt): PublicReceipt {
  const { invoice_id: _invoice, api_key_id: _apiKey, ...shown } = receipt;
  return shown;
}

interface ReceiptDocument extends PaymentReceipt {
  _id: string;
  /** Bumped by every write, so a hot copy never replaces a later one (see putNewer.lua). */
  _rev?: number;
}

const COLLECTION = 'payment_receipts';
const DUPLICATE_KEY = 11_000;
const HOT_TTL_SECONDS = 7 * 86_400;

/** What the request path learns about a payment, kept by whichever write comes later. */
type RequestFacts = Pick<PaymentReceipt, 'empty_result' | 'refund'>;

/**
 * Receipts in MongoDB (the record, written once per payment and updated as it settles) with hot
 * copies in Redis by payment id and by transaction hash, so receipt reads stay off MongoDB.
 *
 * Three writers touch one receipt at once: the settlement workflow (its outcome), the paid
 * request (that the call answered no data) and the refund (its request and outcome). Each writes
 * only its own fields, one write at a time per receipt (a Redis lock: FerretDB applies two
 * concurrent updates of a document as unlocked read-modify-writes), and the hot copy follows the
 * record's revision. A whole-receipt read-modify-write let the settlement, recorded late, erase a
 * refund requested meanwhile, so the refund workflow found none and refused.
 */
export class ReceiptStore {
  readonly #db: Db;
  readonly #redis: Redis;
  readonly #putNewer: ReturnType<typeof luaScript>;
  readonly #lock: RedisLock;

  constructor(db: Db, redis: Redis) {
    this.#db = db;
    this.#redis = redis;
    this.#putNewer = luaScript(redis, 'putNewer', 1);
    this.#lock = new RedisLock(redis, { holdMs: 10_000, pollMs: 5 });
  }

  /**
   * The lookups receipts are read by: transaction hash (receipts, refunds: an unknown hash must
   * not scan the collection), API key (usage, history), payer and invoice.
   */
  async ensureIndexes(): Promise<void> {
    const receipts = this.#db.collection<ReceiptDocument>(COLLECTION);
    await Promise.all([
      receipts.createIndex({ transaction: 1 }, { name: 'by_transaction' }),
      receipts.createIndex({ api_key_id: 1, created_at: -1 }, { name: 'by_api_key' }),
      receipts.createIndex({ payer: 1, created_at: -1 }, { name: 'by_payer' }),
      receipts.createIndex({ invoice_id: 1 }, { name: 'by_invoice' }),
    ]);
  }

  /** How many settled payments name this transaction (one, unless records were tampered with). */
  async countSettledByTransaction(hash: string): Promise<number> {
    return this.#db
      .collection<ReceiptDocument>(COLLECTION)
      .countDocuments({ transaction: hash, status: 'settled' }, { limit: 2 });
  }

  /**
   * The settlement's outcome (parties, amount, status, transaction), keeping what the request path
   * recorded meanwhile: that the call answered no data, a refund. Safe to repeat (activities retry).
   */
  async recordSettlement(receipt: PaymentReceipt): Promise<PaymentReceipt> {
    const { empty_result, refund, ...settlement } = receipt;
    return this.#write(receipt.payment_id, settlement, { empty_result, refund });
  }

  /** Records that the paid call answered no data (a charged empty result, refundable). */
  async markEmptyResult(paymentId: string): Promise<void> {
    const receipt = await this.byPaymentId(paymentId);
    if (receipt && !receipt.empty_result) await this.#update(receipt, { empty_result: true });
  }

  /** Sets (or, with the refund it replaced, restores) a payment's refund; the rest stays as it is. */
  async setRefund(receipt: PaymentReceipt, refund: PaymentReceipt['refund']): Promise<PaymentReceipt> {
    return this.#update(receipt, { refund });
  }

  /**
   * Updates request facts on the record. The receipt may so far be only a hot copy (the request saw
   * its settlement before the workflow recorded it): then it becomes the record, and the
   * settlement's own write later keeps these facts.
   */
  async #update(receipt: PaymentReceipt, facts: Partial<RequestFacts>): Promise<PaymentReceipt> {
    const base: Partial<PaymentReceipt> = { ...receipt };
    for (const key of Object.keys(facts) as (keyof RequestFacts)[]) delete base[key];
    return this.#write(receipt.payment_id, facts, base);
  }

  /**
   * One atomic write on the record: `set` always, `onInsert` only when the record is new. Then the
   * hot copies, unless a later revision is already there.
   */
  async #write(
    paymentId: string,
    set: Partial<PaymentReceipt>,
    onInsert: Partial<PaymentReceipt>,
  ): Promise<PaymentReceipt> {
    return this.#lock.withLock(`receipt:lock:${paymentId}`, () => this.#writeHeld(paymentId, set, onInsert));
  }

  async #writeHeld(
    paymentId: string,
    set: Partial<PaymentReceipt>,
    onInsert: Partial<PaymentReceipt>,
  ): Promise<PaymentReceipt> {
    const receipts = this.#db.collection<ReceiptDocument>(COLLECTION);
    const update = {
      $set: set,
      $inc: { _rev: 1 },
      ...(Object.keys(onInsert).length > 0 ? { $setOnInsert: onInsert } : {}),
    };
    let doc: ReceiptDocument | null;
    try {
      doc = await receipts.findOneAndUpdate({ _id: paymentId }, update, {
        upsert: true,
        returnDocument: 'after',
      });
    } catch (error) {
      // Two first writes raced to insert: the loser's is an update of the winner's record.
      if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      doc = await receipts.findOneAndUpdate({ _id: paymentId }, update, { returnDocument: 'after' });
    }
    if (!doc) throw new Error(`receipt ${paymentId} was not written`);
    const receipt = strip(doc);
    const rev = doc._rev ?? 0;
    const hot = JSON.stringify({ ...receipt, _rev: rev });
    await this.#putNewer([`receipt:pay:${paymentId}`], [hot, rev, HOT_TTL_SECONDS]);
    if (receipt.transaction)
      await this.#redis.set(
        `receipt:tx:${receipt.transaction.toLowerCase()}`,
        paymentId,
        'EX',
        HOT_TTL_SECONDS,
      );
    return receipt;
  }

  /**
   * The hot copies only, unless the record already wrote them: lets a request that saw its
   * settlement answer serve the receipt before the workflow has recorded it.
   */
  async putHotIfAbsent(receipt: PaymentReceipt): Promise<void> {
    const writes = this.#redis
      .multi()
      .set(`receipt:pay:${receipt.payment_id}`, JSON.stringify(receipt), 'EX', HOT_TTL_SECONDS, 'NX');
    if (receipt.transaction)
      writes.set(
        `receipt:tx:${receipt.transaction.toLowerCase()}`,
        receipt.payment_id,
        'EX',
        HOT_TTL_SECONDS,
        'NX',
      );
    await writes.exec();
  }

  async byPaymentId(paymentId: string): Promise<PaymentReceipt | undefined> {
    const hot = await this.#redis.get(`receipt:pay:${paymentId}`).catch(() => null);
    if (hot !== null) return PaymentReceipt.parse(JSON.parse(hot));
    const doc = await this.#db.collection<ReceiptDocument>(COLLECTION).findOne({ _id: paymentId });
    return doc ? strip(doc) : undefined;
  }

  async byTransaction(hash: string): Promise<PaymentReceipt | undefined> {
    const paymentId = await this.#redis.get(`receipt:tx:${hash.toLowerCase()}`).catch(() => null);
    if (paymentId !== null) return this.byPaymentId(paymentId);
    const doc = await this.#db.collection<ReceiptDocument>(COLLECTION).findOne({ transaction: hash });
    return doc ? strip(doc) : undefined;
  }

  /** A caller's receipts, newest first. */
  async byApiKey(apiKeyId: string, limit: number): Promise<PaymentReceipt[]> {
    const docs = await this.#db
      .collection<ReceiptDocument>(COLLECTION)
      .find({ api_key_id: apiKeyId })
      .sort({ created_at: -1 })
      .limit(limit)
      .toArray();
    return docs.map(strip);
  }
}

function strip(doc: ReceiptDocument): PaymentReceipt {
  const { _id, _rev, ...receipt } = doc;
  // FerretDB leaves a null written by $setOnInsert out of the document: absent reads as null.
  const filled: Record<string, unknown> = { ...receipt };
  for (const [key, field] of Object.entries(PaymentReceipt.shape))
    if (filled[key] === undefined && field.safeParse(null).success) filled[key] = null;
  return PaymentReceipt.parse(filled);
}
