import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyAs,
  labelledWallet,
  type ListingDevnet,
  listWithPair,
  onSnapshot as onDevnetSnapshot,
  scanInOrder,
  scanOnce,
  sellHalfAs,
  sendAs as sendOnDevnet,
  supplyAfter as supplyAfterOnDevnet,
  type TimedStep,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';

// Adversarial review of vigil-risk/41 and /42:
// /41. In the later-block round (`laterBlockRound`, `confirmedAfter` in discoverPowers.ts), a call
//      a staging block opened for one account (refused at the block, working and writing after
//      the staging) is made by that account in the middle block, then followed by the later-block
//      calls of each other account planned after the same staging block, MAX_OTHER_ACTOR_TRIES = 4
//      tries a later block, taken in the plans' order.
// /42. (a) each detector read gets `gasleft() / 2` (`_uintCall` in HoneypotDetector.sol); (b) the
//      middle block is halfway to the later block only before the 51-minute one; before the
//      23-hour one it is the block right after the staging block (`middleAt`).
// Contracts: testContracts/OtherActorAttacks.sol. Each attack asserts the right verdict by the
// corpus's rules (mint: an insider can raise the supply by half or more; leak: an insider can take
// or rewrite a holder's balance; limit: stop, cap or tax above 10 % a holder's sell); `it.fails`
// marks one the scanner gets wrong, with what goes wrong. Each scam's power is made on the devnet
// as real transactions (a block each, impersonated senders), each honest token's notice or cap is
// shown holding the same way, so no verdict is taken on trust.
//
// vigil-risk/43 mends attacks 1 and 1' (the tries deduplicated, calls opened for a third account
// first); "honest" 8 is read by the model's rule (less than a day of notice is a power) as a mint.

const SUPPLY = 10n ** 27n;
const POOL_TOKENS = SUPPLY / 2n;
const POOL_ETH = parseEther('10');
const SCAN_TIMEOUT = 120_000;
/** What the council proposes in the scenarios: twice the supply. */
const BUDGET = 2n * SUPPLY;
/** The most gas a detector read can have: half of a churn step's 4,000,000. */
const MOST_READ_GAS = 2_000_000n;
/** What a transaction pays before its first opcode: an eth_call's gas counts it. */
const INTRINSIC_GAS = 21_000n;

/** Wallets with no code and no key here, derived from a label so that they look random. */
const wallet = (label: string): Address => labelledWallet('oa', label);
const COUNCIL = wallet('council');
const GUARDIAN = wallet('guardian');
const SIGNER_A = wallet('signer-a');
const SIGNER_B = wallet('signer-b');
const SIGNER_C = wallet('signer-c');
const TREASURY = wallet('treasury');

const abi = parseAbi([
  'function proposeBudget(uint256)',
  'function confirmBudget()',
  'function executeBudget()',
  'function annotate()',
  'function attach()',
  'function proposeAllocation(uint256)',
  'function approveAllocation()',
  'function executeAllocation()',
  'function proposeFee(uint256)',
  'function confirmFee()',
  'function applyFee()',
  'function reclaim(address)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address,uint256) returns (bool)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256,address[],address,uint256) payable',
]);

type Key =
  | 'guardianControl'
  | 'oneMemo'
  | 'decoyMemos'
  | 'deniedConfirm'
  | 'timelockOnly'
  | 'graceTimelock'
  | 'quickConfirm'
  | 'windowOpen'
  | 'windowGated'
  | 'multisigTimelock'
  | 'confirmedFeeCap'
  | 'proposerSigns';

const DEPLOYS: Record<Key, { contract: string; args: readonly unknown[] }> = {
  guardianControl: { contract: 'OaGuardianControl', args: [SUPPLY, COUNCIL, GUARDIAN] },
  oneMemo: { contract: 'OaOneMemo', args: [SUPPLY, COUNCIL, GUARDIAN] },
  decoyMemos: { contract: 'OaDecoyMemos', args: [SUPPLY, COUNCIL, GUARDIAN] },
  deniedConfirm: { contract: 'OaDeniedConfirm', args: [SUPPLY, COUNCIL, GUARDIAN] },
  timelockOnly: { contract: 'OaTimelockOnly', args: [SUPPLY, COUNCIL, GUARDIAN] },
  graceTimelock: { contract: 'OaGraceTimelock', args: [SUPPLY, COUNCIL, GUARDIAN] },
  quickConfirm: { contract: 'OaQuickConfirm', args: [SUPPLY, COUNCIL, GUARDIAN] },
  windowOpen: { contract: 'OaWindowBalance', args: [SUPPLY, TREASURY, false] },
  windowGated: { contract: 'OaWindowBalance', args: [SUPPLY, TREASURY, true] },
  multisigTimelock: {
    contract: 'OaMultisigTimelock',
    args: [SUPPLY, SIGNER_A, SIGNER_B, SIGNER_C, TREASURY],
  },
  confirmedFeeCap: { contract: 'OaConfirmedFeeCap', args: [SUPPLY, GUARDIAN] },
  proposerSigns: { contract: 'OaProposerSigns', args: [SUPPLY, SIGNER_A, SIGNER_B, TREASURY] },
};

/** The checks each token is judged on. */
const JUDGED: Record<Key, readonly string[]> = {
  guardianControl: ['is_mintable'],
  oneMemo: ['is_mintable'],
  decoyMemos: ['is_mintable'],
  deniedConfirm: ['is_mintable'],
  timelockOnly: ['is_mintable'],
  graceTimelock: ['is_mintable'],
  quickConfirm: ['is_mintable'],
  windowOpen: ['owner_change_balance'],
  windowGated: ['owner_change_balance', 'sells_blockable'],
  multisigTimelock: ['is_mintable', 'owner_change_balance'],
  confirmedFeeCap: ['sells_blockable', 'is_mintable'],
  proposerSigns: ['is_mintable'],
};

let devnet: ListingDevnet;
/** An ordinary trader: the node's second account, no insider of any token. */
let trader: Address;
const tokens = {} as Record<Key, { address: Address; pair: Address }>;
let scanTimes = new Map<Key, number>();

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  const accounts = await devnet.client.request({ method: 'eth_accounts' });
  trader = getAddress(accounts[1] as Address);
  for (const [key, { contract, args }] of Object.entries(DEPLOYS) as [Key, (typeof DEPLOYS)[Key]][])
    tokens[key] = await listWithPair(devnet, contract, { args, tokens: POOL_TOKENS, eth: POOL_ETH });
  // Every scan made here, one after another at the same block, before any control moves the chain.
  scanTimes = await scanInOrder(Object.keys(DEPLOYS) as Key[], scan);
}, 1_200_000);
afterAll(() => devnet.node.stop());

const scanOf = scanOnce(() => devnet);
/** Each token scanned once, however many tests read the scan. */
const scan = (key: Key) => scanOf(tokens[key].address);
const status = async (key: Key, id: string) =>
  (await scan(key)).checks.find((check) => check.id === id)?.status;
const mintable = (key: Key) => status(key, 'is_mintable');

/** Sends a transaction as `from` (impersonated, funded) in a block of its own; whether it went through. */
const sendAs = (from: Address, to: Address, data: Hex, value = 0n) =>
  sendOnDevnet(devnet, { from, to, data, value });
const onSnapshot = <T>(body: () => Promise<T>) => onDevnetSnapshot(devnet, body);
const supplyAfter = (key: Key, steps: TimedStep[]) => supplyAfterOnDevnet(devnet, tokens[key].address, steps);
const owner = () => devnet.owner;
const call = (
  functionName:
    | 'confirmBudget'
    | 'executeBudget'
    | 'annotate'
    | 'attach'
    | 'approveAllocation'
    | 'executeAllocation'
    | 'confirmFee'
    | 'applyFee',
): Hex => encodeFunctionData({ abi, functionName });
const propose = (amount = BUDGET): Hex =>
  encodeFunctionData({ abi, functionName: 'proposeBudget', args: [amount] });

const balanceOf = (key: Key, account: Address) =>
  devnet.client.readContract({
    address: tokens[key].address,
    abi,
    functionName: 'balanceOf',
    args: [account],
  });

/** The ordinary trader buys with 0.1 ETH; what it holds. */
async function traderBuys(key: Key) {
  const { bought, held } = await buyAs(devnet, trader, tokens[key].address);
  expect(bought).toBe(true);
  return held;
}

/** The trader sells half of what it holds at the token (a send to the pair): the share the token kept, in basis points. */
const traderSellsHalf = (key: Key) => sellHalfAs(devnet, trader, tokens[key]);

/** The council's proposal, the guardian's confirmation and the owner's mint, each after its wait. */
const threeBlocks = (
  confirmWait: Omit<TimedStep, 'from' | 'data'> = {},
  executeWait: Omit<TimedStep, 'from' | 'data'> = {},
): TimedStep[] => [
  { from: COUNCIL, data: propose() },
  { from: GUARDIAN, data: call('confirmBudget'), ...confirmWait },
  { from: owner(), data: call('executeBudget'), ...executeWait },
];

describe('the scans themselves', () => {
  // So that no `it.fails` below passes on a scan that threw instead of on a wrong verdict.
  it('every token scanned within the per-scan budget, every probe ran, each judged check has a verdict', async () => {
    for (const key of Object.keys(DEPLOYS) as Key[]) {
      const output = await scan(key);
      expect(output.facts.discovery, key).toMatchObject({ failures: [], later_block: { error: null } });
      for (const id of JUDGED[key])
        expect([CheckStatus.pass, CheckStatus.fail], `${key} ${id}`).toContain(await status(key, id));
      expect(scanTimes.get(key), key).toBeLessThan(SCAN_TIMEOUT);
    }
  });
});

describe('/41: the other accounts after a call opened for one', () => {
  it('control: the council proposes, the guardian confirms, the owner mints; neither alone', async () => {
    for (const key of ['guardianControl', 'oneMemo', 'decoyMemos', 'deniedConfirm'] as const) {
      const { sent, raisedBps } = await supplyAfter(key, threeBlocks());
      expect(sent).toEqual([true, true, true]);
      expect(raisedBps).toBeGreaterThanOrEqual(20_000);
      // The owner's mint without the guardian's confirmation does nothing.
      expect(
        await supplyAfter(key, [
          { from: COUNCIL, data: propose() },
          { from: owner(), data: call('executeBudget') },
          { from: owner(), data: call('executeBudget') },
        ]),
      ).toEqual({ sent: [true, true, true], raisedBps: 0 });
    }
  });

  it(
    "control: the guardian's confirmation followed by the owner's mint is found (/41)",
    async () => {
      expect(await mintable('guardianControl')).toBe(CheckStatus.fail);
      const check = (await scan('guardianControl')).checks.find((each) => each.id === 'is_mintable');
      expect(check?.evidence.find((each) => each.kind === 'simulation')?.data).toMatchObject({
        prelude_caller: getAddress(GUARDIAN),
        caller: getAddress(owner()),
      });
    },
    SCAN_TIMEOUT,
  );

  // Attacks 1 and 1'. Decoys take the four tries. The council's memo calls are refused while
  // nothing is pending and write once the council's proposal is: each of the council's staging
  // blocks (the proposal in its several shapes) opens them for the council, whose own plan comes
  // first after each. The tries are taken in the plans' order, each opened call followed by each
  // other planned account (the owner, the pair named in setPair, the guardian): with one memo, the
  // memo after the first staging block followed by those three, then after the second by the
  // owner. The guardian's confirmation followed by the owner's mint (the second try of the control)
  // is never reached. Checked once on a copy of the tree with MAX_OTHER_ACTOR_TRIES raised to 100:
  // both memo tokens' mints are found.
  it('control 1: the memos are refused before the proposal and work after it; they mint nothing', async () => {
    for (const key of ['oneMemo', 'decoyMemos'] as const)
      await onSnapshot(async () => {
        const { address } = tokens[key];
        const memos = key === 'oneMemo' ? (['annotate'] as const) : (['annotate', 'attach'] as const);
        for (const memo of memos) expect(await sendAs(COUNCIL, address, call(memo))).toBe(false);
        expect(await sendAs(COUNCIL, address, propose())).toBe(true);
        for (const memo of memos) expect(await sendAs(COUNCIL, address, call(memo))).toBe(true);
        expect(await sendAs(owner(), address, call('executeBudget'))).toBe(true);
        expect(await devnet.client.readContract({ address, abi, functionName: 'totalSupply' })).toBe(SUPPLY);
      });
  });

  it(
    "1': the guardian's confirmation, then the owner's mint, behind one decoy memo call of the council",
    // Failed under /42: the four MAX_OTHER_ACTOR_TRIES were the memo followed by the three other
    // accounts, then the guardian's confirmation followed by the council's calls. Since /43 each
    // opened call is tried once per follower, calls opened for a third account first.
    async () => {
      expect(await mintable('oneMemo')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it(
    "1: the guardian's confirmation, then the owner's mint, behind two decoy memo calls of the council",
    // Failed under /42 (the tries spent on the council's opened memo calls); since /43 calls opened
    // for a third account (the guardian's) are tried first.
    async () => {
      expect(await mintable('decoyMemos')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 4. As the control, the guardian's confirmation checked in one require (the guardian, a
  // pending proposal, a block after it) whose reason is "unauthorized". At the block the guardian's
  // confirmation is refused with a reason `deniedToCaller` reads as the caller's rights, so it is
  // not among the guardian's later-block calls (only functions that worked, or were refused for
  // another reason, are): it is never opened, never made in a middle block.
  it('control 4: before a proposal the guardian is refused "unauthorized"; after it the confirmation works', async () => {
    await onSnapshot(async () => {
      const { address } = tokens.deniedConfirm;
      const { error } = await devnet.client
        .call({ account: GUARDIAN, to: address, data: call('confirmBudget') })
        .then(() => ({ error: '' }))
        .catch((thrown: Error) => ({ error: thrown.message }));
      expect(error).toMatch(/unauthorized/);
      expect(await sendAs(GUARDIAN, address, call('confirmBudget'))).toBe(false);
      expect(await sendAs(COUNCIL, address, propose())).toBe(true);
      expect(await sendAs(GUARDIAN, address, call('confirmBudget'))).toBe(true);
    });
  });

  it.fails(
    '4: the guardian\'s confirmation, refused "unauthorized" while nothing is pending, then the owner\'s mint',
    // is_mintable passes: the confirmation is among no plan's later-block calls, so no staging
    // block opens it and no other account's calls follow it.
    async () => {
      expect(await mintable('deniedConfirm')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('/42: the middle block halfway before the 51-minute later block only', () => {
  // Attack 2. The owner mints between 30 minutes and two hours after the guardian's confirmation
  // (a timelock with a grace period). Before the 51-minute later block the middle block is halfway
  // (the mint 25.4 minutes after the confirmation: too early); before the 23-hour one it is the
  // block after the staging (the mint 23 hours after the confirmation: too late). Under /39 (the
  // middle block always the block after the staging) the 51-minute later block minted 51 minutes
  // after the confirmation, inside the window.
  it('control 2: a mint 25 minutes after the confirmation does nothing, at 40 or 51 minutes triples the supply, at 23 hours does nothing', async () => {
    for (const [wait, raised] of [
      [25 * 60, false],
      [40 * 60, true],
      [51 * 60, true],
      [23 * 3_600, false],
    ] as const) {
      const { sent, raisedBps } = await supplyAfter('graceTimelock', threeBlocks({}, { waitSeconds: wait }));
      expect(sent, String(wait)).toEqual([true, true, true]);
      if (raised) expect(raisedBps, String(wait)).toBeGreaterThanOrEqual(20_000);
      else expect(raisedBps, String(wait)).toBe(0);
    }
    // Without the grace period, the mint 23 hours after the confirmation works.
    const { sent, raisedBps } = await supplyAfter(
      'timelockOnly',
      threeBlocks({}, { waitSeconds: 23 * 3_600 }),
    );
    expect(sent).toEqual([true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  it(
    'control 2: a mint any time from 30 minutes after the confirmation is found (the 23-hour later block)',
    async () => {
      expect(await mintable('timelockOnly')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it.fails(
    '2: a mint between 30 minutes and two hours after the confirmation',
    // is_mintable passes: the mint comes 25.4 minutes after a halfway middle block (51-minute later
    // block) or 23 hours after the block after the staging (23-hour later block), never in the
    // window; /39's middle block (always the block after the staging) put it 51 minutes on.
    async () => {
      expect(await mintable('graceTimelock')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 5. The guardian may confirm only within ten minutes of the proposal; the owner mints
  // any block after the confirmation. A call counts as opened by the staging only if it works in
  // the later block: 51 minutes or 23 hours after the proposal, the confirmation is refused, so it
  // is never made in a middle block, though the 23-hour later block's middle block (12 seconds
  // after the proposal) would take it.
  it('control 5: confirm at once, then mint; the confirmation is refused at 11 minutes, 51 minutes and 23 hours', async () => {
    const { sent, raisedBps } = await supplyAfter(
      'quickConfirm',
      threeBlocks({}, { waitSeconds: 23 * 3_600 }),
    );
    expect(sent).toEqual([true, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
    for (const wait of [11 * 60, 51 * 60, 23 * 3_600])
      expect(await supplyAfter('quickConfirm', threeBlocks({ waitSeconds: wait })), String(wait)).toEqual({
        sent: [true, false, true],
        raisedBps: 0,
      });
  });

  it.fails(
    '5: a confirmation allowed only within ten minutes of the proposal, then the mint',
    // is_mintable passes: the confirmation is refused at both later blocks, so no staging block
    // opens it (`opened` asks that it work and write in the later block), and it is never made in
    // a middle block.
    async () => {
      expect(await mintable('quickConfirm')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('/42: reads given half the gas left', () => {
  // Attack 3. The owner takes a tenth of any holder's balance (`reclaim`); balanceOf, given less
  // than 2.5 million gas, adds back what was taken. Half the gas left is no fixed figure, but it is
  // bounded: a step has 1.2 million (a churn step 4 million), so a detector read has at most 2
  // million. A wallet's eth_call has the block's gas limit; the pair reads only its own balance.
  it("control 3: the owner takes a tenth of a trader's tokens; a read given 2 million gas shows them whole", async () => {
    for (const key of ['windowOpen', 'windowGated'] as const)
      await onSnapshot(async () => {
        const held = await traderBuys(key);
        expect(held).toBeGreaterThan(0n);
        const reclaim = encodeFunctionData({ abi, functionName: 'reclaim', args: [trader] });
        expect(await sendAs(owner(), tokens[key].address, reclaim)).toBe(true);
        const left = held - held / 10n;
        expect(await balanceOf(key, trader)).toBe(left);
        expect(await balanceOf(key, TREASURY)).toBe(held / 10n);
        const { data } = await devnet.client.call({
          to: tokens[key].address,
          data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [trader] }),
          gas: MOST_READ_GAS + INTRINSIC_GAS,
        });
        expect(BigInt(data ?? '0x0')).toBe(key === 'windowGated' ? held : left);
        expect((await traderSellsHalf(key)).sold).toBe(true);
      });
  });

  it(
    'control 3: the same take with a plain balanceOf is found',
    async () => {
      expect(await status('windowOpen', 'owner_change_balance')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it(
    "3': the holder sells what is left after the take (no limit)",
    async () => {
      expect(await status('windowGated', 'sells_blockable')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );

  it.fails(
    "3: the owner's take, behind a balanceOf that answers reads of under 2.5 million gas the untaken balance",
    // owner_change_balance passes: every detector read gets half of its step's gas (at most 2
    // million), under the token's threshold, and sees the holder whole after the take.
    async () => {
      expect(await status('windowGated', 'owner_change_balance')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('honest tokens: confirmations with a real notice or a cap', () => {
  // Honest 6. A 2-of-3 approval with a 48-hour timelock: the owner proposes an allocation to the
  // treasury, two of three signers approve, the owner executes 48 hours to a week later.
  it('control 6: two approvals, then the allocation refused at once and 23 hours on, made 48 hours on', async () => {
    const steps = (wait: number): TimedStep[] => [
      { from: owner(), data: encodeFunctionData({ abi, functionName: 'proposeAllocation', args: [BUDGET] }) },
      { from: SIGNER_A, data: call('approveAllocation') },
      { from: SIGNER_A, data: call('approveAllocation') },
      { from: SIGNER_C, data: call('approveAllocation') },
      { from: owner(), data: call('executeAllocation'), waitSeconds: wait },
    ];
    expect(await supplyAfter('multisigTimelock', steps(0))).toEqual({
      sent: [true, true, false, true, false],
      raisedBps: 0,
    });
    expect(await supplyAfter('multisigTimelock', steps(23 * 3_600))).toEqual({
      sent: [true, true, false, true, false],
      raisedBps: 0,
    });
    const { sent, raisedBps } = await supplyAfter('multisigTimelock', steps(48 * 3_600));
    expect(sent).toEqual([true, true, false, true, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
  });

  for (const id of ['is_mintable', 'owner_change_balance'])
    it(
      `6: a 2-of-3 approval with a 48-hour timelock passes ${id}`,
      async () => {
        expect(await status('multisigTimelock', id)).toBe(CheckStatus.pass);
      },
      SCAN_TIMEOUT,
    );

  // Honest 7. The owner proposes a sell fee, a guardian confirms, the owner applies it a block
  // later; no proposal above 5 %.
  it('control 7: a fee above 5 % cannot be proposed; 5 % proposed, confirmed and applied costs a seller 5 %', async () => {
    await onSnapshot(async () => {
      const { address } = tokens.confirmedFeeCap;
      expect(await traderBuys('confirmedFeeCap')).toBeGreaterThan(0n);
      const proposeFee = (bps: bigint) =>
        encodeFunctionData({ abi, functionName: 'proposeFee', args: [bps] });
      expect(await sendAs(owner(), address, proposeFee(10_000n))).toBe(false);
      expect(await sendAs(owner(), address, proposeFee(501n))).toBe(false);
      expect(await sendAs(owner(), address, call('applyFee'))).toBe(false);
      expect(await sendAs(owner(), address, proposeFee(500n))).toBe(true);
      expect(await sendAs(owner(), address, call('applyFee'))).toBe(false);
      expect(await sendAs(GUARDIAN, address, call('confirmFee'))).toBe(true);
      expect(await sendAs(owner(), address, call('applyFee'))).toBe(true);
      const { sold, keptBps } = await traderSellsHalf('confirmedFeeCap');
      expect(sold).toBe(true);
      expect(keptBps).toBeGreaterThanOrEqual(499);
      expect(keptBps).toBeLessThanOrEqual(500);
    });
  });

  for (const id of ['sells_blockable', 'is_mintable'])
    it(
      `7: a guardian-confirmed sell fee capped at 5 % passes ${id}`,
      async () => {
        expect(await status('confirmedFeeCap', id)).toBe(CheckStatus.pass);
      },
      SCAN_TIMEOUT,
    );
});

describe('a 2-of-3 approval with a timelock shorter than a day', () => {
  // Case 8. The owner proposes an allocation (its own approval), one of two signers approves (the
  // second of three keys), the owner executes from 12 hours to three days later; each step is an
  // event. Holders have twelve hours' notice of an allocation two keys agreed to, as a Safe with a
  // timelock module gives. Before /41 no account's calls followed another's confirmation; since,
  // the signer's approval is made in the middle block (the block after the proposal, before the
  // 23-hour later block) and the owner's execution 23 hours later is found as a mint.
  //
  // The reviewer wrote it as honest. The model's rule (docs/risk-model.md, the later-block round)
  // is that a notice shorter than a day is no notice: a 12-hour timelock on the owner's own
  // allocation is a mint in the two-block round too, and a second key the team holds adds none.
  // So the verdict asserted is a mint (kept as the reviewer's case, with its evidence above).
  it('control 8: the allocation refused at once and 11 hours after the approval, made at 12 hours; a holder sells in between', async () => {
    const steps = (wait: number): TimedStep[] => [
      { from: owner(), data: encodeFunctionData({ abi, functionName: 'proposeAllocation', args: [BUDGET] }) },
      { from: owner(), data: call('approveAllocation') },
      { from: SIGNER_B, data: call('approveAllocation') },
      { from: SIGNER_A, data: call('approveAllocation') },
      { from: owner(), data: call('executeAllocation'), waitSeconds: wait },
    ];
    expect(await supplyAfter('proposerSigns', steps(0))).toEqual({
      sent: [true, false, true, false, false],
      raisedBps: 0,
    });
    expect(await supplyAfter('proposerSigns', steps(11 * 3_600))).toEqual({
      sent: [true, false, true, false, false],
      raisedBps: 0,
    });
    const { sent, raisedBps } = await supplyAfter('proposerSigns', steps(12 * 3_600));
    expect(sent).toEqual([true, false, true, false, true]);
    expect(raisedBps).toBeGreaterThanOrEqual(20_000);
    // Without a signer's approval the owner never allocates.
    expect(
      await supplyAfter('proposerSigns', [
        {
          from: owner(),
          data: encodeFunctionData({ abi, functionName: 'proposeAllocation', args: [BUDGET] }),
        },
        { from: owner(), data: call('executeAllocation'), waitSeconds: 23 * 3_600 },
      ]),
    ).toEqual({ sent: [true, false], raisedBps: 0 });
    // A holder who sees the approval sells before the allocation.
    await onSnapshot(async () => {
      expect(await traderBuys('proposerSigns')).toBeGreaterThan(0n);
      const { address } = tokens.proposerSigns;
      expect(
        await sendAs(
          owner(),
          address,
          encodeFunctionData({ abi, functionName: 'proposeAllocation', args: [BUDGET] }),
        ),
      ).toBe(true);
      expect(await sendAs(SIGNER_A, address, call('approveAllocation'))).toBe(true);
      await devnet.client.increaseTime({ seconds: 3_600 });
      const { sold, keptBps } = await traderSellsHalf('proposerSigns');
      expect(sold).toBe(true);
      expect(keptBps).toBe(0);
    });
  });

  it(
    "8': the scanner's evidence: the proposal, a signer's approval in the block after it, the owner's execution 23 hours on",
    async () => {
      const check = (await scan('proposerSigns')).checks.find((each) => each.id === 'is_mintable');
      expect(check?.evidence.find((each) => each.kind === 'simulation')?.data).toMatchObject({
        class: 'mint',
        first_block: 'earlier',
        prelude_block: 'the block after the first call',
        prelude_caller: getAddress(SIGNER_A),
        caller: getAddress(owner()),
        time_offset_seconds: 23 * 3_600,
      });
    },
    SCAN_TIMEOUT,
  );

  it(
    '8: a 2-of-3 approval with a 12-hour timelock is a mint (less than a day of notice)',
    // The owner's proposal staged, a signer's approval in the block after it (/42's middle block
    // before the 23-hour later block), the owner's execution 23 hours on (an other-actor try of
    // /41) raise the supply. Checked once by the reviewer on a copy of the tree with
    // MAX_OTHER_ACTOR_TRIES 0: not flagged then.
    async () => {
      expect(await mintable('proposerSigns')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});
