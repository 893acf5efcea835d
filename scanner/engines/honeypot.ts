import { formatEther, parseAbi } from 'viem';
import { TAX_THRESHOLDS } from '../core/risk/model.ts';
import { type CheckId, makeCheck, unknownCheck } from '../core/checks.ts';
import { ENGINE_CHECKS } from '../core/engines.ts';
import type { Check, Evidence } from '../core/schema.ts';
import { findPool } from '../evm/findPool.ts';
import { type RoundTripLeg, simulateRoundTrip } from '../evm/simulateRoundTrip.ts';
import { simulationGasPrice } from '../evm/simulationGasPrice.ts';
import { tryRead } from '../evm/tryRead.ts';
import type { EngineOutput, EvmEngineInput } from './context.ts';

/** Trade size for the simulation: a small share of the pool, so price impact stays negligible. */
const POOL_SHARE_DIVISOR = 200n;
const MIN_AMOUNT_IN = 10n ** 12n;
/** A pool holding less than this much native asset (wei) is drained: nothing meaningful to trade. */
const DRAINED_POOL_WEI = 10n ** 12n;
const MAX_AMOUNT_IN = 10n ** 18n;
/** The size-limit probe buys this share of the pool's native reserve (a 5 % buy). */
const LARGE_BUY_DIVISOR = 20n;

/** Getters of max-transaction / max-wallet limits; a value below the supply is a limit. */
const LIMIT_GETTERS = [
  'maxTxAmount',
  '_maxTxAmount',
  'maxTransactionAmount',
  'maxWallet',
  'maxWalletSize',
  '_maxWalletSize',
  'maxWalletAmount',
  'maxBuyAmount',
  'maxSellAmount',
] as const;
const limitAbi = parseAbi([
  ...LIMIT_GETTERS.map((name) => `function ${name}() view returns (uint256)`),
  'function totalSupply() view returns (uint256)',
]);

/**
 * Honeypot and taxes: buys, transfers and sells the token against its deepest pool in one
 * simulated call at the pinned block (nothing is sent), and reads what each leg really did.
 */
export async function honeypot({
  client,
  chain,
  address,
  blockNumber,
}: EvmEngineInput): Promise<EngineOutput> {
  const dexes = chain.dexes;
  const block = blockNumber.toString();
  const [pool, limits, gasPrice] = await Promise.all([
    findPool(client, { token: address, dexes, blockNumber }),
    Promise.all(
      [...LIMIT_GETTERS, 'totalSupply' as const].map((functionName) =>
        tryRead(() => client.readContract({ address, abi: limitAbi, functionName, blockNumber })),
      ),
    ),
    simulationGasPrice(client, blockNumber),
  ]);
  if (!pool) {
    const reason =
      dexes.length === 0
        ? 'No DEX is configured for this chain, so trading could not be simulated.'
        : `No pool against the wrapped native asset on ${dexes.map((dex) => dex.name).join(', ')}.`;
    return { checks: ENGINE_CHECKS.honeypot.map((id) => unknownCheck(id, reason)), facts: { pool: null } };
  }

  if (pool.reserveNative < DRAINED_POOL_WEI) {
    const reason = `The pool ${pool.pair} holds ${pool.reserveNative} wei of the native asset: drained, so trading cannot be simulated.`;
    return {
      checks: ENGINE_CHECKS.honeypot.map((id) => unknownCheck(id, reason)),
      facts: { pool: poolFacts(pool) },
    };
  }
  let amountIn = pool.reserveNative / POOL_SHARE_DIVISOR;
  if (amountIn < MIN_AMOUNT_IN) amountIn = MIN_AMOUNT_IN;
  if (amountIn > MAX_AMOUNT_IN) amountIn = MAX_AMOUNT_IN;
  let largeAmountIn = pool.reserveNative / LARGE_BUY_DIVISOR;
  if (largeAmountIn < amountIn * 2n) largeAmountIn = amountIn * 2n;
  const sim = await simulateRoundTrip(client, {
    router: pool.dex.router,
    token: address,
    amountIn,
    largeAmountIn,
    blockNumber,
    ...(gasPrice === undefined ? {} : { gasPrice }),
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
      gas_price_wei: (gasPrice ?? 0n).toString(),
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
    for (const id of [
      'is_honeypot',
      'cannot_sell_all',
      'buy_tax',
      'sell_tax',
      'transfer_tax',
      'trading_cooldown',
    ] as const) {
      checks.push(unknownCheck(id, 'The buy failed, so the later legs could not be simulated.'));
    }
    checks.push(antiWhaleCheck(sim.largeBuy, buy, limits, simEvidence, block));
    return { checks, facts: { pool: poolFacts(pool), gas: gasFacts(sim) } };
  }
  const { sellPartial, buyAgain, sellAgain } = sim;
  const sold = sell.ok ? sell : sellPartial.ok ? sellPartial : undefined;
  if (!sell.attempted) {
    checks.push(unknownCheck('is_honeypot', 'The buy delivered no tokens, so selling could not be tried.'));
    checks.push(
      unknownCheck('cannot_sell_all', 'The buy delivered no tokens, so selling could not be tried.'),
    );
  } else {
    checks.push(
      makeCheck('is_honeypot', {
        status: sold ? 'pass' : 'fail',
        value: !sold,
        detail: sell.ok
          ? 'The bought tokens can be sold back.'
          : sold
            ? `Selling everything reverts (${sell.revertReason ?? 'no reason'}), but selling 90 % works.`
            : `Buying works but selling reverts: ${sell.revertReason ?? 'no reason given'}.`,
        evidence: [
          simEvidence('buy', buy),
          simEvidence('sell', sell),
          ...(sellPartial.attempted ? [simEvidence('sell 90%', sellPartial)] : []),
        ],
      }),
    );
    checks.push(
      sell.ok
        ? makeCheck('cannot_sell_all', {
            status: 'pass',
            green: false,
            detail: 'The whole holding sold in one go.',
            evidence: [simEvidence('sell', sell)],
          })
        : sellPartial.ok
          ? makeCheck('cannot_sell_all', {
              status: 'fail',
              detail: `Selling the whole holding reverts (${sell.revertReason ?? 'no reason'}) while selling 90 % works.`,
              evidence: [simEvidence('sell', sell), simEvidence('sell 90%', sellPartial)],
            })
          : unknownCheck(
              'cannot_sell_all',
              'No sell of any size worked, so the limit on selling everything could not be told apart.',
            ),
    );
  }
  checks.push(taxCheck('buy_tax', buy, simEvidence('buy', buy)));
  checks.push(transferCheck(transfer, simEvidence('transfer', transfer)));
  checks.push(
    sold
      ? taxCheck('sell_tax', sold, simEvidence(sold === sell ? 'sell' : 'sell 90%', sold))
      : unknownCheck(
          'sell_tax',
          sell.attempted
            ? 'The sell reverted, so no tax could be measured.'
            : 'Nothing was bought, so nothing could be sold.',
        ),
  );
  checks.push(antiWhaleCheck(sim.largeBuy, buy, limits, simEvidence, block));
  const cooledBuy = buyAgain.attempted && !buyAgain.ok;
  const cooledSell = sell.ok && sellAgain.attempted && !sellAgain.ok;
  checks.push(
    cooledBuy || cooledSell
      ? makeCheck('trading_cooldown', {
          status: 'fail',
          detail: cooledBuy
            ? `A second buy by the same wallet in the same block reverts: ${buyAgain.revertReason ?? 'no reason'}.`
            : `A second sell by the same wallet in the same block reverts: ${sellAgain.revertReason ?? 'no reason'}.`,
          evidence: [
            simEvidence('buy again', buyAgain),
            ...(sellAgain.attempted ? [simEvidence('sell again', sellAgain)] : []),
          ],
        })
      : buyAgain.ok
        ? makeCheck('trading_cooldown', {
            status: 'pass',
            detail: 'A second buy (and sell) by the same wallet in the same block works.',
            evidence: [
              simEvidence('buy again', buyAgain),
              ...(sellAgain.attempted ? [simEvidence('sell again', sellAgain)] : []),
            ],
          })
        : unknownCheck('trading_cooldown', 'The second buy could not be tried.'),
  );
  return { checks, facts: { pool: poolFacts(pool), gas: gasFacts(sim) } };
}

function antiWhaleCheck(
  largeBuy: RoundTripLeg,
  buy: RoundTripLeg,
  limits: readonly (bigint | undefined)[],
  simEvidence: (leg: string, result: RoundTripLeg) => Evidence,
  block: string,
): Check {
  const supply = limits[limits.length - 1];
  const found = LIMIT_GETTERS.flatMap((name, index) => {
    const value = limits[index];
    return value !== undefined && supply !== undefined && value > 0n && value < supply
      ? [{ name, value }]
      : [];
  });
  const evidence: Evidence[] = [
    ...found.map(({ name, value }) => ({
      kind: 'call' as const,
      summary: `${name}() returned ${value} of a ${supply ?? '?'} supply`,
      data: { function: `${name}()`, result: value.toString() },
      block,
    })),
    ...(largeBuy.attempted ? [simEvidence('large buy', largeBuy)] : []),
  ];
  const blocked = buy.ok && largeBuy.attempted && !largeBuy.ok;
  if (found.length > 0 || blocked) {
    return makeCheck('is_anti_whale', {
      status: 'fail',
      value: found[0]?.value.toString() ?? null,
      detail: blocked
        ? `A buy of ${formatEther(largeBuy.amountIn)} of the native asset reverts (${largeBuy.revertReason ?? 'no reason'}) where a small one works.`
        : `The token caps sizes: ${found.map(({ name }) => `${name}()`).join(', ')}.`,
      evidence,
    });
  }
  if (!largeBuy.attempted || !largeBuy.ok)
    return unknownCheck(
      'is_anti_whale',
      'No buy worked, so size limits could not be told apart, and no limit getter answered.',
    );
  return makeCheck('is_anti_whale', {
    status: 'pass',
    detail: `A buy of ${formatEther(largeBuy.amountIn)} of the native asset by a fresh wallet works; no limit getter is set.`,
    evidence,
  });
}

function gasFacts(sim: Awaited<ReturnType<typeof simulateRoundTrip>>): Record<string, string | null> {
  const gas = (leg: RoundTripLeg) => (leg.attempted ? leg.gasUsed.toString() : null);
  return { buy: gas(sim.buy), transfer: gas(sim.transfer), sell: gas(sim.sell) };
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
