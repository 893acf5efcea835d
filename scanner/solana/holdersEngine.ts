import { PublicKey } from '@solana/web3.js';
import { HOLDER_THRESHOLDS } from '../core/risk/model.ts';
import { makeCheck, unknownCheck } from '../core/checks.ts';
import type { Check, Evidence } from '../core/schema.ts';
import { type EngineOutput, percent, type SolanaEngineInput } from '../engines/context.ts';

/** The incinerator: tokens sent there are burned. */
const BURN_OWNERS = new Set(['1nc1nerator11111111111111111111111111111111']);
const TOP = 10;
/** Token account layout (both programs): mint 0..32, owner 32..64, amount 64..72. */
const OWNER_OFFSET = 32;
const AMOUNT_OFFSET = 64;

/**
 * Holders of a Solana mint: the largest token accounts (getTokenLargestAccounts) resolved to
 * their owners for concentration, and every token account of the mint (getProgramAccounts with
 * a memcmp on the mint, amounts only) for the count; many providers refuse the latter, and the
 * count is then unknown rather than guessed.
 */
export async function solanaHolders({ connection, mint, slot }: SolanaEngineInput): Promise<EngineOutput> {
  const key = new PublicKey(mint);
  const options = { minContextSlot: Number(slot) };
  const [supply, largest, mintAccount] = await Promise.all([
    connection.getTokenSupply(key),
    connection.getTokenLargestAccounts(key),
    connection.getAccountInfo(key, options),
  ]);
  const block = String(largest.context.slot);
  const total = BigInt(supply.value.amount);
  const accounts = await connection.getMultipleAccountsInfo(
    largest.value.map((entry) => entry.address),
    options,
  );
  const byOwner = new Map<string, bigint>();
  largest.value.forEach((entry, index) => {
    const data = accounts[index]?.data;
    const owner =
      data && data.length >= AMOUNT_OFFSET
        ? new PublicKey(data.subarray(OWNER_OFFSET, AMOUNT_OFFSET)).toBase58()
        : entry.address.toBase58();
    if (BURN_OWNERS.has(owner)) return;
    byOwner.set(owner, (byOwner.get(owner) ?? 0n) + BigInt(entry.amount));
  });
  const ranked = [...byOwner.entries()]
    .filter(([, amount]) => amount > 0n)
    .sort((a, b) => (a[1] === b[1] ? 0 : a[1] > b[1] ? -1 : 1));
  const top = ranked.slice(0, TOP);
  const topShare =
    total === 0n
      ? 0
      : Number((top.reduce((sum, [, amount]) => sum + amount, 0n) * 1_000_000n) / total) / 1_000_000;
  const topEvidence: Evidence = {
    kind: 'call',
    summary: `getTokenLargestAccounts: top ${top.length} owners hold ${percent(topShare)} of ${total}`,
    data: Object.fromEntries(top.map(([owner, amount]) => [owner, amount.toString()])),
    block,
  };

  let count: number | undefined;
  let countNote = '';
  try {
    const program = mintAccount?.owner ?? key;
    const all = await connection.getProgramAccounts(program, {
      filters: [{ memcmp: { offset: 0, bytes: key.toBase58() } }],
      dataSlice: { offset: OWNER_OFFSET, length: AMOUNT_OFFSET + 8 - OWNER_OFFSET },
      ...options,
    });
    const owners = new Set<string>();
    for (const { account } of all) {
      const data = account.data;
      if (data.length < AMOUNT_OFFSET + 8 - OWNER_OFFSET) continue;
      const owner = new PublicKey(data.subarray(0, 32)).toBase58();
      if (data.readBigUInt64LE(32) > 0n && !BURN_OWNERS.has(owner)) owners.add(owner);
    }
    count = owners.size;
  } catch (error) {
    countNote = `the provider refused getProgramAccounts (${error instanceof Error ? error.message.slice(0, 120) : 'error'})`;
  }

  const checks: Check[] = [];
  checks.push(
    count === undefined
      ? unknownCheck('low_holder_count', `Holder count unknown: ${countNote}.`)
      : makeCheck('low_holder_count', {
          status: count < HOLDER_THRESHOLDS.minHolders ? 'fail' : 'pass',
          value: count,
          detail: `${count} owners hold the token.`,
          evidence: [
            {
              kind: 'call',
              summary: `getProgramAccounts(memcmp mint): ${count} owners with a balance`,
              data: { holders: count },
              block,
            },
          ],
        }),
  );
  const band = HOLDER_THRESHOLDS.concentration.find((entry) => topShare > entry.above);
  checks.push(
    band
      ? makeCheck('holder_concentration', {
          status: 'fail',
          value: topShare,
          severity: band.severity,
          detail: `The top ${top.length} owners hold ${percent(topShare)} of the supply.`,
          evidence: [topEvidence],
        })
      : makeCheck('holder_concentration', {
          status: 'pass',
          value: topShare,
          detail: `The top ${top.length} owners hold ${percent(topShare)} of the supply.`,
          evidence: [topEvidence],
        }),
  );
  return { checks, facts: { holder_count: count ?? null, top10_share: topShare, supply: total.toString() } };
}
