import { fileURLToPath } from 'node:url';
import { type Address, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlowRpc } from '../../test/support/slowRpc.ts';
import {
  type ListingDevnet,
  listAll,
  scanContractSafety,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { Tier } from '../core/risk/model.ts';
import { scoreToken } from '../core/risk/score.ts';
import { CheckStatus } from '../core/schema.ts';

// Power discovery is bounded in calls, not time: on a slow node its calls alone can outlast a
// scan's step, and the whole scan would be lost. SCAN_DISCOVERY_BUDGET_MS bounds its wall time:
// past it no round trip starts, what was found stands, and a check discovery would have vouched
// for is unknown, not passed (vigil-risk/55).

const SUPPLY = 10n ** 27n;
/** Latency the slow node adds to every request: two of discovery's first round trips outlast the budget. */
const DELAY_MS = 600;
const BUDGET_MS = 1_000;

let devnet: ListingDevnet;
let slow: { url: string; close(): Promise<void> };
let tokens: Record<'plain' | 'reward', { address: Address; pair: Address }>;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  tokens = await listAll(
    devnet,
    {
      plain: { contract: 'DbPlainToken', args: [SUPPLY] },
      reward: { contract: 'DbRewardToken', args: [SUPPLY] },
    },
    { tokens: SUPPLY / 2n, eth: 10n ** 19n },
  );
  slow = await startSlowRpc(devnet.node.url, DELAY_MS);
}, 120_000);
afterAll(async () => {
  await slow?.close();
  await devnet?.node.stop();
});

const scan = (key: keyof typeof tokens, url: string, env: NodeJS.ProcessEnv = {}) =>
  scanContractSafety(devnet, tokens[key].address, { url, env });
const check = (output: Awaited<ReturnType<typeof scan>>, id: string) =>
  output.checks.find((each) => each.id === id);
const discoveryOf = (output: Awaited<ReturnType<typeof scan>>) =>
  output.facts.discovery as {
    calls: number;
    out_of_time: { after_ms: number; calls_not_made: number; rounds_left_out: string[] } | null;
    failures: string[];
  };

describe('power discovery with time enough', () => {
  it("finds the reward claim's mint, and vouches for the plain token", async () => {
    const [plain, reward] = await Promise.all([
      scan('plain', devnet.node.url),
      scan('reward', devnet.node.url),
    ]);
    expect(discoveryOf(plain).out_of_time).toBeNull();
    expect(check(plain, 'is_mintable')?.status).toBe(CheckStatus.pass);
    expect(check(plain, 'sells_blockable')?.status).toBe(CheckStatus.pass);
    expect(check(plain, 'owner_change_balance')?.status).toBe(CheckStatus.pass);
    expect(check(plain, 'discovery_incomplete')?.status).toBe(CheckStatus.pass);
    expect(scoreToken(plain.checks).tier).toBe(Tier.low);
    expect(check(reward, 'is_mintable')).toMatchObject({
      status: CheckStatus.fail,
      value: toFunctionSelector('claimRewards(uint256)'),
    });
  }, 120_000);
});

describe('power discovery out of time on a slow node', () => {
  const outputs = {} as Record<keyof typeof tokens, Awaited<ReturnType<typeof scan>>>;
  beforeAll(async () => {
    const env = { SCAN_DISCOVERY_BUDGET_MS: String(BUDGET_MS) };
    [outputs.plain, outputs.reward] = await Promise.all([
      scan('plain', slow.url, env),
      scan('reward', slow.url, env),
    ]);
  }, 240_000);

  it('stops, and says when and what it left', () => {
    for (const output of Object.values(outputs)) {
      const discovery = discoveryOf(output);
      expect(discovery.out_of_time?.after_ms).toBeGreaterThan(BUDGET_MS);
      expect(discovery.out_of_time?.calls_not_made).toBeGreaterThan(0);
      expect(discovery.out_of_time?.rounds_left_out).toEqual(['comparisons', 'later_block']);
      expect(discovery.failures[0]).toMatch(
        /^out of time: discovery stopped after \d+ ms \(budget 1000 ms\)/,
      );
    }
  });

  it('rules out no power it did not try: the plain token is unknown, not passed', () => {
    for (const output of Object.values(outputs))
      for (const id of ['is_mintable', 'sells_blockable', 'owner_change_balance']) {
        const decided = check(output, id);
        expect(decided?.status, id).toBe(CheckStatus.unknown);
        expect(decided?.detail, id).toContain('out of time');
      }
  });

  it('keeps a token whose powers were not ruled out out of the lowest tier', () => {
    for (const output of Object.values(outputs)) {
      expect(check(output, 'discovery_incomplete')).toMatchObject({ status: CheckStatus.fail, value: 1 });
      expect(scoreToken(output.checks).tier).toBe(Tier.medium);
    }
  });

  it("still answers every other check: the engine's result is usable", () => {
    for (const output of Object.values(outputs)) {
      expect(check(output, 'selfdestruct')?.status).toBe(CheckStatus.pass);
      expect(check(output, 'owner_not_renounced')?.status).toBe(CheckStatus.fail);
    }
  });
});
