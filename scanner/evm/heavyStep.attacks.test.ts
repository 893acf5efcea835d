import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListingDevnet,
  listAll,
  buyAs,
  labelledWallet,
  onSnapshot as onDevnetSnapshot,
  scanInOrder,
  scanOnce,
  sellHalfAs,
  sentAs,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';

// Adversarial review of vigil-risk/53's sized cut (b6a0e9b): a probe whose step with no call runs
// out of EFFECT_GAS (1.2M) makes it again with HEAVY_EFFECT_GAS (6M), and every step of that probe
// then got what that heavy step used plus 1.2M, 6M at most (a8b9b61 gave every such step a flat
// 6M). The review made three verdicts wrong that the flat 6M gets right (1, 2 and honest 4 below),
// so /53 as landed gives every step of a heavy probe a flat 6M again (HoneypotDetector.sol).
// Contracts: testContracts/HeavyStepAttacks.sol. Each attack asserts the right verdict by the
// corpus's rules (mint: an insider can raise the supply by half or more; leak: an insider can take
// or rewrite a holder's balance; limit: an insider can stop, or tax above 10 %, a holder's sell);
// `it.fails` marks one the scanner gets wrong. Every power is made on the devnet as real
// transactions (the owner's, sent with 10M gas, then an ordinary trader's buy and sell), and each
// honest token's cap is shown holding the same way.
//
// 1. A reflection token with 20 excluded wallets (heavy: its plain step needs more than 1.2M) whose
//    owner may set a 100 % fee (`setTaxBps`) and take a tenth of any holder (`reclaim`), each call
//    also writing 110 slots of history (~2.5M gas). The probe's step gets the heavy plain step's
//    gas plus 1.2M, too little for call and legs: every call's step runs out whole ("reverted
//    without a reason", nothing measured). MISSED (sells_blockable and owner_change_balance pass);
//    found by a8b9b61 (6M a step). Control: the same token with cheap setters is found. 1': the
//    same setters on a light token (no excluded wallets) are missed by both (1.2M a step): the
//    change gives a heavy token a light token's headroom, and with it a light token's blind spot.
// 2. A plain token with a 3 % sell fee the owner may raise to 100 %, whose approve() spins out of
//    gas when given under 4.5M (any caller but the owner; a wallet's estimate finds the band and the
//    approval then costs ~46k). The probe's plain step at 1.2M runs out, so it is made again with
//    6M, where the approval sees ~5.5M and the step costs little; every later step then has ~1.2M
//    more than that, under the band: the holder's approval spins out and every call's step fails
//    whole. MISSED; found by a8b9b61 (every step saw ~5.5M). Control: the same token with no band
//    is found.
// 3. As 2 with the band at 6.5M, above HEAVY_EFFECT_GAS: no step ever has enough, the plain step
//    fails at 6M too and nothing is measured. MISSED, as by a8b9b61 (not new in the working tree).
// 4. Honest: a reflection token (20 excluded wallets) whose owner's fee setter is capped at 5 % and
//    writes a history (65 slots, ~1.5M gas; 80 slots, ~1.85M, in honestHistoryLong); no reclaim.
//    With 65 slots the call works inside the step's gas, and what it leaves starves the holder's
//    sell: the sell goes through, but the read of the pair's balance after it (half the gas left,
//    `_uintCall`) runs out and counts as 0, so the sell delivered nothing: FLAGGED sells_blockable
//    (a false positive; a8b9b61 passes it). With 80 slots the reads of the holder's balance starve
//    instead, the sell is never attempted, and it passes.
// 5. An open mint on a light token whose totalSupply sums 300 epochs (~650,000 gas cold, more than
//    half a 1.2M step): the plain step finishes, so no heavy step is made, and every supply read
//    counts as 0; the mint is still found (is_mintable fails), by a8b9b61 alike.
//
// Results against the sized cut (b6a0e9b): controls 1 and 2 and attack 5 found, honest 4 (80
// slots) passed; 1, 1', 2, 3 missed and honest 4 (65 slots) flagged. Against a8b9b61 (this file and
// its contracts in a copy of the repository, the detector checked out from it): 1, 2 and honest 4
// right, 1' and 3 missed. With the flat 6M restored, 1, 2 and honest 4 pass (each failed again on
// b6a0e9b's detector: checked); vigil-risk/54 makes a light step that ran out whole again with 6M,
// and 1' passes since (it fails again with that taken out: checked); 3 stays an `it.fails`.

const SUPPLY = 10n ** 27n;
const POOL_TOKENS = SUPPLY / 2n;
const POOL_ETH = parseEther('10');
const SCAN_TIMEOUT = 120_000;
/** The gas an insider's transaction is sent with (a block holds 30M). */
const TX_GAS = 10_000_000n;
/** HvGasBand's band in the attack: an approval given less spins out. */
const BAND = 4_500_000n;
/** Above HEAVY_EFFECT_GAS: no step of the probe ever has it. */
const BAND_HIGH = 6_500_000n;
/** The fee history the heavy setters write: ~25,000 gas a slot, ~2.75M in all. */
const LEDGER_WRITES = 110n;

const wallet = (label: string): Address => labelledWallet('hv', label);
const SPENDER = wallet('spender');

const abi = parseAbi([
  'function setTaxBps(uint256)',
  'function setSellTax(uint256)',
  'function reclaim(address)',
  'function approve(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function mint(uint256)',
]);

type Key =
  | 'reflectionCheap'
  | 'reflectionHeavySetter'
  | 'lightHeavySetter'
  | 'bandControl'
  | 'band'
  | 'bandHigh'
  | 'honestHistory'
  | 'honestHistoryLong'
  | 'epochMint';

const DEPLOYS: Record<Key, { contract: string; args: readonly unknown[] }> = {
  reflectionCheap: { contract: 'HvReflection', args: [SUPPLY, 20n, 10_000n, 0n, true] },
  reflectionHeavySetter: { contract: 'HvReflection', args: [SUPPLY, 20n, 10_000n, LEDGER_WRITES, true] },
  lightHeavySetter: { contract: 'HvReflection', args: [SUPPLY, 0n, 10_000n, LEDGER_WRITES, true] },
  bandControl: { contract: 'HvGasBand', args: [SUPPLY, 0n] },
  band: { contract: 'HvGasBand', args: [SUPPLY, BAND] },
  bandHigh: { contract: 'HvGasBand', args: [SUPPLY, BAND_HIGH] },
  honestHistory: { contract: 'HvReflection', args: [SUPPLY, 20n, 500n, 65n, false] },
  honestHistoryLong: { contract: 'HvReflection', args: [SUPPLY, 20n, 500n, 80n, false] },
  epochMint: { contract: 'HvEpochMint', args: [SUPPLY] },
};

const JUDGED: Record<Key, readonly string[]> = {
  reflectionCheap: ['sells_blockable', 'owner_change_balance'],
  reflectionHeavySetter: ['sells_blockable', 'owner_change_balance'],
  lightHeavySetter: ['sells_blockable', 'owner_change_balance'],
  bandControl: ['sells_blockable'],
  band: ['sells_blockable'],
  // No holder of bandHigh's ever trades, so its sells_blockable is unknown (vigil-risk/56), below.
  bandHigh: [],
  honestHistory: ['sells_blockable', 'owner_change_balance', 'is_mintable'],
  honestHistoryLong: ['sells_blockable', 'owner_change_balance', 'is_mintable'],
  epochMint: ['is_mintable'],
};

let devnet: ListingDevnet;
/** An ordinary trader: the node's second account, no insider of any token. */
let trader: Address;
let tokens: Record<Key, { address: Address; pair: Address }>;
let scanTimes: Map<Key, number>;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  const accounts = await devnet.client.request({ method: 'eth_accounts' });
  trader = getAddress(accounts[1] as Address);
  tokens = await listAll(devnet, DEPLOYS, { tokens: POOL_TOKENS, eth: POOL_ETH });
  scanTimes = await scanInOrder(Object.keys(DEPLOYS) as Key[], scan);
}, 900_000);
afterAll(() => devnet.node.stop());

const scanOf = scanOnce(() => devnet);
const scan = (key: Key) => scanOf(tokens[key].address);
const status = async (key: Key, id: string) =>
  (await scan(key)).checks.find((check) => check.id === id)?.status;

const onSnapshot = <T>(body: () => Promise<T>) => onDevnetSnapshot(devnet, body);

/**
 * Sends a transaction as `from` (impersonated, funded) with `gas`, in a block of its own: whether
 * it went through, and the gas it used.
 */
const sendWithGas = (from: Address, to: Address, data: Hex, gas = TX_GAS) =>
  sentAs(devnet, { from, to, data, gas });

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
  expect(held).toBeGreaterThan(0n);
  return held;
}

const traderSellsHalf = (key: Key) => sellHalfAs(devnet, trader, tokens[key]);

const setTax = (functionName: 'setTaxBps' | 'setSellTax', bps: bigint) =>
  encodeFunctionData({ abi, functionName, args: [bps] });

describe('the scans themselves', () => {
  it('every token scanned within the per-scan budget, every probe ran, each judged check has a verdict', async () => {
    for (const key of Object.keys(DEPLOYS) as Key[]) {
      const output = await scan(key);
      // bandHigh's holder never trades (its approve spins out in every step): since vigil-risk/56 that
      // is a failure of its own (discovery_incomplete), not a discovery that ran whole.
      expect(output.facts.discovery, key).toMatchObject({
        failures:
          key === 'bandHigh'
            ? [expect.stringMatching(/^the ordinary holder could neither send nor sell/)]
            : [],
        later_block: { error: null },
      });
      for (const id of JUDGED[key])
        expect([CheckStatus.pass, CheckStatus.fail], `${key} ${id}`).toContain(await status(key, id));
      if (key === 'bandHigh') {
        expect(await status(key, 'sells_blockable')).toBe(CheckStatus.unknown);
        expect(await status(key, 'discovery_incomplete')).toBe(CheckStatus.fail);
      }
      expect(scanTimes.get(key), key).toBeLessThan(SCAN_TIMEOUT);
    }
  });
});

describe('a heavy token whose power costs more than the 1.2M of headroom', () => {
  it('control 1: the owner sets a 100 % fee and takes a tenth of a holder (the heavy setters use ~2.75M)', async () => {
    for (const key of ['reflectionCheap', 'reflectionHeavySetter', 'lightHeavySetter'] as const)
      await onSnapshot(async () => {
        const held = await traderBuys(key);
        const take = await sendWithGas(
          devnet.owner,
          tokens[key].address,
          encodeFunctionData({ abi, functionName: 'reclaim', args: [trader] }),
        );
        expect(take.ok, key).toBe(true);
        if (key !== 'reflectionCheap') expect(take.gasUsed, key).toBeGreaterThan(2_500_000n);
        expect(await balanceOf(key, trader), key).toBeLessThanOrEqual(held - held / 10n + 1n);
        const fee = await sendWithGas(devnet.owner, tokens[key].address, setTax('setTaxBps', 10_000n));
        expect(fee.ok, key).toBe(true);
        if (key !== 'reflectionCheap') expect(fee.gasUsed, key).toBeGreaterThan(2_500_000n);
        const { sold, keptBps } = await traderSellsHalf(key);
        expect(sold, key).toBe(true);
        expect(keptBps, key).toBeGreaterThanOrEqual(9_000);
      });
  });

  for (const id of ['sells_blockable', 'owner_change_balance'])
    it(
      `control 1: the same powers with cheap setters on the heavy token are found (${id})`,
      async () => {
        expect(await status('reflectionCheap', id)).toBe(CheckStatus.fail);
      },
      SCAN_TIMEOUT,
    );

  // Failed under the sized cut: every call's step ran out whole (the call alone needs ~2.5M of the
  // step's ~B + 1.2M), its effect "reverted without a reason", the holder's legs unattempted.
  // Found with a flat 6M a heavy step.
  for (const id of ['sells_blockable', 'owner_change_balance'])
    it(
      `1: the heavy token's 100 % fee and take, each writing ~2.75M of history (${id})`,
      async () => {
        expect(await status('reflectionHeavySetter', id)).toBe(CheckStatus.fail);
      },
      SCAN_TIMEOUT,
    );

  // Failed under /53 as under a8b9b61: a light token's step had 1.2M in all. Since vigil-risk/54 a
  // light step that runs out whole is made again with 6M.
  for (const id of ['sells_blockable', 'owner_change_balance'])
    it(
      `1': the same heavy setters on a light token (${id})`,
      async () => {
        expect(await status('lightHeavySetter', id)).toBe(CheckStatus.fail);
      },
      SCAN_TIMEOUT,
    );
});

describe('a token that is heavy only below a gas band', () => {
  it('control 2: a wallet estimate finds the band, the approval then works; the owner sets a 100 % sell fee', async () => {
    for (const key of ['bandControl', 'band', 'bandHigh'] as const)
      await onSnapshot(async () => {
        const approval = encodeFunctionData({ abi, functionName: 'approve', args: [SPENDER, 1n] });
        const estimate = await devnet.client.estimateGas({
          account: trader,
          to: tokens[key].address,
          data: approval,
        });
        if (key !== 'bandControl') {
          expect(estimate).toBeGreaterThan(key === 'band' ? BAND : BAND_HIGH);
          expect((await sendWithGas(trader, tokens[key].address, approval, 1_500_000n)).ok).toBe(false);
        } else expect(estimate).toBeLessThan(100_000n);
        const approved = await sendWithGas(trader, tokens[key].address, approval, estimate);
        expect(approved.ok).toBe(true);
        expect(approved.gasUsed).toBeLessThan(100_000n);
        await traderBuys(key);
        expect((await traderSellsHalf(key)).keptBps).toBeLessThanOrEqual(300);
        expect((await sendWithGas(devnet.owner, tokens[key].address, setTax('setSellTax', 10_000n))).ok).toBe(
          true,
        );
        const { sold, keptBps } = await traderSellsHalf(key);
        expect(sold).toBe(true);
        expect(keptBps).toBeGreaterThanOrEqual(9_000);
      });
  });

  it(
    'control 2: the same fee switch without the band is found',
    async () => {
      expect(await status('bandControl', 'sells_blockable')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Failed under the sized cut: the heavy plain step (6M) saw the approval above the band and cost
  // little, every later step got that plus 1.2M, below the band, and each call's step spun out
  // whole. Found with a flat 6M: every step sees what the plain step saw.
  it(
    '2: a 100 % sell-fee switch on a token whose approval spins out below 4.5M gas',
    async () => {
      expect(await status('band', 'sells_blockable')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('a token whose approval spins out below 6.5M gas (more than any step has)', () => {
  // Fails, as under a8b9b61: the plain step runs out at 6M too; nothing is measured.
  it.fails(
    '3: a 100 % sell-fee switch on a token whose approval spins out below 6.5M gas',
    async () => {
      expect(await status('bandHigh', 'sells_blockable')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('honest heavy tokens whose fee setter costs more than the headroom', () => {
  it('control 4: the fee setter stops at 5 % (writing ~1.5M or ~1.85M of history), no reclaim; sells pay at most the fee', async () => {
    for (const key of ['honestHistory', 'honestHistoryLong'] as const)
      await onSnapshot(async () => {
        await traderBuys(key);
        expect((await traderSellsHalf(key)).keptBps, key).toBeLessThanOrEqual(200);
        expect(
          (await sendWithGas(devnet.owner, tokens[key].address, setTax('setTaxBps', 10_000n))).ok,
          key,
        ).toBe(false);
        expect(
          (await sendWithGas(devnet.owner, tokens[key].address, setTax('setTaxBps', 501n))).ok,
          key,
        ).toBe(false);
        const reclaim = encodeFunctionData({ abi, functionName: 'reclaim', args: [trader] });
        expect((await sendWithGas(devnet.owner, tokens[key].address, reclaim)).ok, key).toBe(false);
        const fee = await sendWithGas(devnet.owner, tokens[key].address, setTax('setTaxBps', 500n));
        expect(fee.ok, key).toBe(true);
        expect(fee.gasUsed, key).toBeGreaterThan(key === 'honestHistory' ? 1_400_000n : 1_750_000n);
        const { sold, keptBps } = await traderSellsHalf(key);
        expect(sold, key).toBe(true);
        expect(keptBps, key).toBeLessThanOrEqual(500);
      });
  });

  // honestHistory's sells_blockable failed under the sized cut: the setter (~1.5M) worked inside the
  // step's gas, and the read of the pair's balance after the holder's sell (half the gas left) ran
  // out and counted as 0, so the sell looked to deliver nothing. A flat 6M a step passes it.
  for (const key of ['honestHistory', 'honestHistoryLong'] as const)
    for (const id of JUDGED[key])
      it(
        `4: an honest heavy token whose 5 %-capped fee setter writes a history passes ${id} (${key})`,
        async () => {
          expect(await status(key, id)).toBe(CheckStatus.pass);
        },
        SCAN_TIMEOUT,
      );
});

describe('a mint on a token whose cold totalSupply needs more than half a light step', () => {
  it('control 5: a cold totalSupply needs over 600,000 gas; the owner triples the supply', async () => {
    await onSnapshot(async () => {
      const token = tokens.epochMint.address;
      const read = () => devnet.client.readContract({ address: token, abi, functionName: 'totalSupply' });
      const gas = await devnet.client.estimateGas({
        to: token,
        data: encodeFunctionData({ abi, functionName: 'totalSupply' }),
      });
      expect(gas).toBeGreaterThan(600_000n);
      expect(await read()).toBe(SUPPLY);
      const mint = encodeFunctionData({ abi, functionName: 'mint', args: [2n * SUPPLY] });
      expect((await sendWithGas(devnet.owner, token, mint)).ok).toBe(true);
      expect(await read()).toBe(3n * SUPPLY);
      expect(await balanceOf('epochMint', devnet.owner)).toBeGreaterThanOrEqual(2n * SUPPLY);
    });
  });

  it(
    '5: an open mint behind a totalSupply that a read given half a light step cannot finish',
    async () => {
      expect(await status('epochMint', 'is_mintable')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});
