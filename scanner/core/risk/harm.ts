import type { CheckId } from '../checks.ts';
import { type Check, CheckStatus, Severity } from '../schema.ts';

/**
 * What a contract lets an insider (or nobody, once the clock moves on) do to ordinary holders:
 * - `mint`: raise the supply;
 * - `leak`: take, burn or rewrite a holder's balance without the holder's approval;
 * - `limit`: stop, cap or tax above 10 % a holder's sell or transfer.
 */
export const HARM_CLASSES = ['mint', 'leak', 'limit'] as const;
export type HarmClass = (typeof HARM_CLASSES)[number];

/** The checks whose failure says a token has each class of harm. */
const HARM_CLASS_CHECKS = {
  mint: ['is_mintable'],
  leak: ['owner_change_balance'],
  limit: [
    'sells_blockable',
    'is_honeypot',
    'cannot_sell_all',
    'transfer_pausable',
    'is_blacklisted',
    'is_whitelisted',
    'slippage_modifiable',
    'anti_whale_modifiable',
    'sell_tax',
    'transfer_tax',
    'failed_sells',
  ],
} as const satisfies Record<HarmClass, readonly CheckId[]>;

export type HarmClasses = Record<HarmClass, boolean>;

/** Gates that stand for a demonstrated power over holders (what makes a token's code "harmful"). */
export const HARM_GATES = ['is_mintable', 'owner_change_balance', 'sells_blockable', 'is_honeypot'] as const;

/**
 * The classes a scan's checks claim: a class holds when one of its checks failed with weight (a
 * failure downgraded to info, such as a capability nobody can use, claims nothing).
 */
export function harmClasses(checks: readonly Pick<Check, 'id' | 'status' | 'severity'>[]): HarmClasses {
  const claims = (ids: readonly string[]) =>
    checks.some(
      (check) =>
        ids.includes(check.id) && check.status === CheckStatus.fail && check.severity !== Severity.info,
    );
  return {
    mint: claims(HARM_CLASS_CHECKS.mint),
    leak: claims(HARM_CLASS_CHECKS.leak),
    limit: claims(HARM_CLASS_CHECKS.limit),
  };
}
