import type { Db } from 'mongodb';
import { MongoServerError } from 'mongodb';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { luaScript } from './lua/luaScript.ts';
import { RedisLock } from './redisLock.ts';

/**
 * An invoice's life: `open` (quoted, waiting for a proof) → `paid` (a proof was accepted and its
 * settlement started) → `settled` (on chain) → `refunded` (a charged empty result sent back);
 * `open` → `expired` once past `expires_at`; a settlement that fails for good puts `paid` back to
 * `open`, so the payer can pay again while the invoice lasts.
 */
export const InvoiceState = {
  open: 'open',
  paid: 'paid',
  settled: 'settled',
  expired: 'expired',
  refunded: 'refunded',
} as const;
export type InvoiceState = (typeof InvoiceState)[keyof typeof InvoiceState];

const Requirements = z.looseObject({
  scheme: z.string(),
  network: z.string(),
  amount: z.string(),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** The answer of the invoice's tool, once it ran after the payment settled. */
export const InvoiceResult = z
  .object({
    data: z.unknown().describe('the tool’s result; null when it had none (charged, refundable)'),
    reason: z.enum(['no_data', 'tool_failed']).nullable(),
    detail: z.string().nullable(),
    sources_tried: z.array(z.string()),
    completed_at: z.iso.datetime(),
  })
  .meta({ id: 'InvoiceResult' });
export type InvoiceResult = z.infer<typeof InvoiceResult>;

export const Invoice = z
  .object({
    invoice_id: z.string(),
    state: z.enum(['open', 'paid', 'settled', 'expired', 'refunded']),
    sandbox: z.boolean().describe('created by the sandbox on a test network; verifiable, never settled'),
    description: z.string(),
    tool: z.string().nullable().describe('the tool the invoice pays one call of; null for an amount'),
    input: z.unknown().nullable().describe('that call’s input, validated when the invoice was made'),
    amount_usd: z.number(),
    network: z.string().describe('CAIP-2'),
    asset: z.string(),
    amount: z.string().describe('atomic units of the asset'),
    pay_to: z.string(),
    accepts: z.array(Requirements).describe('the x402 v2 PaymentRequirements a proof must answer'),
    pay_url: z.string(),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    paid_at: z.iso.datetime().nullable(),
    settled_at: z.iso.datetime().nullable(),
    payment_id: z.string().nullable(),
    payer: z.string().nullable(),
    transaction: z.string().nullable(),
    result: InvoiceResult.nullable(),
    refund_transaction: z.string().nullable(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof Invoice>;

interface InvoiceDocument extends Invoice {
  _id: string;
}

const COLLECTION = 'invoices';
const DUPLICATE_KEY = 11_000;
/** Hot copies outlive an invoice's expiry by the refund window and a margin. */
const HOT_TTL_SECONDS = 10 * 86_400;

export type Transition = { moved: true; invoice: Invoice } | { moved: false; invoice: Invoice | undefined };

/**
 * Invoices: the record in MongoDB, hot copies in Redis (reads stay off MongoDB), and the state in
 * its own Redis key moved only by compare-and-set, so two requests can never both take an open
 * invoice, and a late writer cannot move a state backwards. The other fields are written one
 * writer at a time per invoice (a Redis lock): the paid request stores the tool's result while the
 * settlement workflow records the transaction, and two read-modify-writes at once would lose one.
 */
export class InvoiceStore {
  readonly #db: Db;
  readonly #redis: Redis;
  readonly #cas: ReturnType<typeof luaScript>;
  readonly #lock: RedisLock;

  constructor(db: Db, redis: Redis) {
    this.#db = db;
    this.#redis = redis;
    this.#cas = luaScript(redis, 'compareAndSet', 1);
    this.#lock = new RedisLock(redis, { holdMs: 10_000, pollMs: 5 });
  }

  async create(invoice: Invoice): Promise<void> {
    await this.#db.collection<InvoiceDocument>(COLLECTION).insertOne({ _id: invoice.invoice_id, ...invoice });
    await this.#warm(invoice);
  }

  /** The invoice, `expired` once an open one is past its expiry (recorded the first time it is seen). */
  async get(id: string): Promise<Invoice | undefined> {
    const invoice = await this.#read(id);
    if (invoice?.state === 'open' && Date.parse(invoice.expires_at) <= Date.now()) {
      const expired = await this.transition(id, ['open'], 'expired');
      return expired.invoice;
    }
    return invoice;
  }

  /**
   * Moves the invoice from one of `from` to `to` and applies `patch`, atomically against every
   * other request and worker; answers the invoice as it stands either way.
   */
  async transition(
    id: string,
    from: readonly InvoiceState[],
    to: InvoiceState,
    patch: Partial<Omit<Invoice, 'invoice_id' | 'state'>> = {},
  ): Promise<Transition> {
    return this.#lock.withLock(lockKey(id), () => this.#transition(id, from, to, patch));
  }

  async #transition(
    id: string,
    from: readonly InvoiceState[],
    to: InvoiceState,
    patch: Partial<Omit<Invoice, 'invoice_id' | 'state'>>,
  ): Promise<Transition> {
    const current = await this.#read(id);
    if (!current) return { moved: false, invoice: undefined };
    const reply = await this.#cas([stateKey(id)], [from.join(','), to]);
    if (!Array.isArray(reply) || Number(reply[0]) !== 1) {
      const state = Array.isArray(reply) ? String(reply[1]) : current.state;
      return { moved: false, invoice: { ...current, state: state as InvoiceState } };
    }
    const invoice: Invoice = { ...current, ...patch, state: to };
    await this.#write(invoice);
    return { moved: true, invoice };
  }

  /** Fields that are not the state (the tool's result, say), written by the one holder of the invoice. */
  async update(
    id: string,
    patch: Partial<Omit<Invoice, 'invoice_id' | 'state'>>,
  ): Promise<Invoice | undefined> {
    return this.#lock.withLock(lockKey(id), async () => {
      const current = await this.#read(id);
      if (!current) return undefined;
      const invoice = { ...current, ...patch };
      await this.#write(invoice);
      return invoice;
    });
  }

  async #read(id: string): Promise<Invoice | undefined> {
    const [doc, state] = await this.#redis.mget(docKey(id), stateKey(id));
    if (doc && state) return Invoice.parse({ ...JSON.parse(doc), state });
    const stored = await this.#db.collection<InvoiceDocument>(COLLECTION).findOne({ _id: id });
    if (!stored) return undefined;
    const { _id, ...invoice } = stored;
    void _id;
    const parsed = Invoice.parse(invoice);
    await this.#warm(parsed);
    // Another request may have warmed it with a newer state in between: the state key decides.
    return (await this.#read(id)) ?? parsed;
  }

  /** Hot copies from the record, without overwriting a state a request has already moved. */
  async #warm(invoice: Invoice): Promise<void> {
    await this.#redis
      .multi()
      .set(docKey(invoice.invoice_id), JSON.stringify(invoice), 'EX', HOT_TTL_SECONDS, 'NX')
      .set(stateKey(invoice.invoice_id), invoice.state, 'EX', HOT_TTL_SECONDS, 'NX')
      .exec();
  }

  async #write(invoice: Invoice): Promise<void> {
    await this.#redis.set(docKey(invoice.invoice_id), JSON.stringify(invoice), 'EX', HOT_TTL_SECONDS);
    const doc: InvoiceDocument = { _id: invoice.invoice_id, ...invoice };
    const invoices = this.#db.collection<InvoiceDocument>(COLLECTION);
    try {
      await invoices.replaceOne({ _id: invoice.invoice_id }, doc, { upsert: true });
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      await invoices.replaceOne({ _id: invoice.invoice_id }, doc);
    }
  }
}

const docKey = (id: string) => `x402:invoice:${id}`;
const stateKey = (id: string) => `x402:invoice:${id}:state`;
const lockKey = (id: string) => `x402:invoice:${id}:lock`;
