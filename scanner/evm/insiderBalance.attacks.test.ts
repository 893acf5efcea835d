import { fileURLToPath } from 'node:url';
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseAbi,
  parseEther,
  stringToHex,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListingDevnet,
  listWithPair,
  buyAs,
  labelledWallet,
  onSnapshot,
  scanInOrder,
  scanOnce,
  sellHalfAs,
  sendAs as sendOnDevnet,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';

// Adversarial review of vigil-risk/36 (every candidate also sends its whole balance of the token to
// a wallet nobody holds: `sendEverything` in discoverPowers.ts, CALLER_ALL in the detector).
// Contracts: testContracts/InsiderBalanceAttacks.sol. Each attack asserts the right verdict by the
// corpus's rule (a limit: an insider can stop, or tax above 10 %, an ordinary holder's transfer or
// sell); `it.fails` marks one the scanner gets wrong today, with what goes wrong. Where a power is
// claimed, a control makes it on the devnet (the insider's own transactions, then an ordinary
// trader's buy and sell), so the verdict is not taken on trust.
//
// Whether a token was flagged before vigil-risk/36 was checked once, with the shape taken out of
// blockOnlySequences and of the transfer's own calls: none of these tokens was. So attacks 1 and
// 1b were false positives new in /36 (mended in vigil-risk/37: the shape is sent only by
// candidates without code), attacks 1', 3, 8 and 9 findings new in /36, and the misses
// (4-7, 10-12) misses before it too. The shape cost 9-20 more simulated calls a token here (of
// 225-1,328) and up to three more eth_calls (12 → 15 for a three-candidate token).

const SUPPLY = 10n ** 27n;
const POOL_TOKENS = SUPPLY / 2n;
const POOL_ETH = parseEther('10');
const SCAN_TIMEOUT = 120_000;

/** Wallets with no code and no key here, derived from a label so that they look random. */
const wallet = (label: string): Address => labelledWallet('ia', label);
const TREASURY = wallet('treasury');
const TEAM = wallet('team');
const RESERVE = wallet('reserve');
const DISTRIBUTOR = wallet('distributor');
/** IaMaskedReserve's MASK: keccak256("ia.mask"). */
const MASK = BigInt(keccak256(stringToHex('ia.mask')));
const ZERO: Address = '0x0000000000000000000000000000000000000000';

const abi = parseAbi([
  'function renounce()',
  'function initReserve(address)',
  'function calibrate(uint256)',
  'function transfer(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256,address[],address,uint256) payable',
]);

type Key =
  | 'refillPool'
  | 'refillWallet'
  | 'burnMilestones'
  | 'circulating'
  | 'breaker'
  | 'pairOnly'
  | 'maxTx'
  | 'keepOne'
  | 'masked'
  | 'deep'
  | 'oracle'
  | 'ethBacked'
  | 'lagged'
  | 'gasBomb';

const DEPLOYS: Record<Key, { contract: string; args: readonly unknown[]; renounce?: true }> = {
  refillPool: { contract: 'IaRefillTax', args: [SUPPLY, ZERO, DISTRIBUTOR] },
  refillWallet: { contract: 'IaRefillTax', args: [SUPPLY, TREASURY, DISTRIBUTOR] },
  burnMilestones: { contract: 'IaBurnMilestones', args: [SUPPLY] },
  circulating: { contract: 'IaCirculatingCap', args: [SUPPLY, TEAM] },
  breaker: { contract: 'IaCircuitBreaker', args: [SUPPLY, TEAM] },
  pairOnly: { contract: 'IaPairOnlyReserve', args: [SUPPLY, RESERVE], renounce: true },
  maxTx: { contract: 'IaMaxTxReserve', args: [SUPPLY, RESERVE], renounce: true },
  keepOne: { contract: 'IaKeepOneReserve', args: [SUPPLY, RESERVE], renounce: true },
  masked: { contract: 'IaMaskedReserve', args: [SUPPLY, BigInt(RESERVE) ^ MASK], renounce: true },
  deep: { contract: 'IaDeepReserve', args: [SUPPLY], renounce: true },
  oracle: { contract: 'IaOracleCover', args: [SUPPLY, RESERVE], renounce: true },
  ethBacked: { contract: 'IaEthBacked', args: [SUPPLY, RESERVE], renounce: true },
  lagged: { contract: 'IaLaggedCover', args: [SUPPLY, RESERVE], renounce: true },
  gasBomb: { contract: 'IaGasBombBalance', args: [SUPPLY] },
};

let devnet: ListingDevnet;
/** An ordinary trader: the node's second account, no insider of any token. */
let trader: Address;
const tokens = {} as Record<Key, { address: Address; pair: Address }>;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  const accounts = await devnet.client.request({ method: 'eth_accounts' });
  trader = getAddress(accounts[1] as Address);
  for (const [key, { contract, args, renounce }] of Object.entries(DEPLOYS) as [
    Key,
    (typeof DEPLOYS)[Key],
  ][]) {
    tokens[key] = await listWithPair(devnet, contract, { args, tokens: POOL_TOKENS, eth: POOL_ETH });
    const to = tokens[key].address;
    if (key === 'deep')
      await devnet.sender.send({
        label: 'set the reserve',
        to,
        data: encodeFunctionData({ abi, functionName: 'initReserve', args: [RESERVE] }),
      });
    if (renounce)
      await devnet.sender.send({
        label: `renounce ${contract}`,
        to,
        data: encodeFunctionData({ abi, functionName: 'renounce' }),
      });
  }
  // The ETH-backed token's reserve holds its backing.
  await devnet.sender.send({ label: 'back the reserve', to: RESERVE, value: parseEther('2'), data: '0x' });
  await devnet.sender.settle();
  await scanInOrder(Object.keys(DEPLOYS) as Key[], scan);
}, 600_000);
afterAll(() => devnet.node.stop());

const scanOf = scanOnce(() => devnet);
/** Each token scanned once, however many tests read the scan. */
const scan = (key: Key) => scanOf(tokens[key].address);

async function sellsCheck(key: Key) {
  return (await scan(key)).checks.find((each) => each.id === 'sells_blockable');
}
const sellsBlockable = async (key: Key) => (await sellsCheck(key))?.status;

/** Sends a transaction as `from` (impersonated, funded) and says whether it went through. */
const sendAs = (from: Address, to: Address, data: Hex, value = 0n) =>
  sendOnDevnet(devnet, { from, to, data, value });

const transferCall = (to: Address, amount: bigint) =>
  encodeFunctionData({ abi, functionName: 'transfer', args: [to, amount] });
const balanceOf = (key: Key, account: Address) =>
  devnet.client.readContract({
    address: tokens[key].address,
    abi,
    functionName: 'balanceOf',
    args: [account],
  });

/**
 * On a snapshot: `insider` makes its transactions (each mined in a block of its own), then the
 * ordinary trader buys with 0.1 ETH and sells half of it at the token (a send to the pair). What
 * the sell did: refused, or the share of it the token kept (basis points).
 */
async function sellAfter(
  key: Key,
  insider: Address,
  steps: { to: Address; data: Hex }[],
  prepare?: () => Promise<void>,
) {
  return onSnapshot(devnet, async () => {
    await prepare?.();
    for (const step of steps) expect(await sendAs(insider, step.to, step.data)).toBe(true);
    expect((await buyAs(devnet, trader, tokens[key].address)).bought).toBe(true);
    return sellHalfAs(devnet, trader, tokens[key]);
  });
}

/** A sell that went through, the token keeping `bps` of it (to a basis point of rounding). */
function expectKept(result: { sold: boolean; keptBps: number | null }, bps: number) {
  expect(result.sold).toBe(true);
  expect(Math.abs((result.keptBps ?? -100) - bps)).toBeLessThanOrEqual(1);
}
const REFUSED = { sold: false, keptBps: null };

/** The insider's whole balance of `key`'s token, sent to `to`. */
async function sendAll(key: Key, insider: Address, to: Address) {
  return { to: tokens[key].address, data: transferCall(to, await balanceOf(key, insider)) };
}
const FRESH = wallet('fresh');

describe('the scans themselves', () => {
  // So that no `it.fails` below passes on a scan that threw instead of on a wrong verdict.
  it('every token scanned, every probe ran, and sells_blockable has a verdict', async () => {
    for (const key of Object.keys(DEPLOYS) as Key[]) {
      const output = await scan(key);
      expect(output.facts.discovery, key).toMatchObject({ failures: [] });
      expect([CheckStatus.pass, CheckStatus.fail], key).toContain(await sellsBlockable(key));
    }
  });
});

describe('false positives: honest tokens a whole-balance send must not flag', () => {
  // Attack 1. A "refill" tax (3 %, 20 % while the rewards pool holds under 1 % of the supply), the
  // pool a contract whose code pays out a thousandth of its balance a day and nothing else: no
  // insider can empty it. Discovery puts the detector's code at the pool's address (it is a stored
  // address) and has it send everything away, which the pool's own code can never do: sells then
  // pay 20 %, read as a limit. Not flagged before vigil-risk/36 (the pool's other calls moved at
  // most half the holder's balance). A false positive new in /36.
  it('control: the rewards pool pays out a thousandth a day at most, so sells keep their 3 %', async () => {
    expectKept(await sellAfter('refillPool', trader, []), 300);
  });

  it(
    "1: a refill tax keyed to a rewards contract's balance (code nobody can empty) is no limit",
    // Failed under vigil-risk/36 (sells_blockable failed with transfer(a wallet nobody holds, the
    // caller's whole balance) called as the rewards pool); since /37 only a wallet sends its all.
    async () => {
      expect(await sellsBlockable('refillPool')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );

  // Attack 1b. The same root as attack 1, as a deflationary token has it: sells pay 15 % until a
  // tenth of the supply is burned, 2 % after, the burn a black-hole contract holding 12 % (no code
  // to send anything; a stored address, so a candidate). Its "send of everything" undoes the burn.
  it('control 1b: the milestone is reached, so sells pay 2 %', async () => {
    expectKept(await sellAfter('burnMilestones', trader, []), 200);
  });

  it(
    '1b: a sell tax that falls once a black-hole contract holds a tenth of the supply is no limit',
    // Failed under vigil-risk/36 (the black hole's "transfer of its whole balance": 15 % taken, 13
    // points above the 2 % before); mended in /37 with attack 1.
    async () => {
      expect(await sellsBlockable('burnMilestones')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );

  // Attack 2. An anti-whale sell cap of 1 % of the circulating supply, the owner's and the team
  // vault's tokens not counted: an insider's send only raises the cap.
  it(
    "2: an anti-whale cap of 1 % of the circulating supply (the deployer's 40 % left out) is no limit",
    async () => {
      expect(await sellsBlockable('circulating')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );
});

describe('real powers the shape finds', () => {
  // Attack 1's twin: the same refill tax keyed to a wallet with a key. Its one transfer taxes every
  // sell 20 %, 17 points above the 3 % before: a limit by the corpus's rule.
  it('control: the treasury empties itself and sells pay 20 %', async () => {
    expectKept(
      await sellAfter('refillWallet', TREASURY, [await sendAll('refillWallet', TREASURY, FRESH)]),
      2_000,
    );
  });

  it(
    "1': a refill tax keyed to a treasury wallet's balance is a limit",
    async () => {
      const check = await sellsCheck('refillWallet');
      expect(check?.status).toBe(CheckStatus.fail);
      expect(check?.detail).toContain(`called as ${TREASURY}`);
    },
    SCAN_TIMEOUT,
  );

  // Attack 3 (a judgement). An "anti-dump circuit breaker": a wallet-to-wallet send of more than 3 %
  // of the supply stops every sell for the rest of the block. The team wallet (5 %) trips it at
  // will, every block it likes: by the corpus's rule an insider who can stop an ordinary holder's
  // sell, so a limit, if a weak one (a block at a time, and any whale can do the same). Not
  // flagged before vigil-risk/36. The lead may rule otherwise; the scan flags it.
  // Shown to the lead as a judgement, not a defect.
  it(
    '3: a circuit breaker any 3 % send trips, the team wallet holding 5 %, is a limit',
    async () => {
      const check = await sellsCheck('breaker');
      expect(check?.status).toBe(CheckStatus.fail);
      expect(check?.detail).toContain('circuit breaker');
    },
    SCAN_TIMEOUT,
  );

  // Attack 9. The cap read from another contract, which reads the reserve's balance: the reserve is
  // found in the oracle's storage (a contract the token relies on) and its send shows.
  it('control: the reserve empties itself and sells are refused', async () => {
    expect(await sellAfter('oracle', RESERVE, [await sendAll('oracle', RESERVE, FRESH)])).toEqual(REFUSED);
  });

  it(
    "9: a cap an oracle reads from the reserve's balance is a limit",
    async () => {
      expect(await sellsBlockable('oracle')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('evasions: balance-derived caps the shape misses', () => {
  // Attack 4. The reserve may only send to the pool: it empties itself with one sell. The shape
  // sends to a fresh wallet only, which the token refuses.
  it('control 4: the reserve sells everything and sells are refused', async () => {
    const step = {
      to: tokens.pairOnly.address,
      data: transferCall(tokens.pairOnly.pair, await balanceOf('pairOnly', RESERVE)),
    };
    expect(await sellAfter('pairOnly', RESERVE, [step])).toEqual(REFUSED);
  });

  it.fails(
    '4: a cap on a reserve that may only sell into the pool is a limit',
    // Fails: the reserve's transfer to the wallet nobody holds reverts ("reserve sells only").
    async () => {
      expect(await sellsBlockable('pairOnly')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 5. An ordinary per-send maximum (1 % of the supply): the reserve (5 %) empties itself in
  // five sends, never in one.
  it('control 5: five sends of 1 % empty the reserve and sells are refused', async () => {
    const step = { to: tokens.maxTx.address, data: transferCall(FRESH, SUPPLY / 100n) };
    expect(await sellAfter('maxTx', RESERVE, Array<typeof step>(5).fill(step))).toEqual(REFUSED);
  });

  it.fails(
    '5: a cap on a reserve under a per-send maximum is a limit',
    // Fails: the whole balance in one send reverts ("max tx"); no shape sends it in pieces.
    async () => {
      expect(await sellsBlockable('maxTx')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 6. No account may send its whole balance: the reserve sends all but one unit.
  it('control 6: the reserve sends all but one unit and sells are refused', async () => {
    const step = {
      to: tokens.keepOne.address,
      data: transferCall(FRESH, (await balanceOf('keepOne', RESERVE)) - 1n),
    };
    expect(await sellAfter('keepOne', RESERVE, [step])).toEqual(REFUSED);
  });

  it.fails(
    '6: a cap on a reserve that must keep one unit is a limit',
    // Fails: exactly the whole balance reverts ("keep one unit").
    async () => {
      expect(await sellsBlockable('keepOne')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 7. The reserve's address stored masked: no candidate is the reserve.
  it('control 7: the reserve empties itself and sells are refused', async () => {
    expect(await sellAfter('masked', RESERVE, [await sendAll('masked', RESERVE, FRESH)])).toEqual(REFUSED);
  });

  it.fails(
    '7: a cap on a reserve whose address is stored masked is a limit',
    // Fails: the reserve is no candidate. Its address is in the holder's sell all the same, as the
    // preimage of the balances key the sell hashes.
    async () => {
      expect(await sellsBlockable('masked')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 8 (the scanner wins). The reserve set by the owner after launch, kept in slot 16, past
  // the slots read for accounts, and no constructor argument: it is found all the same, named in
  // the owner's initReserve call (the token's calls are read from traces since its creation).
  it('control 8: the reserve empties itself and sells are refused', async () => {
    expect(await sellAfter('deep', RESERVE, [await sendAll('deep', RESERVE, FRESH)])).toEqual(REFUSED);
  });

  it(
    '8: a cap on a reserve kept past the sixteenth slot is a limit',
    async () => {
      const check = await sellsCheck('deep');
      expect(check?.status).toBe(CheckStatus.fail);
      expect(check?.detail).toContain(`called as ${RESERVE}`);
    },
    SCAN_TIMEOUT,
  );

  // Attack 10. Sells work while the reserve holds 1 ETH: it sends its ETH away, not the token.
  it('control 10: the reserve sends its ETH away and sells are refused', async () => {
    // Its balance set to nothing, as its send of everything would leave it (a send needs gas
    // this test would have to give it).
    expectKept(await sellAfter('ethBacked', RESERVE, []), 0);
    const emptied = () => devnet.client.setBalance({ address: RESERVE, value: 0n });
    expect(await sellAfter('ethBacked', trader, [], emptied)).toEqual(REFUSED);
  });

  it.fails(
    "10: sells that need a reserve's ETH are a limit (out of the shape's reach)",
    // Fails: no call sends the caller's native coin anywhere.
    async () => {
      expect(await sellsBlockable('ethBacked')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  // Attack 11. The cover is the reserve's balance as the block's first transfer found it: the
  // reserve's send stops sells from the next block on.
  it('control 11: the reserve empties itself and, a block later, sells are refused', async () => {
    expect(await sellAfter('lagged', RESERVE, [await sendAll('lagged', RESERVE, FRESH)])).toEqual(REFUSED);
  });

  it.fails(
    "11: a cap on the reserve's balance as the block began is a limit",
    // Fails: the send and the holder's sell share one block; the later-block round stages no
    // transfer (transfer is probed ALONE, never a staged or first call).
    async () => {
      expect(await sellsBlockable('lagged')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('robustness', () => {
  // Attack 12. balanceOf burns all the gas it is given when asked about the owner (from any
  // contract: the owner's own wallet reads it cheaply). The detector reads the caller's balance
  // before each call and, since vigil-risk/36, once more inside _withPlaceholders.
  it('control 12: the owner sets a 100 % sell fee under an odd name', async () => {
    const step = {
      to: tokens.gasBomb.address,
      data: encodeFunctionData({ abi, functionName: 'calibrate', args: [10_000n] }),
    };
    expectKept(await sellAfter('gasBomb', devnet.owner, [step]), 10_000);
  });

  it(
    '12: a scan of a token whose balanceOf burns all gas for its owner finishes, with a result',
    async () => {
      const output = await scan('gasBomb');
      expect(await sellsBlockable('gasBomb')).toBeDefined();
      expect(output.checks.length).toBeGreaterThan(0);
    },
    SCAN_TIMEOUT,
  );

  it(
    "12: the owner's 100 % sell fee is found behind a balanceOf that burns the owner's gas",
    // Failed until vigil-risk/40: the owner's balance was read with all the step's gas before the
    // call (_measureBefore), which left a sixty-fourth of it, so none of the owner's calls was
    // measured. Since /40 each of the detector's reads has READ_GAS at most.
    async () => {
      expect(await sellsBlockable('gasBomb')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});
