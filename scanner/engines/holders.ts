import { type Address, erc20Abi, getAddress, parseAbiItem } from 'viem';
import { HOLDER_THRESHOLDS } from '../core/risk/model.ts';
import { makeCheck, unknownCheck } from '../core/checks.ts';
import type { Check, Evidence } from '../core/schema.ts';
import { findPools } from '../evm/findPool.ts';
import { readLogs } from '../evm/readLogs.ts';
import { type EngineOutput, type EvmEngineInput, percent, share } from './context.ts';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const TOP = 10;

/**
 * Holders at the pinned block. EVM has no holder list: every address a Transfer log touched
 * since the token's creation (within SCAN_LOG_WINDOW_BLOCKS) is a candidate, and its balance is
 * read at the pinned block. Pools, burn addresses, known lockers and the token itself are not
 * holders. When the window or the log cap did not cover the whole history, counts are lower
 * bounds: a check is decided only where a lower bound already decides it.
 */
export async function holders(input: EvmEngineInput): Promise<EngineOutput> {
  const { client, chain, address, blockNumber, creation, config } = input;
  const block = blockNumber.toString();
  const { SCAN_LOG_WINDOW_BLOCKS, SCAN_LOG_CHUNK_BLOCKS, SCAN_MAX_LOGS } = config.limits;
  const windowStart =
    blockNumber > BigInt(SCAN_LOG_WINDOW_BLOCKS) ? blockNumber - BigInt(SCAN_LOG_WINDOW_BLOCKS) : 0n;
  const created = creation ? BigInt(creation.block) : undefined;
  const fromBlock = created !== undefined && created > windowStart ? created : windowStart;
  const [scan, pools, supply] = await Promise.all([
    readLogs(client, {
      address,
      event: transferEvent,
      fromBlock,
      toBlock: blockNumber,
      chunk: SCAN_LOG_CHUNK_BLOCKS,
      maxLogs: SCAN_MAX_LOGS,
    }),
    findPools(client, { token: address, dexes: chain.dexes, blockNumber }),
    client.readContract({ address, abi: erc20Abi, functionName: 'totalSupply', blockNumber }),
  ]);
  const complete = scan.complete && created !== undefined && created >= windowStart;
  const excluded = new Map<Address, string>([
    [getAddress(address), 'token'],
    ...pools.map((pool) => [getAddress(pool.pair), 'pool'] as [Address, string]),
    ...HOLDER_THRESHOLDS.burnAddresses.map((burn) => [getAddress(burn), 'burn'] as [Address, string]),
    ...(config.lpLockers.get(chain.id as never) ?? []).map(
      (locker) => [getAddress(locker), 'locker'] as [Address, string],
    ),
  ]);
  const deployer = creation ? getAddress(creation.deployer) : undefined;
  const touched = new Set<Address>();
  for (const log of scan.logs) {
    touched.add(getAddress(log.args.from));
    touched.add(getAddress(log.args.to));
  }
  if (deployer) touched.add(deployer);
  const candidates = [...touched];
  const balances = await Promise.all(
    candidates.map((holder) =>
      client.readContract({ address, abi: erc20Abi, functionName: 'balanceOf', args: [holder], blockNumber }),
    ),
  );
  const held = candidates
    .map((holder, index) => ({ holder, balance: balances[index] ?? 0n }))
    .filter((entry) => entry.balance > 0n);
  const excludedHeld = held.filter((entry) => excluded.has(entry.holder));
  const ranked = held
    .filter((entry) => !excluded.has(entry.holder))
    .sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
  const top = ranked.slice(0, TOP);
  const topShare = share(
    top.reduce((sum, entry) => sum + entry.balance, 0n),
    supply,
  );
  const deployerBalance = deployer
    ? (held.find((entry) => entry.holder === deployer)?.balance ?? 0n)
    : undefined;
  const byRole = (role: string) =>
    share(
      excludedHeld
        .filter((entry) => excluded.get(entry.holder) === role)
        .reduce((sum, entry) => sum + entry.balance, 0n),
      supply,
    );
  const facts = {
    holder_count: ranked.length,
    holder_count_exact: complete,
    top10_share: topShare,
    pool_share: byRole('pool'),
    burned_share: byRole('burn'),
    locked_share: byRole('locker'),
    deployer_share: deployerBalance === undefined ? null : share(deployerBalance, supply),
    logs_read: scan.logs.length,
    from_block: fromBlock.toString(),
  };
  const scope = `${scan.logs.length} Transfer logs from block ${fromBlock} to ${block}${complete ? ' (the whole history)' : ' (not the whole history)'}`;
  const logEvidence: Evidence = {
    kind: 'log',
    summary: scope,
    data: { logs: scan.logs.length, from_block: fromBlock.toString(), complete },
    block,
  };
  const topEvidence: Evidence = {
    kind: 'call',
    summary: `balanceOf at the pinned block: top ${top.length} holders (pools, burn, lockers excluded) own ${percent(topShare)}`,
    data: Object.fromEntries(top.map((entry) => [entry.holder, entry.balance.toString()])),
    block,
  };

  const checks: Check[] = [];
  const { minHolders } = HOLDER_THRESHOLDS;
  checks.push(
    ranked.length >= minHolders
      ? makeCheck('low_holder_count', {
          status: 'pass',
          value: ranked.length,
          detail: `${ranked.length}${complete ? '' : '+'} holders.`,
          evidence: [logEvidence],
        })
      : complete
        ? makeCheck('low_holder_count', {
            status: 'fail',
            value: ranked.length,
            detail: `${ranked.length} holders besides pools and burn addresses (fewer than ${minHolders}).`,
            evidence: [logEvidence],
          })
        : unknownCheck(
            'low_holder_count',
            `Only part of the history was read (${scope}); ${ranked.length} holders seen.`,
          ),
  );
  const band = HOLDER_THRESHOLDS.concentration.find((entry) => topShare > entry.above);
  checks.push(
    band
      ? makeCheck('holder_concentration', {
          status: 'fail',
          value: topShare,
          severity: band.severity,
          detail: `The top ${top.length} holders own ${percent(topShare)} of the supply (pools, burn and locks excluded).`,
          evidence: [topEvidence, logEvidence],
        })
      : complete
        ? makeCheck('holder_concentration', {
            status: 'pass',
            value: topShare,
            detail: `The top ${top.length} holders own ${percent(topShare)} of the supply.`,
            evidence: [topEvidence, logEvidence],
          })
        : unknownCheck(
            'holder_concentration',
            `Only part of the history was read (${scope}); the top holders seen own ${percent(topShare)}.`,
          ),
  );
  if (deployerBalance === undefined || !deployer) {
    checks.push(unknownCheck('creator_holds_supply', 'The deployer is not known.'));
  } else {
    const creatorShare = share(deployerBalance, supply);
    const evidence: Evidence[] = [
      {
        kind: 'call',
        summary: `balanceOf(${deployer}) = ${deployerBalance} of ${supply}`,
        data: { deployer, balance: deployerBalance.toString() },
        block,
      },
    ];
    checks.push(
      creatorShare > HOLDER_THRESHOLDS.creatorShare
        ? makeCheck('creator_holds_supply', {
            status: 'fail',
            value: creatorShare,
            detail: `The deployer holds ${percent(creatorShare)} of the supply.`,
            evidence,
          })
        : makeCheck('creator_holds_supply', {
            status: 'pass',
            value: creatorShare,
            detail: `The deployer holds ${percent(creatorShare)} of the supply.`,
            evidence,
          }),
    );
  }
  return { checks, facts };
}
