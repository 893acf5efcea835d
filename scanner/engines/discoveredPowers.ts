import { formatEther } from 'viem';
import { type CheckId, makeCheck, unknownCheck } from '../core/checks.ts';
import { type Check, CheckStatus, type Evidence, Severity } from '../core/schema.ts';
import type { DiscoveryResult, PowerClass, PowerFinding } from '../evm/discoverPowers.ts';

/** The check each demonstrated class fails, and the capability checks it vouches for when absent. */
const CLASS_CHECK: Record<PowerClass, { id: CheckId; power: string; capabilities: CheckId[] }> = {
  mint: { id: 'is_mintable', power: 'raise the supply by half or more', capabilities: ['is_mintable'] },
  leak: {
    id: 'owner_change_balance',
    power: "take or rewrite a holder's balance",
    capabilities: ['owner_change_balance'],
  },
  limit: {
    id: 'sells_blockable',
    power: "stop or tax above 10 % a holder's transfer or sell",
    capabilities: [
      'transfer_pausable',
      'is_blacklisted',
      'is_whitelisted',
      'slippage_modifiable',
      'anti_whale_modifiable',
    ],
  },
};
const MAX_EVIDENCE = 6;

export interface DiscoveryFacts {
  result: DiscoveryResult;
  /** The probe's holder held tokens, so leaks and limits could be measured. */
  holderFunded: boolean;
  block: string;
}

/**
 * Folds demonstrated powers into the checks: a class shown by a call fails its check as a gate
 * with the call as evidence; a capability the dispatcher has (a pause, a blacklist, a fee setter,
 * a capped mint) whose every simulated use left holders whole is kept, weighing nothing.
 */
export function applyDiscovery(checks: Check[], facts: DiscoveryFacts): Check[] {
  const { result, block } = facts;
  let out = [...checks];
  const pairs =
    result.pairs.planned === 0
      ? ''
      : `; ${result.pairs.tried} of ${result.pairs.planned} two-call sequences (a call that changed state, then another)`;
  const triples =
    result.triples.planned === 0
      ? ''
      : `; ${result.triples.tried} of ${result.triples.planned} three-call sequences`;
  const rescaled =
    result.rescaled === 0
      ? ''
      : `; ${result.rescaled} calls again with a stored small number counted in per mille or basis points`;
  const repeated =
    result.repeated === 0
      ? ''
      : `; ${result.repeated} calls that moved something short of a finding made again and again in a row`;
  const { timed, wrapped } = result.comparisons;
  const compared =
    timed === 0 ? '' : `; ${timed} calls again at a time their own comparison of the clock named`;
  const handed =
    wrapped === 0
      ? ''
      : `; ${wrapped} calls handing a function that takes calls from the token alone to the token's other functions`;
  const { laterBlock } = result;
  const later =
    laterBlock.tried === 0
      ? ''
      : `; ${laterBlock.tried} of ${laterBlock.planned} pairs of blocks (a call that changed state as its own transaction, then, an hour on, ${laterBlock.calls} calls of functions that did nothing at the block)${laterBlock.error ? ` (not run: ${laterBlock.error})` : ''}`;
  const { wei, share, tried, refused } = result.holderBuy;
  const bought =
    tried === 0
      ? ''
      : wei === null
        ? `; the holder bought with 0.01 of the native coin (none of ${tried} larger shares of the pool bought, sent and sold whole)`
        : `; the holder bought with ${formatEther(wei)} of the native coin (${share} of the pool, the largest share that bought, sent and sold whole)${refused ? ', and with 0.01 after a later probe found that buy refused' : ''}`;
  const summary = `${result.selectorsTried} selectors × argument shapes from each candidate account: ${result.calls} simulated calls in ${result.roundTrips} eth_calls, at the block and with the clock moved a day and a year on${pairs}${triples}${rescaled}${repeated}${compared}${handed}${later}${bought}`;
  for (const [kind, target] of Object.entries(CLASS_CHECK) as [
    PowerClass,
    (typeof CLASS_CHECK)[PowerClass],
  ][]) {
    const measurable = kind === 'mint' || facts.holderFunded;
    const shown = result.findings.filter((finding) => finding.class === kind);
    const first = shown[0];
    if (first) {
      const check = makeCheck(target.id, {
        status: 'fail',
        value: first.signature ?? first.selector,
        detail: `${describe(first)}: that account can ${target.power}.`,
        evidence: [
          ...shown.slice(0, MAX_EVIDENCE).map((finding) => findingEvidence(finding, block)),
          ...(out.find((check) => check.id === target.id)?.evidence ?? []).filter(
            (evidence) => evidence.kind !== 'simulation',
          ),
          { kind: 'note', summary, block },
        ],
      });
      out = replace(out, check);
      continue;
    }
    if (!measurable || result.failures.length > 0) {
      // A pass from the dispatcher ("no known function to mint") is no longer vouched for: the
      // calls that would have found the power under another name did not all run.
      const existing = out.find((check) => check.id === target.id);
      const notRun = `Some power-discovery probes could not run (${result.failures.length}, the first: ${result.failures[0]}), so no call that could ${target.power} is ruled out.`;
      if (measurable && existing?.status === CheckStatus.pass)
        out = replace(out, unknownCheck(target.id, `${existing.detail} ${notRun}`));
      if (kind === 'limit' && !existing)
        out = replace(
          out,
          unknownCheck(
            'sells_blockable',
            measurable ? notRun : 'No pool to buy from, so no holder whose sells a call could stop.',
          ),
        );
      continue;
    }
    if (kind === 'limit' && !out.some((check) => check.id === 'sells_blockable'))
      out = replace(
        out,
        makeCheck('sells_blockable', {
          status: 'pass',
          detail: `No simulated call from any candidate account stopped or taxed above 10 % a holder's transfer or sell.`,
          evidence: [{ kind: 'note', summary, block }],
        }),
      );
    for (const id of target.capabilities) {
      const existing = out.find((check) => check.id === id);
      if (!existing || existing.status !== CheckStatus.fail || existing.severity === Severity.info) continue;
      if (existing.gate && id === target.id) continue; // an older probe demonstrated it already
      out = replace(out, {
        ...existing,
        severity: Severity.info,
        gate: false,
        downgraded: {
          from: existing.severity,
          reason: `no simulated use could ${target.power} (${result.calls} calls from every candidate account)`,
        },
      });
    }
  }
  // Whether every planned probe ran: a token whose probes could not all run (a node's refusals, the
  // time budget spent on a slow node or a deliberately costly token) is not left in the lowest tier
  // on what the rest of its checks say.
  out = replace(
    out,
    result.failures.length > 0
      ? makeCheck('discovery_incomplete', {
          status: 'fail',
          value: result.failures.length,
          detail: `Power discovery did not finish (${result.failures.length === 1 ? 'one reason' : `${result.failures.length} reasons`}; the first: ${result.failures[0]}). What it found stands; no power it did not try is ruled out.`,
          evidence: [
            ...result.failures.slice(0, MAX_EVIDENCE).map((failure) => ({
              kind: 'note' as const,
              summary: failure,
              block,
            })),
            { kind: 'note', summary, block },
          ],
        })
      : makeCheck('discovery_incomplete', {
          status: 'pass',
          detail: `Every probe power discovery planned ran (${result.calls} simulated calls).`,
          evidence: [{ kind: 'note', summary, block }],
        }),
  );
  return out;
}

function replace(checks: Check[], check: Check): Check[] {
  const index = checks.findIndex((existing) => existing.id === check.id);
  if (index < 0) return [...checks, check];
  const copy = [...checks];
  copy[index] = check;
  return copy;
}

function when(finding: PowerFinding): string {
  const seconds = finding.timeOffsetSeconds;
  if (seconds === 0) return '';
  if (seconds === 86_400) return ' with the clock a day on';
  if (seconds === 365 * 86_400) return ' with the clock a year on';
  // Exact, in the largest whole unit that fits: a time the call's own comparison named, or the
  // later-block round's block.
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  const [size, name] = units.find(([unit]) => seconds >= unit) ?? [1, 'second'];
  const whole = Math.floor(seconds / size);
  const rest = seconds - whole * size;
  const why =
    finding.measuredLater || finding.prelude?.earlierBlock
      ? ''
      : ' (a time the call compared the clock with)';
  return ` with the clock ${whole} ${name}${whole === 1 ? '' : 's'}${rest ? ` and ${rest} s` : ''} on${why}`;
}

/** Where a call went, when not to the token itself. */
function on(target: string | null): string {
  return target ? ` of the contract ${target} the token relies on` : '';
}

/**
 * The holder's transfer, its sell before receiving anything (made only where its own receipt
 * locks its later sell), and its sell after receiving one unit from itself.
 */
function holderLegs(finding: PowerFinding): string {
  const { holder_transfer, holder_sell_before_receipt, holder_sell } = finding.diff;
  const early = holder_sell_before_receipt === 'not attempted' ? '' : `; sell ${holder_sell_before_receipt}`;
  return `${holder_transfer}${early}; sell after receiving ${holder_sell}`;
}

/** What the toggle round's trading is (the detector's CHURN). */
const TRADING = "ten buys for fresh wallets, a tenth of the pool's wrapped coin in all";

/** A call made before the finding's own. */
type EarlierCall = NonNullable<PowerFinding['prelude']>;

function describe(finding: PowerFinding): string {
  if (finding.selector === '0x')
    return `With no call at all${when(finding)}, a holder's transfer or sell fails or is taxed (${holderLegs(finding)})`;
  const label = (call: {
    signature: string | null;
    selector: string;
    target: string | null;
    args: string[];
  }) =>
    `${call.signature ?? `function ${call.selector}`}${on(call.target)} (${call.args.join(', ') || 'no arguments'})`;
  const by = (call: EarlierCall) => (call.caller ? ` by ${call.caller}` : '');
  // Two staging calls sent in one block (each needed, neither enough alone).
  const stagedPair =
    finding.first?.earlierBlock && finding.prelude?.earlierBlock && !finding.prelude.middleBlock;
  const earlier = stagedPair
    ? `${label(finding.first as EarlierCall)} and ${label(finding.prelude as EarlierCall)} sent as transactions${by(finding.prelude as EarlierCall)} in a block of their own, then in a later block `
    : [finding.first, finding.prelude]
        .filter((call) => call !== null)
        .map(
          (call) =>
            `${label(call)}${call.earlierBlock ? ` sent as a transaction${by(call)} in a block of its own, then in a later block ` : finding.afterTrading ? `, then the market trading (${TRADING}), then ` : ', then '}`,
        )
        .join('');
  const times = finding.repeats > 1 ? `, made ${finding.repeats} times in a row,` : '';
  const name = `${earlier}${finding.signature ?? `function ${finding.selector}`}${on(finding.target)}`;
  const changes: string[] = [];
  if (finding.diff.supply_before !== finding.diff.supply_after)
    changes.push(`supply ${finding.diff.supply_before} → ${finding.diff.supply_after}`);
  if (finding.diff.holder_balance_before !== finding.diff.holder_balance_after)
    changes.push(
      `a holder's balance ${finding.diff.holder_balance_before} → ${finding.diff.holder_balance_after}`,
    );
  if (finding.diff.caller_balance_before !== finding.diff.caller_balance_after)
    changes.push(
      `the caller's balance ${finding.diff.caller_balance_before} → ${finding.diff.caller_balance_after}`,
    );
  if (finding.diff.pair_balance_before !== finding.diff.pair_balance_after)
    changes.push(
      `the pair's balance ${finding.diff.pair_balance_before} → ${finding.diff.pair_balance_after}`,
    );
  if (finding.class === 'limit') changes.push(`the holder's transfer then ${holderLegs(finding)}`);
  if (finding.afterTrading) changes.unshift('counted from the end of the trading');
  if (finding.measuredLater)
    return finding.prelude?.earlierBlock
      ? `${label(finding.prelude)} and ${label(finding)} sent as transactions by ${finding.caller} (${finding.callerSource}) in a block of their own succeeded, and in a later block${when(finding)}: ${changes.join('; ')}`
      : `${name} (${finding.args.join(', ') || 'no arguments'}) sent as a transaction by ${finding.caller} (${finding.callerSource}) in a block of its own succeeded, and in a later block${when(finding)}: ${changes.join('; ')}`;
  return `${name} (${finding.args.join(', ') || 'no arguments'})${times} called as ${finding.caller} (${finding.callerSource})${when(finding)} succeeded: ${changes.join('; ')}`;
}

function findingEvidence(finding: PowerFinding, block: string): Evidence {
  return {
    kind: 'simulation',
    summary: describe(finding),
    data: {
      class: finding.class,
      selector: finding.selector,
      ...(finding.target ? { target: finding.target } : {}),
      signature: finding.signature,
      caller: finding.caller,
      caller_source: finding.callerSource,
      ...(finding.origin ? { tx_origin: finding.origin } : {}),
      args: finding.args.join(', '),
      calldata: finding.calldata,
      ...(finding.prelude
        ? {
            prelude_selector: finding.prelude.selector,
            ...(finding.prelude.target ? { prelude_target: finding.prelude.target } : {}),
            prelude_args: finding.prelude.args.join(', '),
            prelude_calldata: finding.prelude.calldata,
            ...(finding.prelude.caller ? { prelude_caller: finding.prelude.caller } : {}),
            ...(finding.prelude.earlierBlock
              ? {
                  prelude_block:
                    finding.prelude.middleBlock === 'halfway'
                      ? 'halfway between the first call and this one'
                      : finding.prelude.middleBlock === 'next'
                        ? 'the block after the first call'
                        : 'earlier',
                }
              : {}),
          }
        : {}),
      ...(finding.first
        ? {
            first_selector: finding.first.selector,
            first_args: finding.first.args.join(', '),
            first_calldata: finding.first.calldata,
            ...(finding.first.earlierBlock ? { first_block: 'earlier' } : {}),
          }
        : {}),
      ...(finding.repeats > 1 ? { repeats: finding.repeats, repeated_calldata: finding.repeatedCall } : {}),
      ...(finding.measuredLater ? { measured: 'in a later block' } : {}),
      ...(finding.afterTrading ? { measured: 'after the market traded', trading: TRADING } : {}),
      time_offset_seconds: finding.timeOffsetSeconds,
      ...finding.diff,
    },
    block,
  };
}
