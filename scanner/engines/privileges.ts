import type { Address, Hex } from 'viem';
import { PROXY_TIMELOCK_MIN_SECONDS } from '../core/risk/model.ts';
import { type CheckId, makeCheck } from '../core/checks.ts';
import { type Check, type Evidence, Severity } from '../core/schema.ts';
import { findPrivileged, type PrivilegeGroup } from '../evm/knownSelectors.ts';
import type { PrivilegeCandidate } from '../evm/privilegeCandidates.ts';
import {
  blockedHolder,
  type CallEffect,
  changedBalance,
  minted,
  type ProbePrivilegesReturnType,
} from '../evm/probePrivileges.ts';
import type { UpgradeAuthority } from '../evm/readUpgradeAuthority.ts';

/** owner(): a live account, the zero address (renounced), or no such getter. */
export type OwnerState = { kind: 'live'; owner: Address } | { kind: 'renounced' } | { kind: 'none' };

export interface ProbeRun {
  actor: PrivilegeCandidate;
  result: ProbePrivilegesReturnType;
}

export interface PrivilegeFacts {
  selectors: ReadonlySet<Hex>;
  implementationSelectors: ReadonlySet<Hex>;
  owner: OwnerState;
  runs: readonly ProbeRun[];
  /** How many accounts were tried besides a live owner. */
  candidates: number;
  upgrade: UpgradeAuthority;
  block: string;
}

/** Capabilities found by selector, what each lets its holder do, and the check it raises. */
const CAPABILITIES: {
  id: CheckId;
  group: PrivilegeGroup;
  power: string;
  live: (effect: CallEffect) => boolean;
}[] = [
  { id: 'is_mintable', group: 'mint', power: 'mint new supply', live: minted },
  { id: 'owner_change_balance', group: 'balance', power: "change holders' balances", live: changedBalance },
  {
    id: 'is_blacklisted',
    group: 'blacklist',
    power: 'block addresses from trading',
    live: (effect) => effect.ok,
  },
  { id: 'is_whitelisted', group: 'whitelist', power: 'exempt chosen addresses', live: (effect) => effect.ok },
  {
    id: 'transfer_pausable',
    group: 'pause',
    power: 'pause transfers or trading',
    live: (effect) => effect.ok,
  },
  { id: 'slippage_modifiable', group: 'fees', power: 'change buy/sell taxes', live: (effect) => effect.ok },
  { id: 'anti_whale_modifiable', group: 'limits', power: 'change size limits', live: (effect) => effect.ok },
];

interface LiveUse {
  run: ProbeRun;
  effect: CallEffect;
}

/** The ownership and privilege checks, decided from selectors and the probes' observed effects. */
export function privilegeChecks(facts: PrivilegeFacts): Check[] {
  const { owner, runs, block, upgrade } = facts;
  const uses = (group: PrivilegeGroup, live: (effect: CallEffect) => boolean): LiveUse[] => {
    const signatures = new Set(findPrivileged(group, facts.selectors).map((entry) => entry.signature));
    return runs.flatMap((run) =>
      run.result.effects
        .filter((effect) => signatures.has(effect.label) && live(effect))
        .map((effect) => ({ run, effect })),
    );
  };
  const upgradeable = upgrade.kind === 'account' || upgrade.kind === 'timelock';
  const hiddenUses =
    owner.kind === 'live' ? [] : CAPABILITIES.flatMap(({ group, live }) => uses(group, live));
  const reclaims =
    owner.kind === 'renounced' ? uses('reclaim', (effect) => effect.ok && effect.ownerAfter !== null) : [];
  const tried = `${facts.candidates} candidate account${facts.candidates === 1 ? '' : 's'} (deployer, role getters, stored addresses)`;

  const checks: Check[] = [];
  for (const { id, group, power, live } of CAPABILITIES) {
    const found = findPrivileged(group, facts.selectors);
    if (found.length === 0) {
      checks.push(
        makeCheck(id, {
          status: 'pass',
          detail: `No known function to ${power} in the dispatcher.`,
          evidence: [
            { kind: 'bytecode', summary: `${facts.selectors.size} selectors in the dispatcher`, block },
          ],
        }),
      );
      continue;
    }
    const names = found.map((entry) => entry.signature).join(', ');
    const selectorEvidence: Evidence[] = found.map(({ signature, selector }) => ({
      kind: 'selector',
      summary: `${signature} (${selector}) is in the dispatcher`,
      data: {
        signature,
        selector,
        in: facts.implementationSelectors.has(selector) ? 'implementation' : 'contract',
      },
      block,
    }));
    const live_ = uses(group, live);
    const first = live_[0];
    if (first) {
      const hidden = owner.kind === 'renounced' ? ' although owner() is the zero address' : '';
      checks.push(
        makeCheck(id, {
          status: 'fail',
          value: names,
          detail: `${first.effect.label} called as ${first.run.actor.address} (${first.run.actor.source})${hidden} succeeded${describeEffect(first.effect, first.run)}: that account can ${power}.`,
          evidence: [
            ...selectorEvidence,
            ...live_.map(({ run, effect }) => effectEvidence(run, effect, block)),
          ],
        }),
      );
      continue;
    }
    const attempts = runs.flatMap((run) =>
      run.result.effects
        .filter((effect) => found.some((entry) => entry.signature === effect.label))
        .map((effect) => effectEvidence(run, effect, block)),
    );
    if (group === 'balance') {
      checks.push(
        makeCheck(id, {
          status: 'pass',
          green: false,
          detail: `${names} found, but no simulated call changed a holder's balance.`,
          evidence: [...selectorEvidence, ...attempts],
        }),
      );
      continue;
    }
    if (owner.kind === 'renounced' && !upgradeable) {
      checks.push(
        makeCheck(id, {
          status: 'fail',
          value: names,
          downgrade: `owner renounced and nobody else can call it: simulated calls from ${tried} all failed, and the code cannot be upgraded`,
          detail: `The code has ${names}, but ownership is genuinely renounced.`,
          evidence: [...selectorEvidence, ...attempts],
        }),
      );
      continue;
    }
    const why =
      owner.kind === 'renounced'
        ? `the owner is renounced, but ${upgrade.address ?? 'an upgrade authority'} can replace the code`
        : owner.kind === 'live'
          ? attempts.length > 0
            ? `the owner ${owner.owner} holds it (the simulated call reverted: ${firstRevert(
                runs,
                found.map((entry) => entry.signature),
              )})`
            : `the owner ${owner.owner} holds it`
          : 'no owner() getter, and no account tried could call it';
    checks.push(
      makeCheck(id, {
        status: 'fail',
        value: names,
        gate: false,
        ...(group === 'mint' ? { severity: Severity.medium } : {}),
        detail: `The code has ${names}: ${why}.`,
        evidence: [...selectorEvidence, ...attempts],
      }),
    );
  }

  checks.push(ownerCheck(facts, hiddenUses, block));
  const hiddenFirst = hiddenUses[0];
  checks.push(
    owner.kind === 'renounced' && hiddenFirst
      ? makeCheck('hidden_owner', {
          status: 'fail',
          value: hiddenFirst.run.actor.address,
          detail: `owner() is the zero address, yet ${hiddenFirst.run.actor.address} (${hiddenFirst.run.actor.source}) can still call ${hiddenFirst.effect.label}.`,
          evidence: hiddenUses.map(({ run, effect }) => effectEvidence(run, effect, block)),
        })
      : makeCheck('hidden_owner', {
          status: 'pass',
          green: false,
          detail:
            owner.kind === 'renounced'
              ? `No privileged call worked from ${tried}.`
              : owner.kind === 'live'
                ? 'The owner is in the open.'
                : 'No owner() getter, and no account tried holds a privilege.',
          evidence: [{ kind: 'note', summary: `${runs.length} probe(s) run`, block }],
        }),
  );
  const reclaim = reclaims[0];
  checks.push(
    reclaim
      ? makeCheck('can_take_back_ownership', {
          status: 'fail',
          value: reclaim.run.actor.address,
          detail: `After the renounce, ${reclaim.run.actor.address} (${reclaim.run.actor.source}) becomes owner again by calling ${reclaim.effect.label}.`,
          evidence: reclaims.map(({ run, effect }) => effectEvidence(run, effect, block)),
        })
      : makeCheck('can_take_back_ownership', {
          status: 'pass',
          green: false,
          detail:
            owner.kind === 'renounced'
              ? `No simulated reclaim (unlock(), transferOwnership(), ...) from ${tried} made it owner.`
              : 'Ownership is not renounced, so there is nothing to take back.',
          evidence: [{ kind: 'note', summary: 'reclaim calls simulated from each candidate', block }],
        }),
  );
  checks.push(proxyCheck(upgrade, block));
  return checks;
}

function ownerCheck(facts: PrivilegeFacts, hiddenUses: LiveUse[], block: string): Check {
  const { owner } = facts;
  const evidence: Evidence[] = [
    {
      kind: 'call',
      summary: `owner() returned ${owner.kind === 'live' ? owner.owner : owner.kind === 'renounced' ? 'the zero address' : 'nothing (no getter)'}`,
      block,
    },
  ];
  if (owner.kind === 'live') {
    return makeCheck('owner_not_renounced', {
      status: 'fail',
      value: owner.owner,
      detail: `The owner ${owner.owner} holds the contract's privileges.`,
      evidence,
    });
  }
  const holder = hiddenUses[0];
  if (owner.kind === 'none' && holder) {
    return makeCheck('owner_not_renounced', {
      status: 'fail',
      value: holder.run.actor.address,
      detail: `No owner() getter, but ${holder.run.actor.address} (${holder.run.actor.source}) can call ${holder.effect.label}.`,
      evidence,
    });
  }
  return makeCheck('owner_not_renounced', {
    status: 'pass',
    // A renounce with a hidden owner behind it is no green flag.
    green: owner.kind === 'renounced' && hiddenUses.length === 0,
    detail:
      owner.kind === 'renounced' ? 'The owner is the zero address.' : 'The contract exposes no owner getter.',
    evidence,
  });
}

function proxyCheck(upgrade: UpgradeAuthority, block: string): Check {
  const evidence: Evidence[] = [
    {
      kind: 'storage_slot',
      summary: upgrade.path.length
        ? `upgrade path: ${upgrade.path.join(' → ')}`
        : 'EIP-1967 and EIP-1822 slots are empty',
      block,
    },
  ];
  switch (upgrade.kind) {
    case 'none':
      return makeCheck('is_proxy', {
        status: 'pass',
        detail: 'No proxy slot is set: the code cannot be replaced.',
        evidence,
      });
    case 'renounced':
      return makeCheck('is_proxy', {
        status: 'fail',
        value: 'renounced',
        downgrade: 'the upgrade authority is renounced: nobody can replace the code',
        detail: 'A proxy whose upgrade rights were given up.',
        evidence,
      });
    case 'timelock': {
      const hours = Math.round((upgrade.delaySeconds ?? 0) / 3600);
      const long = (upgrade.delaySeconds ?? 0) >= PROXY_TIMELOCK_MIN_SECONDS;
      return makeCheck('is_proxy', {
        status: 'fail',
        value: `timelock ${upgrade.delaySeconds ?? 0}s`,
        ...(long ? { severity: Severity.low } : {}),
        detail: `Upgradeable, but upgrades wait ${hours} h in the timelock ${upgrade.address ?? ''}${long ? ', time for holders to leave' : ''}.`,
        evidence,
      });
    }
    case 'account':
      return makeCheck('is_proxy', {
        status: 'fail',
        value: upgrade.address ?? 'account',
        detail: `Upgradeable at once by ${upgrade.address ?? 'its admin'}: the logic can be replaced.`,
        evidence,
      });
  }
}

function describeEffect(effect: CallEffect, run: ProbeRun): string {
  const parts: string[] = [];
  if (effect.supplyAfter !== effect.supplyBefore)
    parts.push(`supply ${effect.supplyBefore} → ${effect.supplyAfter}`);
  if (effect.victimAfter !== effect.victimBefore)
    parts.push(`a holder's balance ${effect.victimBefore} → ${effect.victimAfter}`);
  if (blockedHolder(effect, run.result.baseline))
    parts.push(`the holder's transfer then reverts (${effect.victimTransfer.revertReason ?? 'no reason'})`);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

function effectEvidence(run: ProbeRun, effect: CallEffect, block: string): Evidence {
  return {
    kind: 'simulation',
    summary: `${effect.label} as ${run.actor.address} (${run.actor.source}): ${effect.ok ? 'succeeded' : `reverted: ${effect.revertReason ?? ''}`}${describeEffect(effect, run)}`,
    data: {
      call: effect.label,
      actor: run.actor.address,
      actor_source: run.actor.source,
      ok: effect.ok,
      supply_before: effect.supplyBefore.toString(),
      supply_after: effect.supplyAfter.toString(),
      holder: run.result.victim,
      holder_balance_before: effect.victimBefore.toString(),
      holder_balance_after: effect.victimAfter.toString(),
      holder_transfer_ok: effect.victimTransfer.attempted ? effect.victimTransfer.ok : null,
      owner_after: effect.ownerAfter,
      gas_used: effect.gasUsed.toString(),
    },
    block,
  };
}

function firstRevert(runs: readonly ProbeRun[], signatures: string[]): string {
  for (const run of runs)
    for (const effect of run.result.effects)
      if (signatures.includes(effect.label) && !effect.ok) return effect.revertReason ?? 'no reason';
  return 'no reason';
}
