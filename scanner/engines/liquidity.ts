import { type Address, erc20Abi, formatUnits, getAddress } from 'viem';
import { HOLDER_THRESHOLDS, LIQUIDITY_THRESHOLDS } from '../core/risk/model.ts';
import { makeCheck, unknownCheck } from '../core/checks.ts';
import type { Check, Evidence } from '../core/schema.ts';
import { findPools } from '../evm/findPool.ts';
import { type EngineOutput, type EvmEngineInput, percent, share } from './context.ts';

/**
 * Liquidity at the pinned block: the token's pools against the wrapped native asset on the
 * chain's DEXes, how much of the quote asset they hold, and who holds the deepest pool's LP
 * tokens (burned, in a known locker, with the deployer, elsewhere).
 */
export async function liquidity(input: EvmEngineInput): Promise<EngineOutput> {
  const { client, chain, address, blockNumber, creation } = input;
  const block = blockNumber.toString();
  const pools = await findPools(client, { token: address, dexes: chain.dexes, blockNumber });
  const deepest = pools[0];
  if (!deepest) {
    const reason =
      chain.dexes.length === 0
        ? 'No DEX is configured for this chain.'
        : `No pool against the wrapped native asset on ${chain.dexes.map((dex) => dex.name).join(', ')}.`;
    return {
      checks: [unknownCheck('low_liquidity', reason), unknownCheck('lp_unlocked', reason)],
      facts: { pools: [] },
    };
  }
  const decimals = chain.native.decimals;
  const totalNative = pools.reduce((sum, pool) => sum + pool.reserveNative, 0n);
  const whole = Number(formatUnits(totalNative, decimals));
  const min = LIQUIDITY_THRESHOLDS.minNative[chain.native.symbol] ?? LIQUIDITY_THRESHOLDS.defaultMinNative;
  const poolEvidence: Evidence[] = pools.map((pool) => ({
    kind: 'call',
    summary: `${pool.dex.name} pair ${pool.pair} getReserves(): ${formatUnits(pool.reserveNative, decimals)} ${chain.native.symbol}`,
    data: {
      pair: pool.pair,
      dex: pool.dex.name,
      reserve_native: pool.reserveNative.toString(),
      reserve_token: pool.reserveToken.toString(),
    },
    block,
  }));
  const checks: Check[] = [
    whole >= min
      ? makeCheck('low_liquidity', {
          status: 'pass',
          value: whole,
          detail: `${whole} ${chain.native.symbol} in the pools, above the ${min} ${chain.native.symbol} threshold.`,
          evidence: poolEvidence,
        })
      : makeCheck('low_liquidity', {
          status: 'fail',
          value: whole,
          severity: whole < min / 10 ? 'high' : 'medium',
          detail: `Only ${whole} ${chain.native.symbol} in the pools (threshold ${min}): a small sale moves the price a lot, and there is little to exit into.`,
          evidence: poolEvidence,
        }),
  ];

  const lockers = (input.config.lpLockers.get(chain.id as never) ?? []).map((locker) => getAddress(locker));
  const deployer = creation ? getAddress(creation.deployer) : undefined;
  const holders: { role: string; address: Address }[] = [
    ...HOLDER_THRESHOLDS.burnAddresses.map((burn) => ({ role: 'burned', address: getAddress(burn) })),
    ...lockers.map((locker) => ({ role: 'locked', address: locker })),
    ...(deployer ? [{ role: 'deployer', address: deployer }] : []),
  ];
  const [lpSupply, ...balances] = await Promise.all([
    client.readContract({ address: deepest.pair, abi: erc20Abi, functionName: 'totalSupply', blockNumber }),
    ...holders.map((holder) =>
      client.readContract({
        address: deepest.pair,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [holder.address],
        blockNumber,
      }),
    ),
  ]);
  const sum = (role: string) =>
    holders.reduce(
      (total, holder, index) => (holder.role === role ? total + (balances[index] ?? 0n) : total),
      0n,
    );
  const burned = sum('burned');
  const locked = sum('locked');
  const byDeployer = sum('deployer');
  const lpFacts = {
    pair: deepest.pair,
    lp_supply: lpSupply.toString(),
    burned_share: share(burned, lpSupply),
    locked_share: share(locked, lpSupply),
    deployer_share: share(byDeployer, lpSupply),
  };
  const lpEvidence: Evidence = {
    kind: 'call',
    summary: `LP ${deepest.pair}: ${percent(lpFacts.burned_share)} burned, ${percent(lpFacts.locked_share)} in lockers, ${percent(lpFacts.deployer_share)} with the deployer`,
    data: { ...lpFacts, lockers: lockers.join(',') || null, deployer: deployer ?? null },
    block,
  };
  if (lpSupply === 0n) {
    checks.push(unknownCheck('lp_unlocked', 'The pool has no LP tokens (never funded or fully withdrawn).'));
  } else {
    const safe = lpFacts.burned_share + lpFacts.locked_share;
    checks.push(
      safe >= LIQUIDITY_THRESHOLDS.lockedShare
        ? makeCheck('lp_unlocked', {
            status: 'pass',
            value: safe,
            detail: `${percent(safe)} of the LP tokens are burned or locked.`,
            evidence: [lpEvidence],
          })
        : makeCheck('lp_unlocked', {
            status: 'fail',
            value: safe,
            ...(lpFacts.deployer_share < 0.5 ? { severity: 'medium' as const } : {}),
            detail:
              `Only ${percent(safe)} of the LP tokens are burned or locked` +
              (lpFacts.deployer_share > 0
                ? `; the deployer holds ${percent(lpFacts.deployer_share)} and can withdraw it.`
                : '.'),
            evidence: [lpEvidence],
          }),
    );
  }
  return {
    checks,
    facts: {
      pools: pools.map((pool) => ({
        dex: pool.dex.name,
        pair: pool.pair,
        reserve_native: pool.reserveNative.toString(),
      })),
      liquidity_native: whole,
      lp: lpFacts,
    },
  };
}
