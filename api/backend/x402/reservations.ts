import type { Redis } from 'ioredis';
import { z } from 'zod';
import { luaScript } from '../../../core/stores/lua/luaScript.ts';
import { PaymentReceipt } from '../../../core/stores/receipts.ts';

export const StoredAnswer = z.object({
  status: z.number().int(),
  body: z.unknown(),
  headers: z.record(z.string(), z.string()),
});
export type StoredAnswer = z.infer<typeof StoredAnswer>;

export const Reservation = z.object({
  /** running: the tool runs; settling: its payment is settling (the result waits here); done: answered. */
  state: z.enum(['running', 'settling', 'done']),
  /** The signed payload (and requirements) holding the authorization: the only one it answers. */
  digest: z.string(),
  /** What the authorization pays for: `tool:<tool and input hash>` or `invoice:<id>`. */
  purchase: z.string(),
  payment_id: z.string(),
  /**
   * Who made the purchase (an API key, or an anonymous caller's network): a settled payload is
   * public on chain, so its stored answer goes to this caller only, never to whoever rebuilds it.
   */
  buyer: z.string().optional(),
  /** The tool's result, kept until its payment has settled. */
  outcome: z.object({ data: z.unknown() }).optional(),
  receipt: PaymentReceipt.optional(),
  answer: StoredAnswer.optional(),
});
export type Reservation = z.infer<typeof Reservation>;

/** Reservations outlive the authorization they hold by this much. */
const RESERVATION_GRACE_MS = 10 * 60_000;

/** A settling payment's result is kept this long for its payer to fetch with the same proof. */
export const SETTLING_KEEP_MS = 24 * 3_600_000;

/** As long as the authorization could still be presented, plus a grace period. */
export function reservationTtlMs(validBefore: string): number {
  return Math.max(60_000, Number(validBefore) * 1000 - Date.now()) + RESERVATION_GRACE_MS;
}

export type ReserveResult = { reserved: true } | { reserved: false; holder: Reservation };

/**
 * One purchase per payment authorization, across tool calls, invoices, concurrent requests and API
 * replicas: the first request to reserve an authorization (EIP-3009: token, payer, nonce; Solana:
 * the signed transaction) binds it to its signed payload and to what it buys; every other request
 * carrying it is refused, unless it is the same payload for the same purchase, which gets the
 * first request's answer. A reservation is released (by its holder only) when nothing was
 * charged, so the payer can use the authorization again.
 */
export class PaymentReservations {
  readonly #redis: Redis;
  readonly #reserve: ReturnType<typeof luaScript>;
  readonly #release: ReturnType<typeof luaScript>;

  constructor(redis: Redis) {
    this.#redis = redis;
    this.#reserve = luaScript(redis, 'reservePayment', 1);
    this.#release = luaScript(redis, 'releaseReservation', 1);
  }

  static key(name: string): string {
    return `x402:reservation:${name}`;
  }

  async reserve(name: string, reservation: Reservation, ttlMs: number): Promise<ReserveResult> {
    const reply = await this.#reserve([PaymentReservations.key(name)], [JSON.stringify(reservation), ttlMs]);
    if (!Array.isArray(reply)) throw new Error('unexpected reservation reply');
    const [won, holder] = reply;
    if (Number(won) === 1) return { reserved: true };
    return { reserved: false, holder: Reservation.parse(JSON.parse(String(holder))) };
  }

  async peek(name: string): Promise<Reservation | undefined> {
    const raw = await this.#redis.get(PaymentReservations.key(name));
    return raw === null ? undefined : Reservation.parse(JSON.parse(raw));
  }

  /** Rewrites a reservation its holder owns; `keepForMs` extends its life (a settling payment's result). */
  async update(name: string, reservation: Reservation, keepForMs?: number): Promise<void> {
    const key = PaymentReservations.key(name);
    if (keepForMs === undefined) {
      // KEEPTTL: the reservation lives as long as the authorization could still be presented.
      await this.#redis.set(key, JSON.stringify(reservation), 'KEEPTTL', 'XX');
      return;
    }
    const ttl = await this.#redis.pttl(key);
    await this.#redis.set(key, JSON.stringify(reservation), 'PX', Math.max(ttl, keepForMs), 'XX');
  }

  /** Releases the reservation if the payload with this digest still holds it. */
  async release(name: string, digest: string): Promise<void> {
    await this.#release([PaymentReservations.key(name)], [digest]);
  }
}

/** The reservation name of a payment authorization. */
export function authorizationReservation(authorizationKey: string): string {
  return `auth:${authorizationKey}`;
}
