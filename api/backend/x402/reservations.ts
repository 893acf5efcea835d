import type { Redis } from 'ioredis';
import { z } from 'zod';
import { luaScript } from '../../../core/stores/lua/luaScript.ts';

export const StoredAnswer = z.object({
  status: z.number().int(),
  body: z.unknown(),
  headers: z.record(z.string(), z.string()),
});
export type StoredAnswer = z.infer<typeof StoredAnswer>;

export const Reservation = z.object({
  state: z.enum(['running', 'settling', 'done']),
  /** Hash of the tool and input the proof pays for. */
  fingerprint: z.string(),
  payment_id: z.string(),
  answer: StoredAnswer.optional(),
});
export type Reservation = z.infer<typeof Reservation>;

/** Reservations outlive the authorization they hold by this much. */
const RESERVATION_GRACE_MS = 10 * 60_000;

/** As long as the authorization could still be presented, plus a grace period. */
export function reservationTtlMs(validBefore: string): number {
  return Math.max(60_000, Number(validBefore) * 1000 - Date.now()) + RESERVATION_GRACE_MS;
}

export type ReserveResult = { reserved: true } | { reserved: false; holder: Reservation };

/**
 * One request per payment authorization, across concurrent requests and API replicas: the first
 * to reserve the authorization's key runs the tool; every other sees who holds it. A reservation
 * is released when nothing was charged (the tool failed or found no data), so the payer can use
 * the same signed authorization again.
 */
export class PaymentReservations {
  readonly #redis: Redis;
  readonly #reserve: ReturnType<typeof luaScript>;

  constructor(redis: Redis) {
    this.#redis = redis;
    this.#reserve = luaScript(redis, 'reservePayment', 1);
  }

  static key(authorizationKey: string): string {
    return `x402:reservation:${authorizationKey}`;
  }

  async reserve(authorizationKey: string, reservation: Reservation, ttlMs: number): Promise<ReserveResult> {
    const reply = await this.#reserve(
      [PaymentReservations.key(authorizationKey)],
      [JSON.stringify(reservation), ttlMs],
    );
    if (!Array.isArray(reply)) throw new Error('unexpected reservation reply');
    const [won, holder] = reply;
    if (Number(won) === 1) return { reserved: true };
    return { reserved: false, holder: Reservation.parse(JSON.parse(String(holder))) };
  }

  async peek(authorizationKey: string): Promise<Reservation | undefined> {
    const raw = await this.#redis.get(PaymentReservations.key(authorizationKey));
    return raw === null ? undefined : Reservation.parse(JSON.parse(raw));
  }

  async update(authorizationKey: string, reservation: Reservation): Promise<void> {
    // KEEPTTL: the reservation lives as long as the authorization could still be presented.
    await this.#redis.set(
      PaymentReservations.key(authorizationKey),
      JSON.stringify(reservation),
      'KEEPTTL',
      'XX',
    );
  }

  async release(authorizationKey: string): Promise<void> {
    await this.#redis.del(PaymentReservations.key(authorizationKey));
  }
}
