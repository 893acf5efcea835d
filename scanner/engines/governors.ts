import type { Address, PublicClient } from 'viem';
import { readTimelock, type TimelockVerdict } from '../evm/readTimelock.ts';

/** The accounts holding a power that are timelocks holders can rely on, by lowercase address. */
export type Governors = ReadonlyMap<string, Extract<TimelockVerdict, { kind: 'timelock' }>>;

/** Accounts checked for being a timelock, at most: those a power was shown for, first ones first. */
const MAX_CHECKED = 3;

/**
 * Which of the accounts a power was shown for are timelocks whose every call waits a day or more
 * in public (readTimelock), and why each other one with code is not (for the evidence).
 */
export async function readGovernors(
  client: PublicClient,
  {
    holders,
    token,
    callers,
    blockNumber,
  }: { holders: readonly Address[]; token: Address; callers: readonly Address[]; blockNumber: bigint },
): Promise<{ governors: Governors; refused: Extract<TimelockVerdict, { kind: 'not' }>[] }> {
  const distinct = [...new Map(holders.map((holder) => [holder.toLowerCase(), holder])).values()];
  const verdicts = await Promise.all(
    distinct
      .slice(0, MAX_CHECKED)
      .map((account) => readTimelock(client, { account, token, callers, blockNumber })),
  );
  const governors = new Map<string, Extract<TimelockVerdict, { kind: 'timelock' }>>();
  const refused: Extract<TimelockVerdict, { kind: 'not' }>[] = [];
  for (const verdict of verdicts)
    if (verdict.kind === 'timelock') governors.set(verdict.address.toLowerCase(), verdict);
    else if (verdict.reason !== 'an account without code') refused.push(verdict);
  return { governors, refused };
}

/**
 * The timelock every one of `accounts` is (a power shown only through calls it makes), or
 * undefined when any of them is another account.
 */
export function governorOf(
  accounts: readonly Address[],
  governors: Governors,
): Extract<TimelockVerdict, { kind: 'timelock' }> | undefined {
  const [first, ...rest] = accounts.map((account) => account.toLowerCase());
  if (first === undefined || rest.some((account) => account !== first)) return undefined;
  return governors.get(first);
}

/** Why a power a timelock holds weighs nothing: the notice it gives. */
export function governedReason(timelock: Extract<TimelockVerdict, { kind: 'timelock' }>): string {
  const hours = Math.round(timelock.delaySeconds / 3_600);
  return `only the timelock ${timelock.address} can, and every call it makes waits ${hours} h in public first (TimelockController, getMinDelay() ${timelock.delaySeconds} s; no way to skip the wait worked in a simulation): holders see it coming`;
}
