import type { PendingSettlementStore } from '@x402/core/facilitator';
import type { SettleResponse } from '@x402/core/types';
import type { Redis } from 'ioredis';
import { luaScript } from '../../core/stores/lua/luaScript.ts';

const RESULT_TTL_SECONDS = 30 * 86_400;
const PENDING_TTL_SECONDS = 3_600;

/** How an authorization's nonce was spent on chain, as recovery found it (null: not found). */
export interface ObservedUse {
  transaction: string | null;
  /** The call that spent it: the EIP-3009 fields and signature it carried, when it was one. */
  call: {
    from: string;
    to: string;
    value: string;
    validAfter: string;
    validBefore: string;
    nonce: string;
    signature: string;
  } | null;
  /** What the transaction moved of the asset, from the authorizer to each recipient (atomic). */
  moved: Record<string, string>;
  succeeded: boolean;
}

/**
 * What makes settlement exact and idempotent, in Redis, across requests and facilitator replicas:
 * - the final answer of each signed payload, by its digest (payload and requirements): an answer
 *   is never served to a payload that differs in any byte, even one sharing its nonce;
 * - a lock per authorization (EIP-3009: token, payer, nonce; Solana: the transaction), so one
 *   settle of an authorization runs at a time, whichever payload carries it;
 * - the transaction each payload was sent in, written before it is broadcast, so a settle whose
 *   answer was lost resumes with that transaction instead of sending or searching again;
 * - how a spent nonce was spent (recovery's finding), so the chain is searched once per nonce.
 */
export class SettlementStore {
  readonly #redis: Redis;
  readonly #claim: ReturnType<typeof luaScript>;
  readonly #release: ReturnType<typeof luaScript>;

  constructor(redis: Redis) {
    this.#redis = redis;
    this.#claim = luaScript(redis, 'settleClaim', 2);
    this.#release = luaScript(redis, 'settleRelease', 2);
  }

  /**
   * The SDK's store of broadcast-but-unconfirmed transactions, keyed by the payload being
   * settled (`digest()` names it) rather than by what the SDK passes, so a pending transaction is
   * only ever reconciled for the exact payload that sent it.
   */
  pendingFor(digest: () => string | undefined): PendingSettlementStore {
    const key = () => {
      const current = digest();
      return current === undefined ? undefined : `x402:pending:${current}`;
    };
    return {
      get: async () => {
        const name = key();
        return name === undefined ? undefined : ((await this.#redis.get(name)) ?? undefined);
      },
      set: async (_key, txHash) => {
        const name = key();
        if (name !== undefined) await this.#redis.set(name, txHash, 'EX', PENDING_TTL_SECONDS);
      },
      delete: async () => {
        const name = key();
        if (name !== undefined) await this.#redis.del(name);
      },
    };
  }

  async answer(digest: string): Promise<SettleResponse | undefined> {
    const raw = await this.#redis.get(`x402:answer:${digest}`);
    return raw === null ? undefined : (JSON.parse(raw) as SettleResponse);
  }

  /**
   * In one round trip: the payload's final answer when there is one, otherwise the settlement
   * lock of its authorization (`claimed`) or the news that another request holds it.
   */
  async claim(
    lockKey: string,
    digest: string,
    token: string,
    ttlMs: number,
  ): Promise<{ answer: SettleResponse } | { claimed: boolean }> {
    const reply = await this.#claim([`x402:answer:${digest}`, `x402:settling:${lockKey}`], [token, ttlMs]);
    if (!Array.isArray(reply)) throw new Error('unexpected settlement claim reply');
    const [state, answer] = reply;
    if (Number(state) === 2) return { answer: JSON.parse(String(answer)) as SettleResponse };
    return { claimed: Number(state) === 1 };
  }

  /** In one round trip: stores the payload's final answer (when there is one) and releases the lock if still ours. */
  async release(lockKey: string, digest: string, token: string, result: SettleResponse | undefined) {
    await this.#release(
      [`x402:answer:${digest}`, `x402:settling:${lockKey}`],
      [token, result ? JSON.stringify(result) : '', RESULT_TTL_SECONDS],
    );
  }

  async isLocked(lockKey: string): Promise<boolean> {
    return (await this.#redis.exists(`x402:settling:${lockKey}`)) === 1;
  }

  /** Written before broadcast: the transaction this payload is settled in. */
  async recordSent(digest: string, transaction: string): Promise<void> {
    await this.#redis.set(`x402:sent:${digest}`, transaction, 'EX', RESULT_TTL_SECONDS);
  }

  async sent(digest: string): Promise<string | undefined> {
    return (await this.#redis.get(`x402:sent:${digest}`)) ?? undefined;
  }

  /** Forgets a transaction the chain never received (its send failed), so the payload may be sent again. */
  async forgetSent(digest: string, transaction: string): Promise<void> {
    const current = await this.#redis.get(`x402:sent:${digest}`);
    if (current === transaction) await this.#redis.del(`x402:sent:${digest}`);
  }

  async observedUse(authorizationKey: string): Promise<ObservedUse | undefined> {
    const raw = await this.#redis.get(`x402:used:${authorizationKey}`);
    return raw === null ? undefined : (JSON.parse(raw) as ObservedUse);
  }

  async recordUse(authorizationKey: string, use: ObservedUse): Promise<void> {
    await this.#redis.set(`x402:used:${authorizationKey}`, JSON.stringify(use), 'EX', RESULT_TTL_SECONDS);
  }
}
