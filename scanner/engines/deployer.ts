import { type Address, getAddress } from 'viem';
import { DEPLOYER_REPUTATION } from '../core/risk/model.ts';
import { makeCheck, unknownCheck } from '../core/checks.ts';
import { ENGINE_CHECKS } from '../core/engines.ts';
import type { Check, Evidence } from '../core/schema.ts';
import { type DeployerReputation, deployerReputation } from '../evm/deployerReputation.ts';
import type { EngineOutput, EvmEngineInput } from './context.ts';

/**
 * Reputations are reused for a short while: a deployer's record changes slowly, and a launch
 * wave of tokens from one wallet would otherwise redo the same history for each.
 */
export class DeployerCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { at: number; value: Promise<DeployerReputation> }>();

  constructor(ttlSeconds: number) {
    this.#ttlMs = ttlSeconds * 1000;
  }

  get(key: string, compute: () => Promise<DeployerReputation>): Promise<DeployerReputation> {
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && now - hit.at < this.#ttlMs) return hit.value;
    const value = compute();
    if (this.#ttlMs > 0) {
      this.#entries.set(key, { at: now, value });
      value.catch(() => this.#entries.delete(key));
      if (this.#entries.size > 10_000) this.#entries.delete(this.#entries.keys().next().value ?? '');
    }
    return value;
  }
}

/** Deployer reputation of the token's creator; its other tokens decide the checks. */
export async function deployer(input: EvmEngineInput, cache?: DeployerCache): Promise<EngineOutput> {
  const { client, chain, address, blockNumber, creation, config } = input;
  if (!creation) {
    const reason = 'The creating transaction could not be found (it needs state at past blocks).';
    return { checks: ENGINE_CHECKS.deployer.map((id) => unknownCheck(id, reason)), facts: {} };
  }
  const wallet = getAddress(creation.deployer);
  const compute = () =>
    deployerReputation(client, { chain, deployer: wallet, blockNumber, limits: config.limits });
  const reputation = cache ? await cache.get(`${chain.id}:${wallet}`, compute) : await compute();
  return {
    checks: reputationChecks(reputation, getAddress(address)),
    facts: { deployer: wallet, reputation },
  };
}

export function reputationChecks(reputation: DeployerReputation, scanned?: Address): Check[] {
  const block = reputation.block_number;
  const others = reputation.tokens.filter((token) => token.address !== scanned);
  // A rug of the scanned token itself is rug history too: its holders are the victims.
  const rugged = reputation.tokens.filter((token) => token.rugged);
  const honeypots = others.filter((token) => token.honeypot === true);
  const tokenEvidence = (token: (typeof others)[number]): Evidence => ({
    kind: 'log',
    summary: token.rugged
      ? `${token.symbol ?? token.address}: the deployer removed ${token.removed_by_deployer_wei} of ${token.added_wei} wei liquidity ${token.rug?.seconds_after_launch ?? '?'} s after launch (tx ${token.rug?.tx ?? '?'})`
      : `${token.symbol ?? token.address}: ${token.honeypot ? 'sells revert in simulation' : `liquidity added ${token.added_wei} wei, removed by the deployer ${token.removed_by_deployer_wei} wei`}`,
    data: {
      token: token.address,
      pair: token.pair,
      added_wei: token.added_wei,
      removed_by_deployer_wei: token.removed_by_deployer_wei,
      honeypot: token.honeypot,
    },
    block: token.rug?.block ?? block,
  });
  const scope: Evidence = {
    kind: 'call',
    summary: `${reputation.deployer}: nonce ${reputation.nonce}, ${reputation.contracts_deployed} contracts, ${others.length} other tokens analysed${reputation.complete ? '' : ' (recent nonces only)'}; reputation ${reputation.score}/100`,
    data: { deployer: reputation.deployer, score: reputation.score, nonce: reputation.nonce },
    block,
  };
  const checks: Check[] = [
    rugged.length > 0
      ? makeCheck('deployer_rug_history', {
          status: 'fail',
          value: rugged.length,
          detail: `The deployer pulled the liquidity of ${rugged.length} token(s) soon after launch: ${rugged.map((token) => token.symbol ?? token.address).join(', ')}.`,
          evidence: [scope, ...rugged.map(tokenEvidence)],
        })
      : makeCheck('deployer_rug_history', {
          status: 'pass',
          green: false,
          detail: `None of the deployer's ${others.length} other token(s) had its liquidity pulled by the deployer.`,
          evidence: [scope, ...others.map(tokenEvidence)],
        }),
    honeypots.length > 0
      ? makeCheck('honeypot_with_same_creator', {
          status: 'fail',
          value: honeypots.length,
          detail: `The deployer also made ${honeypots.map((token) => token.symbol ?? token.address).join(', ')}, where sells revert.`,
          evidence: [scope, ...honeypots.map(tokenEvidence)],
        })
      : makeCheck('honeypot_with_same_creator', {
          status: 'pass',
          green: false,
          detail: `No other token of the deployer fails a sell simulation.`,
          evidence: [scope],
        }),
  ];
  const age = reputation.age_seconds;
  const funding: Evidence = {
    kind: 'call',
    summary: `first funded at block ${reputation.first_seen_block ?? '?'} by ${reputation.funded_by ?? 'unknown'}${labelled(reputation)}; ${age === null ? 'age unknown' : `${Math.round(age / 3600)} h before block ${block}`}`,
    data: {
      first_seen_block: reputation.first_seen_block,
      funded_by: reputation.funded_by,
      funded_by_labels: labelled(reputation).replace(/^ \(labelled |\)$/g, '') || null,
      age_seconds: age,
    },
    block,
  };
  checks.push(
    age === null
      ? unknownCheck('fresh_deployer', 'The wallet holds nothing and never sent a transaction at this block.')
      : age < DEPLOYER_REPUTATION.freshSeconds
        ? makeCheck('fresh_deployer', {
            status: 'fail',
            value: age,
            detail: `The deployer was first funded ${Math.round(age / 3600)} h before (by ${reputation.funded_by ?? 'unknown'}).`,
            evidence: [funding],
          })
        : makeCheck('fresh_deployer', {
            status: 'pass',
            value: age,
            detail: `The deployer has been active for ${Math.round(age / 86_400)} days.`,
            evidence: [funding],
          }),
  );
  return checks;
}

/** " (labelled phish-hack: Fake_Phishing5)" when the funder carries labels. */
function labelled(reputation: DeployerReputation): string {
  const labels = reputation.funded_by_labels ?? [];
  if (labels.length === 0) return '';
  return ` (labelled ${labels.map((label) => (label.name_tag ? `${label.label}: ${label.name_tag}` : label.label)).join(', ')})`;
}
