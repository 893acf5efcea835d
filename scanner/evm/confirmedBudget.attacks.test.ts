import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListingDevnet,
  listWithPair,
  labelledWallet,
  scanInOrder,
  scanOnce,
  sendAs as sendOnDevnet,
  supplyAfter as supplyAfterSteps,
  type TimedStep,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';

// Adversarial review of vigil-risk/37's middle block (`confirmedAfter` in discoverPowers.ts: a call
// the staging opened for the acting account, made as its own transaction in the block after the
// staging block (halfway to the later block since /40), the acting account's calls in the later
// block). Contracts:
// testContracts/ConfirmedBudgetAttacks.sol. Each attack asserts the right verdict by the corpus's
// rule (a mint: an insider can raise the supply by half or more); `it.fails` marks one the scanner
// gets wrong today, with what goes wrong. Each scam's power is made on the devnet as real
// transactions (a block each, impersonated senders), so no verdict is taken on trust; each honest
// token's notice or cap is shown holding the same way.

const SUPPLY = 10n ** 27n;
const POOL_TOKENS = SUPPLY / 2n;
const POOL_ETH = parseEther('10');
const SCAN_TIMEOUT = 120_000;
/** A budget the council proposes in the controls: twice the supply. */
const BUDGET = 2n * SUPPLY;

/** Wallets with no code and no key here, derived from a label so that they look random. */
const wallet = (label: string): Address => labelledWallet('cba', label);
const COUNCIL = wallet('council');
const GUARDIAN = wallet('guardian');
const NOMINEE = wallet('nominee');

const abi = parseAbi([
  'function proposeBudget(uint256)',
  'function proposeRecipient(address)',
  'function proposeAmount(uint256)',
  'function confirmBudget()',
  'function confirmBudget(uint256)',
  'function executeBudget()',
  'function transferOwnership(address)',
  'function acceptOwnership()',
  'function totalSupply() view returns (uint256)',
  'event Proposed(uint256 id, uint256 amount)',
]);

type Key =
  | 'heavyQuiet'
  | 'guardian'
  | 'delayed'
  | 'twoConfirmations'
  | 'shortTimelock'
  | 'split'
  | 'idConfirm'
  | 'proposalNotice'
  | 'capped'
  | 'blockNotice'
  | 'twoStep';

const DEPLOYS: Record<Key, { contract: string; args: readonly unknown[] }> = {
  heavyQuiet: { contract: 'CaHeavyQuietConfirm', args: [SUPPLY, COUNCIL] },
  guardian: { contract: 'CaGuardianConfirm', args: [SUPPLY, COUNCIL, GUARDIAN] },
  delayed: { contract: 'CaDelayedConfirm', args: [SUPPLY, COUNCIL] },
  twoConfirmations: { contract: 'CaTwoConfirmations', args: [SUPPLY, COUNCIL] },
  shortTimelock: { contract: 'CaShortTimelock', args: [SUPPLY, COUNCIL] },
  split: { contract: 'CaSplitProposal', args: [SUPPLY, COUNCIL] },
  idConfirm: { contract: 'CaIdConfirm', args: [SUPPLY, COUNCIL] },
  proposalNotice: { contract: 'CaProposalNotice', args: [SUPPLY, COUNCIL] },
  capped: { contract: 'CaCappedEmission', args: [SUPPLY, COUNCIL] },
  blockNotice: { contract: 'CaBlockNotice', args: [SUPPLY, COUNCIL] },
  twoStep: { contract: 'CaTwoStepOwnership', args: [SUPPLY, COUNCIL] },
};

let devnet: ListingDevnet;
const tokens = {} as Record<Key, Address>;
let scanTimes: Map<Key, number>;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  for (const [key, { contract, args }] of Object.entries(DEPLOYS) as [Key, (typeof DEPLOYS)[Key]][])
    tokens[key] = (
      await listWithPair(devnet, contract, { args, tokens: POOL_TOKENS, eth: POOL_ETH })
    ).address;
  scanTimes = await scanInOrder(Object.keys(DEPLOYS) as Key[], scan);
}, 900_000);
afterAll(() => devnet.node.stop());

const scanOf = scanOnce(() => devnet);
/** Each token scanned once, however many tests read the scan. */
const scan = (key: Key) => scanOf(tokens[key]);
const mintable = async (key: Key) =>
  (await scan(key)).checks.find((check) => check.id === 'is_mintable')?.status;

/** Sends a transaction as `from` (impersonated, funded) in a block of its own; whether it went through. */
const sendAs = (from: Address, to: Address, data: Hex) => sendOnDevnet(devnet, { from, to, data });

type Step = TimedStep;
const call = (functionName: 'confirmBudget' | 'executeBudget' | 'acceptOwnership'): Hex =>
  encodeFunctionData({ abi, functionName });
const propose = (amount = BUDGET): Hex =>
  encodeFunctionData({ abi, functionName: 'proposeBudget', args: [amount] });

/** On a snapshot: each step as a transaction of its own, then how far the supply rose. */
const supplyAfter = (key: Key, steps: Step[]) => supplyAfterSteps(devnet, tokens[key], steps);

const owner = () => devnet.owner;
/** The council's proposal, the owner's confirmation and the owner's mint, a block each. */
const threeBlocks = (): Step[] => [
  { from: COUNCIL, data: propose() },
  { from: owner(), data: call('confirmBudget') },
  { from: owner(), data: call('executeBudget') },
];

describe('the scans themselves', () => {
  // So that no `it.fails` below passes on a scan that threw instead of on a wrong verdict.
  it('every token scanned within the per-scan budget, every probe ran, is_mintable has a verdict', async () => {
    for (const key of Object.keys(DEPLOYS) as Key[]) {
      const output = await scan(key);
      expect(output.facts.discovery, key).toMatchObject({ failures: [], later_block: { error: null } });
      expect([CheckStatus.pass, CheckStatus.fail], key).toContain(await mintable(key));
      expect(scanTimes.get(key), key).toBeLessThan(SCAN_TIMEOUT);
    }
  });
});

describe('evasions of the three-block pattern', () => {
  // Attack 1. The confirmation returns quietly when nothing is pending, after reading a 64-entry
  // ledger: at the pinned block it works without writing, but costs over 5,000 gas, so the
  // "idle" test (a call refused, or working under WRITE_GAS) does not take it for one the staging
  // can open. The two-block round makes it and the mint in the same later block, where the mint
  // sees a confirmation of this block and does nothing.
  it('control 1: proposal, confirmation, mint, a block each, doubles the supply and more', async () => {
    const { sent, raisedBps } = await supplyAfter('heavyQuiet', threeBlocks());
    expect(sent).toEqual([true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it(
    '1: a quiet confirmation that reads enough storage to cost 5,000 gas is still a confirmation',
    // Failed under the first cut of /38 (a call that used a write's gas at the block was never
    // opened); since /38 a call is opened when it spends a write's gas more after the staging.
    async () => {
      expect(await mintable('heavyQuiet')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 2. A third account confirms: the council proposes, a guardian (a stored address)
  // confirms, the owner mints. Until vigil-risk/41 the middle block's call was only ever the acting
  // account's own; since /41 a call opened for one account is also followed by the others' calls.
  it('control 2: proposal, the guardian confirmation and the owner mint, a block each, mint', async () => {
    const { sent, raisedBps } = await supplyAfter('guardian', [
      { from: COUNCIL, data: propose() },
      { from: GUARDIAN, data: call('confirmBudget') },
      { from: owner(), data: call('executeBudget') },
    ]);
    expect(sent).toEqual([true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it(
    "2: a confirmation by a third account (the guardian) before the owner's mint",
    async () => {
      expect(await mintable('guardian')).toBe(CheckStatus.fail);
      const check = (await scan('guardian')).checks.find((each) => each.id === 'is_mintable');
      // The evidence names the guardian's confirmation in the middle block and the owner's mint.
      expect(check?.evidence.find((each) => each.kind === 'simulation')?.data).toMatchObject({
        first_block: 'earlier',
        prelude_block: 'halfway between the first call and this one',
        prelude_caller: getAddress(GUARDIAN),
        caller: getAddress(owner()),
      });
    },
    SCAN_TIMEOUT,
  );

  // Attack 3. The confirmation opens ten minutes after the proposal. The later block (51 minutes
  // on) sees it work and write; until vigil-risk/40 the middle block was the block right after the
  // staging block, seconds later, where it is still refused. Since /40 it is halfway to the later
  // block (25 minutes on, or 11.5 hours).
  it('control 3: with ten minutes between proposal and confirmation, the owner mints', async () => {
    const early = await supplyAfter('delayed', threeBlocks());
    expect(early.sent).toEqual([true, false, true]);
    expect(early.raisedBps).toBe(0);
    const { sent, raisedBps } = await supplyAfter('delayed', [
      { from: COUNCIL, data: propose() },
      { from: owner(), data: call('confirmBudget'), waitSeconds: 600 },
      { from: owner(), data: call('executeBudget') },
    ]);
    expect(sent).toEqual([true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it(
    '3: a confirmation that opens ten minutes after the proposal',
    async () => {
      expect(await mintable('delayed')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 4. Two confirmations, each in a block after the one before, then the mint.
  it('control 4: proposal, two confirmations and the mint, a block each, mint', async () => {
    const { sent, raisedBps } = await supplyAfter('twoConfirmations', [
      { from: COUNCIL, data: propose() },
      { from: owner(), data: call('confirmBudget') },
      { from: owner(), data: call('confirmBudget') },
      { from: owner(), data: call('executeBudget') },
    ]);
    expect(sent).toEqual([true, true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it.fails(
    '4: two confirmations in blocks of their own before the mint',
    // is_mintable passes: one middle block only; in the later block the second confirmation and
    // the mint share a block, and the mint sees a confirmation of this block.
    async () => {
      expect(await mintable('twoConfirmations')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 5. The mint waits two blocks and half an hour after the confirmation: the later block
  // is 253 blocks and 51 minutes after the middle one, so the pattern covers it.
  it('control 5: the mint waits half an hour after the confirmation, then works', async () => {
    const { sent, raisedBps } = await supplyAfter('shortTimelock', [
      ...threeBlocks().slice(0, 2),
      { from: owner(), data: call('executeBudget'), waitSeconds: 1_800, waitBlocks: 2 },
    ]);
    expect(sent).toEqual([true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it(
    '5: a mint that waits two blocks and half an hour after the confirmation',
    async () => {
      expect(await mintable('shortTimelock')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 6. The proposal comes in two parts (a recipient and an amount), both needed before the
  // confirmation works. The two-block round has `stagedTogether` for a pair of staging calls;
  // `confirmedAfter` needs a single staging call to show the class beside the middle call.
  it('control 6: recipient, amount, confirmation and mint, a block each, mint', async () => {
    const { sent, raisedBps } = await supplyAfter('split', [
      { from: COUNCIL, data: encodeFunctionData({ abi, functionName: 'proposeRecipient', args: [COUNCIL] }) },
      { from: COUNCIL, data: encodeFunctionData({ abi, functionName: 'proposeAmount', args: [BUDGET] }) },
      { from: owner(), data: call('confirmBudget') },
      { from: owner(), data: call('executeBudget') },
    ]);
    expect(sent).toEqual([true, true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it.fails(
    '6: a proposal in two parts, confirmed, then minted',
    // is_mintable passes: with both parts staged the middle confirmation and the later mint show
    // it, but each part alone leaves the confirmation refused, and no pair is tried.
    async () => {
      expect(await mintable('split')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 11. The confirmation names the proposal by the id the proposal returned (a hash of its
  // block and amount). No argument shape gives it, so the confirmation is refused in every block.
  it('control 11: the confirmation with the id the proposal logged, then the mint', async () => {
    const { client } = devnet;
    const snapshot = await client.snapshot();
    const address = tokens.idConfirm;
    try {
      const before = await client.readContract({ address, abi, functionName: 'totalSupply' });
      expect(await sendAs(COUNCIL, address, propose())).toBe(true);
      const [logged] = await client.getContractEvents({ address, abi, eventName: 'Proposed' });
      const id = logged?.args.id ?? 0n;
      expect(id).toBeGreaterThan(2n ** 200n);
      const confirm = encodeFunctionData({ abi, functionName: 'confirmBudget', args: [id] });
      expect(await sendAs(owner(), address, confirm)).toBe(true);
      expect(await sendAs(owner(), address, call('executeBudget'))).toBe(true);
      const after = await client.readContract({ address, abi, functionName: 'totalSupply' });
      expect(after - before).toBe(BUDGET);
    } finally {
      await client.revert({ id: snapshot });
    }
  });

  it.fails(
    '11: a confirmation that names the proposal by the id it returned',
    // is_mintable passes: the confirmation is tried with the shapes' words only (0, 1, the
    // caller, the holder...), never with what the staging call returned or logged.
    async () => {
      expect(await mintable('idConfirm')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('false positives: honest multi-step governance', () => {
  // Honest 7. The mint waits two days after the proposal (whenever the confirmation came).
  it('control 7: a day after the proposal the mint does nothing; two days after, it mints', async () => {
    const day = await supplyAfter('proposalNotice', [
      ...threeBlocks().slice(0, 2),
      { from: owner(), data: call('executeBudget'), waitSeconds: 23 * 3_600 },
    ]);
    expect(day).toEqual({ sent: [true, true, true], raisedBps: 0 });
    const later = await supplyAfter('proposalNotice', [
      ...threeBlocks().slice(0, 2),
      { from: owner(), data: call('executeBudget'), waitSeconds: 2 * 86_400 },
    ]);
    expect(later.raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it(
    '7: a budget minted two days after its proposal (public notice) is no mint',
    async () => {
      expect(await mintable('proposalNotice')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );

  // Honest 8. A capped emission: 2 % of the supply a proposal, confirmed and minted a block each.
  it('control 8: the three blocks raise the supply by 2 %', async () => {
    expect(await supplyAfter('capped', threeBlocks())).toEqual({ sent: [true, true, true], raisedBps: 200 });
  });

  it(
    '8: a capped emission (2 % a proposal) confirmed and minted in later blocks is no mint',
    async () => {
      expect(await mintable('capped')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );

  // Honest 9. A notice counted in blocks: 7,200 after the confirmation.
  // (The mint 7,200 blocks on is not mined here: a devnet node takes over a minute to mine them.)
  it('control 9: 300 blocks and a day after the confirmation, nothing is minted', async () => {
    const soon = await supplyAfter('blockNotice', [
      ...threeBlocks().slice(0, 2),
      { from: owner(), data: call('executeBudget'), waitBlocks: 300, waitSeconds: 86_400 },
    ]);
    expect(soon).toEqual({ sent: [true, true, true], raisedBps: 0 });
  });

  it(
    '9: a budget minted 7,200 blocks after its confirmation is no mint',
    async () => {
      expect(await mintable('blockNotice')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );

  // Honest 10. A two-step ownership transfer (nomination, acceptance a block later) beside a
  // capped emission: the nominee, once owner, mints 2 % as the old owner could.
  it('control 10: the nominee accepts a block later and mints the capped 2 %', async () => {
    const { sent, raisedBps } = await supplyAfter('twoStep', [
      {
        from: owner(),
        data: encodeFunctionData({ abi, functionName: 'transferOwnership', args: [NOMINEE] }),
      },
      { from: COUNCIL, data: propose() },
      { from: NOMINEE, data: call('acceptOwnership') },
      { from: NOMINEE, data: call('executeBudget') },
    ]);
    expect(sent).toEqual([true, true, true, true]);
    expect(raisedBps).toBe(200);
  });

  it(
    '10: a two-step ownership transfer beside a capped emission is no mint',
    async () => {
      expect(await mintable('twoStep')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );
});
