import { type Address, formatEther, type PublicClient } from 'viem';
import type { DexInfo } from '../../../core/chains/registry.ts';
import { TAX_THRESHOLDS } from '../../../core/risk/model.ts';
import { type CheckId, makeCheck, unknownCheck } from '../../../core/scan/checks.ts';
import { ENGINE_CHECKS } from '../../../core/scan/engines.ts';
import type { Check, Evidence } from '../../../core/scan/schema.ts';
import { findPool } from '../evm/findPool.ts';
import { type RoundTripLeg, simulateRoundTrip } from '../evm/simulateRoundTrip.ts';
import type { EngineOutput } from './contractSafety.ts';

/** Trade size for the simulation: a small share of the pool, so price impact stays negligible. */
const POOL_SHARE_DIVISOR = 200n;
const MIN_AMOUNT_IN = 10n ** 12n;
const MAX_AMOUNT_IN = 10n ** 18n;

/**
 * Honeypot and taxes: buys, transfers and sells the token against its deepest pool in one
 * simulated call at the pinned block (nothing is sent), and reads what each leg really did.
 */
export async function honeypot(
  client: PublicClient,
  dexes: readonly DexInfo[],
  { address, blockNumber }: { address: Address; blockNumber: bigint },
): Promise<EngineOutput> {
  const block = blockNumber.toString();
  const pool = await findPool(client, { token: address, dexes, blockNumber });
  if (!pool) {
    const reason =
      dexes.length === 0
        ? 'No DEX is configured for this chain, so trading could not be simulated.'
        : `No pool against the wrapped native asset on ${dexes.map((dex) => dex.name).join(', ')}.`;
    return { checks: ENGINE_CHECKS.honeypot.map((id) => unknownCheck(id, reason)), facts: { pool: null } };
  }

  let amountIn = pool.reserveNative / POOL_SHARE_DIVISOR;
  if (amountIn < MIN_AMOUNT_IN) amountIn = MIN_AMOUNT_IN;
  if (amountIn > MAX_AMOUNT_IN) amountIn = MAX_AMOUNT_IN;
  const sim = await simulateRoundTrip(client, {
    router: pool.dex.router,
    token: address,
    amountIn,
    blockNumber,
  });
  const simEvidence = (leg: string, result: RoundTripLeg): Evidence => ({
    kind: 'simulation',
    summary: `${leg} ${result.ok ? 'succeeded' : `reverted${result.revertReason ? `: ${result.revertReason}` : ''}`}`,
    data: {
      leg,
      ok: result.ok,
      expected: result.expected.toString(),
      received: result.received.toString(),
      tax_bps: result.taxBps,
      gas_used: result.gasUsed.toString(),
      router: pool.dex.router,
      pair: pool.pair,
      amount_in_wei: amountIn.toString(),
    },
    block,
  });

  const checks: Check[] = [];
  const { buy, transfer, sell } = sim;
  checks.push(
    makeCheck('cannot_buy', {
      status: buy.ok ? 'pass' : 'fail',
      detail: buy.ok
        ? `Buying with ${formatEther(amountIn)} of the native asset works.`
        : `Buying reverts: ${buy.revertReason ?? 'no reason given'}.`,
      evidence: [simEvidence('buy', buy)],
    }),
  );
  if (!buy.ok) {
    for (const id of ['is_honeypot', 'buy_tax', 'sell_tax', 'transfer_tax'] as const) {
      checks.push(unknownCheck(id, 'The buy failed, so the later legs could not be simulated.'));
    }
    return { checks, facts: { pool: poolFacts(pool) } };
  }
  if (!sell.attempted) {
    checks.push(unknownCheck('is_honeypot', 'The buy delivered no tokens, so selling could not be tried.'));
  } else
    checks.push(
      makeCheck('is_honeypot', {
        status: sell.ok ? 'pass' : 'fail',
        value: !sell.ok,
        detail: sell.ok
          ? 'The bought tokens can be sold back.'
          : `Buying works but selling reverts: ${sell.revertReason ?? 'no reason given'}.`,
        evidence: [simEvidence('buy', buy), simEvidence('sell', sell)],
      }),
    );
  checks.push(taxCheck('buy_tax', buy, simEvidence('buy', buy)));
  checks.push(transferCheck(transfer, simEvidence('transfer', transfer)));
  checks.push(
    sell.ok
      ? taxCheck('sell_tax', sell, simEvidence('sell', sell))
      : unknownCheck(
          'sell_tax',
          sell.attempted
            ? 'The sell reverted, so no tax could be measured.'
            : 'Nothing was bought, so nothing could be sold.',
        ),
  );
  return { checks, facts: { pool: poolFacts(pool) } };
}

function transferCheck(leg: RoundTripLeg, evidence: Evidence): Check {
  if (!leg.attempted)
    return unknownCheck('transfer_tax', 'Nothing was bought, so no transfer could be tried.');
  if (leg.ok) return taxCheck('transfer_tax', leg, evidence);
  return makeCheck('transfer_tax', {
    status: 'fail',
    severity: 'high',
    value: 100,
    detail: `Wallet-to-wallet transfers revert: ${leg.revertReason ?? 'no reason given'}.`,
    evidence: [evidence],
  });
}

function taxCheck(id: CheckId, leg: RoundTripLeg, evidence: Evidence): Check {
  const pct = leg.taxBps === null ? null : leg.taxBps / 100;
  if (pct === null) return unknownCheck(id, 'The expected amount could not be computed.');
  const band = TAX_THRESHOLDS.bands.find((candidate) => pct > candidate.above);
  const label = `${pct.toFixed(2)}%`;
  if (!band || pct <= TAX_THRESHOLDS.tolerated) {
    return makeCheck(id, {
      status: 'pass',
      value: pct,
      green: pct <= TAX_THRESHOLDS.greenAtMost,
      detail: `Measured ${label}, within the tolerated ${TAX_THRESHOLDS.tolerated}%.`,
      evidence: [evidence],
    });
  }
  return makeCheck(id, {
    status: 'fail',
    value: pct,
    severity: band.severity,
    detail: `Measured ${label}.`,
    evidence: [evidence],
  });
}

function poolFacts(pool: NonNullable<Awaited<ReturnType<typeof findPool>>>): Record<string, string> {
  return {
    dex: pool.dex.name,
    pair: pool.pair,
    reserve_token: pool.reserveToken.toString(),
    reserve_native: pool.reserveNative.toString(),
  };
}
