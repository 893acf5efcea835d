import { createPublicClient, http } from 'viem';
import { describe, expect, it } from 'vitest';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { devnetWallet } from '../../infra/devnet/launch.ts';
import { ChainClients } from '../../clients/chains/chainClients.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import { harmClasses } from '../../scanner/core/risk/harm.ts';
import { TokenScanner } from '../../scanner/scanner.ts';
import type { ScanStore } from '../../scanner/scanStore.ts';
import { devnetRpcUrls, testScanConfig, testStack } from '../support/fixtures.ts';

// Selector-agnostic power discovery on tuning-corpus tokens of the shared devnet: powers under
// names no list holds, held by wallets no getter names, or waiting for a date, found by their
// effect on a holder, each with the call that showed it.

const scanner = new TokenScanner({
  chains: new ChainClients({ rpcUrls: devnetRpcUrls() }),
  scans: { save: () => Promise.resolve() } as unknown as ScanStore,
  config: testScanConfig(),
});

/** A corpus token's scan; `failing` engines are reported failed instead of run (an injected fault). */
async function scan(key: string, failing: readonly string[] = []): Promise<ScanResult> {
  const token = testStack().scenario.corpus[key];
  if (!token) throw new Error(`no corpus token ${key}`);
  const { target, engines } = await scanner.prepare({ chain: 'devnet', address: token.address });
  const run = engines.filter((engine) => !failing.includes(engine));
  const reports = await Promise.all(run.map((engine) => scanner.runEngine(engine, target)));
  const failures = engines
    .filter((engine) => failing.includes(engine))
    .map((engine) => ({ engine, reason: 'chain_unavailable', message: 'every provider timed out' }));
  return scanner.finalize({ jobId: `discovery:${key}:${failing.join(',')}`, target, reports, failures });
}

/** What discovery read and tried, for a failure's message. */
const discoveryFacts = (result: ScanResult) =>
  JSON.stringify(result.facts.contract_safety?.discovery ?? null);
const check = (result: ScanResult, id: string) => result.checks.find((entry) => entry.id === id);
const simulations = (result: ScanResult, id: string) =>
  (check(result, id)?.evidence ?? []).filter((evidence) => evidence.kind === 'simulation');

describe('power discovery (vigil-risk/56)', () => {
  it('keeps a token whose contract could not be read out of the lowest tier (vigil-risk/56)', async () => {
    // A benign token with a healthy market: low when scanned whole.
    const whole = await scan('t_burn_on_transfer');
    expect(whole.tier).toBe('low');
    expect(check(whole, 'discovery_incomplete')?.status).toBe('pass');
    // Its contract-safety engine failed: every one of its checks unknown but discovery_incomplete,
    // which fails, so the market alone does not vouch for the contract.
    const blind = await scan('t_burn_on_transfer', ['contract_safety']);
    expect(blind.engines.contract_safety?.status).toBe('failed');
    expect(check(blind, 'discovery_incomplete')).toMatchObject({ status: 'fail', severity: 'medium' });
    expect(check(blind, 'is_mintable')?.status).toBe('unknown');
    expect(blind.tier).toBe('medium');
  });

  it('finds a mint under an innocuous name, held by a keeper no getter names', async () => {
    const result = await scan('t_harvest');
    expect(harmClasses(result.checks)).toEqual({ mint: true, leak: false, limit: false });
    const [evidence] = simulations(result, 'is_mintable');
    expect(evidence?.data).toMatchObject({ class: 'mint', time_offset_seconds: 0 });
    // The keeper is packed beside a flag in storage and was a constructor argument: either finds it
    // (the packing itself is checked in scanner/evm/discoverPowers.test.ts).
    expect(String(evidence?.data?.caller_source)).toMatch(/^(slot \d+|constructor argument)$/);
    expect(BigInt(String(evidence?.data?.supply_after))).toBeGreaterThan(
      BigInt(String(evidence?.data?.supply_before)) * 2n,
    );
    expect(result.tier).toBe('critical');
    expect(result.contract_findings?.tier).toBe('critical');
  });

  it('finds a mint held by a wallet written into the source and stored past the first slots', async () => {
    const result = await scan('t_late_slot');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    const [evidence] = simulations(result, 'is_mintable');
    expect(evidence?.data?.caller_source).toBe('address in the creation code');
    expect(result.tier).toBe('critical');
    // Its code reads nothing of the block and calls nothing: explored at the block only.
    expect(result.facts.contract_safety?.discovery).toMatchObject({ clock_blind: true });
  });

  it('finds a mint that only works a day on, with the time offset as evidence', async () => {
    const result = await scan('t_vesting_bomb');
    expect(harmClasses(result.checks).mint).toBe(true);
    expect(result.facts.contract_safety?.discovery).toMatchObject({ clock_blind: false });
    const offsets = simulations(result, 'is_mintable').map((evidence) => evidence.data?.time_offset_seconds);
    expect(offsets.length).toBeGreaterThan(0);
    expect(offsets).not.toContain(0);
  });

  it('finds holders robbed by a reflection token that takes the pool back in stale, with the market trading between, and not by one that restates it', async () => {
    const result = await scan('t_reflect_stale_toggle');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    const [evidence] = simulations(result, 'owner_change_balance');
    expect(evidence?.data).toMatchObject({ measured: 'after the market traded', args: 'pair, 1/true' });
    expect(evidence?.data?.prelude_args).toBe('pair, 1/true');
    const [before, after] = [evidence?.data?.holder_balance_before, evidence?.data?.holder_balance_after].map(
      (value) => BigInt(String(value)),
    );
    expect(after).toBeLessThan(before as bigint);
    // The pool is where it went.
    expect(BigInt(String(evidence?.data?.pair_balance_after))).toBeGreaterThan(
      BigInt(String(evidence?.data?.pair_balance_before)),
    );
    const fair = await scan('t_reflect_restated_toggle');
    expect(harmClasses(fair.checks), discoveryFacts(fair)).toEqual({
      mint: false,
      leak: false,
      limit: false,
    });
    expect(fair.facts.contract_safety?.discovery).toMatchObject({ toggles: expect.any(Number) });
    expect(Number((fair.facts.contract_safety?.discovery as { toggles: number }).toggles)).toBeGreaterThan(0);
  });

  it('finds a balance taken by a role kept in a mapping', async () => {
    const result = await scan('t_rebalance');
    expect(harmClasses(result.checks)).toEqual({ mint: false, leak: true, limit: false });
    const [evidence] = simulations(result, 'owner_change_balance');
    expect(BigInt(String(evidence?.data?.holder_balance_after))).toBeLessThan(
      BigInt(String(evidence?.data?.holder_balance_before)),
    );
  });

  it('finds a sell tax that arrives with the clock alone', async () => {
    const result = await scan('t_late_tax');
    expect(harmClasses(result.checks).limit).toBe(true);
    const [evidence] = simulations(result, 'sells_blockable');
    expect(evidence?.data).toMatchObject({ selector: '0x', time_offset_seconds: 365 * 86_400 });
  });

  it('keeps a capped emission and a healthy market in the lowest tier', async () => {
    const result = await scan('t_capped_emission');
    expect(harmClasses(result.checks)).toEqual({ mint: false, leak: false, limit: false });
    expect(check(result, 'sells_blockable')?.status).toBe('pass');
    expect(result.tier).toBe('low');
    expect(result.market_state?.tier).toBe('low');
  });

  it('calls with array arguments: a batch mint to a list of wallets', async () => {
    const result = await scan('t_batch_grant');
    expect(harmClasses(result.checks)).toEqual({ mint: true, leak: false, limit: false });
    const [evidence] = simulations(result, 'is_mintable');
    expect(String(evidence?.data?.args)).toMatch(/offset 64, offset 128, length 1, caller, length 1/);
  });

  it('finds a distributor named only in the constructor arguments', async () => {
    const result = await scan('t_drop');
    expect(harmClasses(result.checks).mint).toBe(true);
    const sources = simulations(result, 'is_mintable').map((evidence) => evidence.data?.caller_source);
    expect(sources).toContain('constructor argument');
  });

  it('finds a clearer set by a call that emitted nothing, and a struct with a deadline', async () => {
    const result = await scan('t_clearing');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    const [evidence] = simulations(result, 'owner_change_balance');
    expect(String(evidence?.data?.caller_source)).toMatch(/^named in a 0x[0-9a-f]{8} call to the token$/);
    // The order's third word, the deadline, had to be far enough on (the caller's address or max).
    expect(String(evidence?.data?.args)).toMatch(/^holder, half the holder's balance, (caller|max)$/);
  });

  it('reads the calls of a history longer than the trace index serves in one request, in windows', async () => {
    // anvil refuses a trace_filter over more than 300 blocks, as Reth does over 100 by default:
    // the premise is a token older than that (empty blocks harm no test).
    const token = testStack().scenario.corpus.t_clearing;
    if (!token) throw new Error('no corpus token t_clearing');
    const chain = createPublicClient({ transport: http(testStack().rpcUrl) });
    const { target } = await scanner.prepare({ chain: 'devnet', address: token.address });
    const created = BigInt(target.creation?.block ?? 0);
    const head = await chain.getBlockNumber({ cacheTime: 0 });
    if (head - created < 400n)
      await createDevnetClient(testStack().rpcUrl).mine({ blocks: Number(400n - (head - created)) });

    const result = await scan('t_clearing');
    const reading = (
      result.facts.contract_safety?.discovery as { callers_from_traces?: Record<string, unknown> }
    )?.callers_from_traces;
    expect(reading, discoveryFacts(result)).toMatchObject({ error: null });
    expect(Number(reading?.requests)).toBeGreaterThan(1);
    expect(Number(reading?.blocks)).toBeGreaterThan(400);
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
  });

  it('finds powers that take two calls, with the first call as evidence', async () => {
    for (const [key, id] of [
      ['t_minter_role', 'is_mintable'],
      ['t_staged_cap', 'sells_blockable'],
      ['t_scheduled_reclaim', 'owner_change_balance'],
    ] as const) {
      const result = await scan(key);
      const [evidence] = simulations(result, id);
      expect(evidence?.data?.prelude_selector, key).toMatch(/^0x[0-9a-f]{8}$/);
      expect(evidence?.summary, key).toMatch(/, then function 0x/);
      expect(result.tier, key).toBe('critical');
    }
  });

  it('finds a mint a council stages and a keeper applies only in a later block, with the staging transaction as evidence', async () => {
    const result = await scan('t_rt_council_budget');
    const [evidence] = simulations(result, 'is_mintable');
    const council = devnetWallet('corpus.rt.council');
    expect(evidence?.data?.prelude_block, discoveryFacts(result)).toBe('earlier');
    expect(String(evidence?.data?.prelude_caller).toLowerCase()).toBe(String(council).toLowerCase());
    expect(evidence?.data?.caller).not.toBe(evidence?.data?.prelude_caller);
    expect(evidence?.summary).toMatch(
      /sent as a transaction by 0x[0-9a-fA-F]{40} in a block of its own, then in a later block function 0x/,
    );
    expect(result.tier).toBe('critical');
  });

  it('finds a mint two staging calls open only together, both as evidence, and one a withdrawal sent after it would mask', async () => {
    const together = await scan('t_lb_two_setter_budget');
    const [evidence] = simulations(together, 'is_mintable');
    expect(evidence?.data, discoveryFacts(together)).toMatchObject({
      prelude_block: 'earlier',
      first_block: 'earlier',
    });
    expect(evidence?.data?.first_selector).not.toBe(evidence?.data?.prelude_selector);
    expect(evidence?.summary).toMatch(
      /\) and function 0x[0-9a-f]{8} \([^)]*\) sent as transactions by 0x[0-9a-fA-F]{40} in a block of their own, then in a later block function 0x/,
    );
    const masked = await scan('t_lb_cancel_masked');
    expect(harmClasses(masked.checks), discoveryFacts(masked)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    expect(simulations(masked, 'is_mintable')[0]?.data?.prelude_block).toBe('earlier');
  });

  it('finds a fee the token switches on by itself a block after it was scheduled, the scheduling call as evidence', async () => {
    const result = await scan('t_lb_lazy_tax');
    const [evidence] = simulations(result, 'sells_blockable');
    expect(evidence?.data?.measured, discoveryFacts(result)).toBe('in a later block');
    expect(String(evidence?.data?.caller).toLowerCase()).toBe(
      devnetWallet('corpus.lb.manager').toLowerCase(),
    );
    expect(evidence?.summary).toMatch(
      /in a block of its own succeeded, and in a later block with the clock 50 minutes and 48 s on/,
    );
    expect(result.tier).toBe('critical');
  });

  it('finds a budget applied in a later block by a keeper only a comparison names, and keeps honest later-block mechanics low', async () => {
    const hidden = await scan('t_lb_hidden_keeper');
    const [evidence] = simulations(hidden, 'is_mintable');
    expect(String(evidence?.data?.caller).toLowerCase(), discoveryFacts(hidden)).toBe(
      devnetWallet('corpus.lb.hidden').toLowerCase(),
    );
    expect(evidence?.data?.caller_source).toMatch(/^compared with the caller by 0x/);
    for (const key of ['t_lb_honest_epoch', 't_lb_honest_queued_fee', 't_lb_honest_block_timelock']) {
      const result = await scan(key);
      expect(harmClasses(result.checks), key).toEqual({ mint: false, leak: false, limit: false });
      expect(result.tier, key).toBe('low');
    }
  });

  it("reads a sell as what the pair counts paid in: a buyback or an LP burn during a holder's sell is no tax", async () => {
    // Before, a sell was the growth of the pair's balance: tokens the token itself moved out of the
    // pair during the send (swapped out to the dead address, burned and synced) read as a 100 % tax.
    for (const key of [
      't_lb_honest_lp_burn_switch',
      't_lb_honest_buyback_switch',
      't_lb_honest_lp_burn_clock',
    ]) {
      const result = await scan(key);
      expect(harmClasses(result.checks), `${key} ${discoveryFacts(result)}`).toEqual({
        mint: false,
        leak: false,
        limit: false,
      });
      expect(result.tier, key).toBe('low');
    }
  });

  it('reads a sell fee a token hides by leaving the pair short of its reserve and syncing it at every sell', async () => {
    // A sell read as the growth of the pair's balance less its reserve's counted the short fall as
    // paid in by the seller; the holder syncs the pair before its sell now.
    const result = await scan('t_check_unsynced_fee');
    expect(harmClasses(result.checks), discoveryFacts(result)).toMatchObject({ limit: true });
  });

  it("finds a budget executable only within hours, at a later block that keeps a chain's pace", async () => {
    for (const key of ['t_lb_window_budget', 't_lb_clock_rate_budget']) {
      const result = await scan(key);
      const [evidence] = simulations(result, 'is_mintable');
      expect(evidence?.data?.prelude_block, `${key} ${discoveryFacts(result)}`).toBe('earlier');
      expect(evidence?.data?.time_offset_seconds, key).toBe(254 * 12);
      expect(evidence?.summary, key).toMatch(/with the clock 50 minutes and 48 s on succeeded/);
    }
  });

  it('finds a power that takes three calls, with the first two as evidence', async () => {
    const result = await scan('t_nominated_issuer');
    const [evidence] = simulations(result, 'is_mintable');
    expect(evidence?.data?.first_selector, discoveryFacts(result)).toMatch(/^0x[0-9a-f]{8}$/);
    expect(evidence?.data?.prelude_selector).toMatch(/^0x[0-9a-f]{8}$/);
    expect(evidence?.summary).toMatch(/, then function 0x[0-9a-f]{8} \(.*\), then function 0x/);
    expect(result.tier).toBe('critical');
  });

  it('finds a first call that waits for the clock, and a staged power among twenty setters', async () => {
    const dormant = await scan('t_dormant_owner');
    const [woken] = simulations(dormant, 'is_mintable');
    expect(woken?.data?.prelude_selector, discoveryFacts(dormant)).toMatch(/^0x[0-9a-f]{8}$/);
    expect(Number(woken?.data?.time_offset_seconds)).toBeGreaterThan(86_400);
    const crowded = await scan('t_crowded');
    // The staged burn (leak), and a max-tx setter with no ceiling whose huge value overflows every
    // limited sell (limit; since vigil-risk/9, whose raw-storage shapes send such a word).
    expect(harmClasses(crowded.checks), discoveryFacts(crowded)).toEqual({
      mint: false,
      leak: true,
      limit: true,
    });
  });

  it('reads a fee setter counted in basis points or per mille, or for one holder, at its own scale', async () => {
    for (const key of ['t_bps_sell_rate', 't_account_rate', 't_permille_fee']) {
      const result = await scan(key);
      expect(harmClasses(result.checks), key).toEqual({ mint: false, leak: false, limit: true });
    }
    for (const key of ['t_bps_capped_fee', 't_permille_capped_fee']) {
      const result = await scan(key);
      expect(harmClasses(result.checks), key).toEqual({ mint: false, leak: false, limit: false });
      expect(result.tier, key).toBe('low');
    }
  });

  it('finds a mint capped per call and a fee raised a step a call, made again and again', async () => {
    for (const [key, id, rise] of [
      ['t_drip_mint', 'is_mintable', 'supply'],
      ['t_fixed_dose', 'is_mintable', 'supply'],
      ['t_fee_ramp', 'sells_blockable', 'tax'],
    ] as const) {
      const result = await scan(key);
      expect(harmClasses(result.checks), `${key} ${discoveryFacts(result)}`).toEqual({
        mint: rise === 'supply',
        leak: false,
        limit: rise === 'tax',
      });
      const repeated = simulations(result, id).find((evidence) => Number(evidence.data?.repeats) > 1);
      expect(repeated?.summary, key).toMatch(/, made \d+ times in a row,/);
      expect(String(repeated?.data?.repeated_calldata), key).toMatch(/^0x[0-9a-f]{8}/);
      if (rise === 'supply')
        expect(BigInt(String(repeated?.data?.supply_after)) * 2n, key).toBeGreaterThanOrEqual(
          BigInt(String(repeated?.data?.supply_before)) * 3n,
        );
      expect(result.tier, key).toBe('critical');
    }
  });

  it('finds powers hidden in transfer, in approve and in the fallback function, for one wallet', async () => {
    for (const [key, id, signature] of [
      ['t_self_send', 'is_mintable', 'transfer(address,uint256)'],
      ['t_approve_block', 'sells_blockable', 'approve(address,uint256)'],
      ['t_fallback_burn', 'owner_change_balance', 'fallback()'],
    ] as const) {
      const result = await scan(key);
      expect(harmClasses(result.checks), `${key} ${discoveryFacts(result)}`).toEqual({
        mint: id === 'is_mintable',
        leak: id === 'owner_change_balance',
        limit: id === 'sells_blockable',
      });
      const signatures = simulations(result, id).map((evidence) => evidence.data?.signature);
      expect(signatures, key).toContain(signature);
      expect(result.tier, key).toBe('critical');
    }
  });

  it('counts what a sell takes from what the seller keeps as a tax on the sell', async () => {
    const result = await scan('t_reserve_skim');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    const taken = simulations(result, 'sells_blockable').map((evidence) =>
      Number(/ok, ([\d.]+) % taken/.exec(String(evidence.data?.holder_sell))?.[1] ?? 0),
    );
    expect(Math.max(...taken)).toBeGreaterThan(10);
  });

  it('finds a sell gas-price ceiling lowered to nothing, trading at the price a wallet pays', async () => {
    const result = await scan('t_gas_ceiling');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    const sells = simulations(result, 'sells_blockable').map((evidence) =>
      String(evidence.data?.holder_sell),
    );
    expect(sells.some((sell) => sell.includes('gas price above the ceiling'))).toBe(true);
  });

  it('keeps an emission capped per call and in all, and a fee stepped up to a ceiling, in the lowest tier', async () => {
    for (const key of ['t_staking_emission', 't_fee_step']) {
      const result = await scan(key);
      expect(harmClasses(result.checks), key).toEqual({ mint: false, leak: false, limit: false });
      expect(result.tier, key).toBe('low');
    }
  });

  it('keeps a capped two-step fee and a timelocked mint in the lowest tier', async () => {
    for (const key of ['t_proposed_fee', 't_timelocked_mint', 't_treasury_drop']) {
      const result = await scan(key);
      expect(harmClasses(result.checks), key).toEqual({ mint: false, leak: false, limit: false });
      expect(result.tier, key).toBe('low');
    }
  });

  it('finds a balance written up without the supply (a mint totalSupply() never shows)', async () => {
    const result = await scan('t_credit');
    expect(harmClasses(result.checks)).toEqual({ mint: true, leak: false, limit: false });
    const [evidence] = simulations(result, 'is_mintable');
    expect(evidence?.data?.supply_after).toBe(evidence?.data?.supply_before);
    expect(BigInt(String(evidence?.data?.caller_balance_after))).toBeGreaterThan(
      BigInt(String(evidence?.data?.supply_before)),
    );
  });

  it("finds the pool's tokens taken without a swap paying for them", async () => {
    const result = await scan('t_pool_sweep');
    expect(harmClasses(result.checks).leak).toBe(true);
    const leaks = simulations(result, 'owner_change_balance');
    const drained = leaks.find(
      (evidence) =>
        BigInt(String(evidence.data?.pair_balance_after)) <
        BigInt(String(evidence.data?.pair_balance_before)),
    );
    expect(drained?.summary).toMatch(/the pair's balance/);
    expect(drained?.data?.holder_balance_after).toBe(drained?.data?.holder_balance_before);
  });

  it("finds a mint a relay contract may make only inside another wallet's transaction (tx.origin)", async () => {
    const result = await scan('t_rt_bridge_relay');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    const [evidence] = simulations(result, 'is_mintable');
    // Called as the relay (a constructor argument, and an immutable in the code), with an ordinary
    // wallet as the transaction's sender: the relay's own transaction is refused.
    expect(String(evidence?.data?.caller_source)).toMatch(/in another wallet's transaction$/);
    expect(result.tier).toBe('critical');
  });

  it('finds a batch mint that refuses a batch of one, and an agent settling order records', async () => {
    const batch = await scan('t_rt_batch_rewards');
    expect(harmClasses(batch.checks), discoveryFacts(batch)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    expect(simulations(batch, 'is_mintable')[0]?.data?.args).toMatch(/length 2/);
    const settlement = await scan('t_rt_settlement');
    expect(harmClasses(settlement.checks), discoveryFacts(settlement)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    expect(simulations(settlement, 'owner_change_balance')[0]?.data?.args).toMatch(/2100-01-01/);
  });

  it("finds a freeze armed to land on the holder's next receipt", async () => {
    const result = await scan('t_rt_quarantine');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    expect(simulations(result, 'sells_blockable')[0]?.summary).toMatch(
      /sell after receiving reverted: quarantined/,
    );
  });

  it('finds a holder taken by the account a refusing check compared the caller with, though the traced call also sent the caller', async () => {
    const result = await scan('t_rt5_guardian_pass');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    const [evidence] = simulations(result, 'owner_change_balance');
    expect(evidence?.summary).toMatch(/\(compared with the caller by 0x[0-9a-f]{8}\)/);
  });

  it('finds a flash mint that asks back nothing for a loan past a 128-bit field, and not an honest flash mint', async () => {
    const result = await scan('t_rt5_packed_flash');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    expect(simulations(result, 'is_mintable')[0]?.data?.args).toMatch(/^caller, the token, 2\^128, /);
    const honest = await scan('t_rt5_flash_mint');
    expect(harmClasses(honest.checks), discoveryFacts(honest)).toEqual({
      mint: false,
      leak: false,
      limit: false,
    });
  });

  it('reads no leak in a flash lender that takes a fee through its receiver’s callback (the holder answers no loan it did not ask for)', async () => {
    const result = await scan('t_check_fee_flash_lender');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: false,
    });
  });

  it('finds a freeze armed for the next receipt where each sell starts a cooldown of its own', async () => {
    const result = await scan('t_check_cooldown_watch');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    expect(simulations(result, 'sells_blockable')[0]?.summary).toMatch(
      /sell after receiving reverted: frozen/,
    );
  });

  it('finds a batch that passes a forwarded item’s appended sender through (ERC-2771 with an unmended multicall), and not a mended one', async () => {
    const result = await scan('t_rt5_relay_multicall');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    const [evidence] = simulations(result, 'owner_change_balance');
    expect(evidence?.data?.args).toMatch(/with the holder's address appended\]$/);
    expect(evidence?.summary).toMatch(
      /the token's trusted forwarder \(ERC-2771\), relaying an ordinary wallet's request/,
    );
    // OpenZeppelin's ERC-2771 with its mended Multicall and burns: neither the batch nor a burn
    // read through a forwarder that could end a call with any word.
    const mended = await scan('t_check_forwarded_batch');
    expect(harmClasses(mended.checks), discoveryFacts(mended)).toEqual({
      mint: false,
      leak: false,
      limit: false,
    });
    // Its one DELEGATECALL (the batch) is proved to run the token's own code: no external call.
    const delegate = check(mended, 'external_call');
    expect(delegate?.status, delegate?.detail).toBe('pass');
    expect(delegate?.evidence[0]?.data).toMatchObject({ all_paths_followed: true, elsewhere: '' });
    expect(delegate?.evidence[0]?.data?.to_itself).toMatch(/^token:0x[0-9a-f]+$/);
  });

  it('passes a DELEGATECALL to pure computation at a fixed address, and not to a fixed module that writes', async () => {
    // A 1 % burn computed by a stateless module at an immutable address: it computes only what the
    // transfer asks, so the token lands in the lowest tier.
    const modular = await scan('t_rt2_modular_burn');
    const fixed = check(modular, 'external_call');
    expect(fixed?.status, fixed?.detail).toBe('pass');
    expect(fixed?.evidence[0]?.data).toMatchObject({ all_paths_followed: true, fixed_code: 'pure' });
    expect(fixed?.detail).toMatch(/pure computation at a fixed address \(0x[0-9a-fA-F]{40}\)/);
    expect(modular.tier).toBe('low');
    // The interest model, fixed at deploy too, writes the token's storage (it mints for a keeper):
    // no pure computation, and its mint is found in the token's accrueInterest all the same.
    const interest = await scan('t_rt2_interest_model');
    const stateful = check(interest, 'external_call');
    expect(stateful?.status).toBe('fail');
    expect(stateful?.detail).toMatch(/is no pure computation: it writes storage or can destroy itself/);
    expect(harmClasses(interest.checks), discoveryFacts(interest)).toMatchObject({ mint: true });
  });

  it('holds the probe in a wallet with no code: a token that refuses contracts still lets it buy, and its block shows', async () => {
    // Transfers to any address with code are refused but for one venue the owner can move: the
    // holder bought (a contract holder could not), and after the move its sell to the pair reverts.
    const result = await scan('t_rt_venue');
    expect(harmClasses(result.checks), discoveryFacts(result)).toMatchObject({ limit: true });
    expect(check(result, 'sells_blockable')?.detail).toMatch(/sell after receiving reverted: unlisted venue/);
  });

  it("blocks the holder through a list of code hashes, set with an ordinary wallet's", async () => {
    // The holder's transfer read a code hash, so keccak256 of no code (every wallet's that has sent
    // a transaction, the probe holder's too) is tried as the key of a list.
    const result = await scan('t_rt5_empty_codehash');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    const [evidence] = simulations(result, 'sells_blockable');
    expect(evidence?.summary).toMatch(/an ordinary wallet's code hash/);
    expect(discoveryFacts(result)).toContain('"reads_code_hash":true');
  });

  it("finds a sell lock any insider's send arms, where the holder's own receipt locks its later sell", async () => {
    const result = await scan('t_rt4_dust_cooldown');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    const [evidence] = simulations(result, 'sells_blockable');
    expect(evidence?.summary).toMatch(/^transfer\(address,uint256\) \(holder, 1\/true\)/);
    expect(evidence?.summary).toMatch(/; sell reverted: cooldown;/);
  });

  it('finds a raw storage write into the balances mapping: a holder emptied, the caller written up', async () => {
    const result = await scan('t_rt_checkpoint');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: true,
      limit: false,
    });
    expect(simulations(result, 'owner_change_balance')[0]?.data?.args).toMatch(
      /^the holder's balance slot, 0$/,
    );
    expect(simulations(result, 'is_mintable')[0]?.data?.args).toMatch(/^the caller's balance slot/);
  });

  it('finds a mint for a caller computed at run time, from the comparison that refused everyone else', async () => {
    const result = await scan('t_rt2_counterfactual');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    const [evidence] = simulations(result, 'is_mintable');
    // The vesting contract's CREATE2 address: stored nowhere, named by the comparison with it.
    expect(String(evidence?.data?.caller_source)).toMatch(/^compared with the caller by 0x[0-9a-f]{8}$/);
    expect(result.facts.contract_safety?.discovery).toMatchObject({
      comparisons: { callers: 1, error: null },
    });
  });

  it("finds a blocklist keyed by a hash of the account, from the hashes the holder's transfer computes", async () => {
    const result = await scan('t_rt2_hashed_list');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    const [evidence] = simulations(result, 'sells_blockable');
    expect(evidence?.data?.args).toMatch(/^a hash the holder's transfer computed, 1\/true$/);
    expect(evidence?.summary).toMatch(/reverted: reported/);
  });

  it('follows a contract the token relies on: a price feed whose reporter sizes a rebase', async () => {
    const result = await scan('t_rt2_peg_rebase');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    const [evidence] = simulations(result, 'owner_change_balance');
    // The feed's function first (sent to the feed, not the token), then the token's rebase.
    const feed = (
      result.facts.contract_safety?.discovery as { relied_on?: { address: string }[] } | undefined
    )?.relied_on?.[0]?.address;
    expect(feed).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(evidence?.data?.prelude_target ?? evidence?.data?.target).toBe(feed);
    expect(evidence?.summary).toContain(`of the contract ${String(feed)} the token relies on`);
  });

  it("sets a transfer policy's level to the value the holder's transfer compared it with", async () => {
    // The policy refuses sends to contracts at level 4 only; its admin's setter shows nothing.
    const result = await scan('t_rt2_compliance');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    const [evidence] = simulations(result, 'sells_blockable');
    expect(evidence?.data?.args).toBe("4, a value the holder's transfer compared a stored word with");
    expect(evidence?.summary).toContain('the token relies on');
    expect(evidence?.summary).toMatch(/sell after receiving reverted: policy/);
  });

  it("sets a shared rule book's tier for the token, asked after the balances move, and a guard's packed flag", async () => {
    // Attacks on the stored-field round, kept: a per-token tier the book reads by its caller (the
    // token), which a holder with nothing would never reach; bit flags in the owner's slot.
    for (const [key, args] of [
      ['t_check_rule_book', "the token, 4, a value the holder's transfer compared a stored word with"],
      ['t_check_flag_guard', "4, a value the holder's transfer compared a stored word with"],
    ] as const) {
      const result = await scan(key);
      expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
        mint: false,
        leak: false,
        limit: true,
      });
      expect(simulations(result, 'sells_blockable')[0]?.data?.args, key).toBe(args);
    }
  });

  it('finds a mint under a name whose selector starts with a zero byte', async () => {
    const result = await scan('t_check_zero_led');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    expect(simulations(result, 'is_mintable')[0]?.summary).toMatch(/^function 0x0055d20f/);
  });

  it('finds a relayer spending the allowance a holder gave the router (holders who sold through it all have)', async () => {
    const result = await scan('t_rt3_relay_sell');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    const [evidence] = simulations(result, 'owner_change_balance');
    expect(BigInt(String(evidence?.data?.holder_balance_after))).toBeLessThan(
      BigInt(String(evidence?.data?.holder_balance_before)),
    );
  });
  it('finds a power open only in a window, at the time its own comparison of the clock named', async () => {
    const result = await scan('t_rt4_migration_window');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: true,
      limit: false,
    });
    // Refused at the block, a day on and a year on: the window opens two days after launch.
    const [evidence] = simulations(result, 'owner_change_balance');
    const offset = Number(evidence?.data?.time_offset_seconds);
    expect(offset).toBeGreaterThan(86_400);
    expect(offset).toBeLessThan(30 * 86_400);
    expect(result.facts.contract_safety?.discovery).toMatchObject({ comparisons: { error: null } });
    expect(
      (result.facts.contract_safety?.discovery as { comparisons: { timed: number } }).comparisons.timed,
    ).toBeGreaterThan(0);
  });

  it('finds a mint the token makes only for itself, reached through its own batch function', async () => {
    const result = await scan('t_rt4_self_call');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    // The batch's argument is the refused call itself, which the evidence names.
    const [evidence] = simulations(result, 'is_mintable');
    expect(String(evidence?.data?.args)).toMatch(/^\[0x[0-9a-f]{8}\(caller, 1000× supply, 1\/true\)\]$/);
  });

  it('finds a batch transfer whose unchecked total overflows: two credits, no debit', async () => {
    const result = await scan('t_rt4_batch_overflow');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: true,
      leak: false,
      limit: false,
    });
    expect(String(simulations(result, 'is_mintable')[0]?.data?.args)).toContain('2^255 each');
  });

  it('finds a fee wallet set to a contract that refuses the payment every sell makes', async () => {
    const result = await scan('t_rt4_refusing_wallet');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: true,
    });
    expect(String(simulations(result, 'sells_blockable')[0]?.data?.args)).toMatch(/^router/);
  });

  it('keeps the same self-call batch behind a two-day queue in the lowest tier', async () => {
    const result = await scan('t_rt4_queued_batch');
    expect(harmClasses(result.checks), discoveryFacts(result)).toEqual({
      mint: false,
      leak: false,
      limit: false,
    });
    expect(result.tier).toBe('low');
  });
});
