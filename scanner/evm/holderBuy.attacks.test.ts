import { fileURLToPath } from 'node:url';
import { encodeFunctionData, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListingDevnet,
  listWithPair,
  probeAsOwner,
  scanOnce,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';
import { classify } from './discoverPowers.ts';
import { holderBuySizes, PROBE_VICTIM } from './probePrivileges.ts';

// Adversarial review of vigil-risk/34 (the probe's ordinary holder bought a hundredth of the pool's
// native coin, 0.01 where that was refused), kept for vigil-risk/35, which mends attacks 1, 4d and
// 5: discovery keeps the largest of a fiftieth, a two-hundredth and a thousandth of the pool whose
// buy, send and sell are whole with no call (chooseHolderBuy). Contracts:
// testContracts/HolderBuy.sol.
//
// The pool: half a 1e27 supply beside 10 ETH. The reviewed holder (0.1 ETH) bought about 4.9e24
// and sold a quarter of that (1.2e24, a quarter percent of the pool's tokens; it sends half
// first); it sells an eighth (6.2e23) before its receipt where its later sell fails without any
// call. A fiftieth (0.2 ETH) buys about 9.7e24 and sells 2.4e24; a two-hundredth (0.05 ETH) buys
// about 2.5e24. The default holder (0.01 ETH) buys about 5.0e23 and sells 1.2e23. The corpus's
// ordinary holder (0.5 of a 20-coin pool) sells about 1.2 % of the pool's tokens: 6e24 here.
//
// `it.fails` marks an attack that succeeds today: the test asserts the right verdict.

const tokenAbi = parseAbi([
  'function tune(uint256)',
  'function flag(address)',
  'function setMaxSell(uint256)',
]);
const SUPPLY = 10n ** 27n;
const POOL_TOKENS = SUPPLY / 2n;
const POOL_ETH = parseEther('10');
/** The reviewed holder's buy: a hundredth of the pool. */
const LARGE = parseEther('0.1');

type Key =
  | 'capHidesFee'
  | 'whaleFreeze'
  | 'whaleTaxHidesFee'
  | 'launchCapFloor'
  | 'floorUnderHalfPercent'
  | 'honestFloor'
  | 'honestWhaleCap'
  | 'closed'
  | 'capHidesFeeControl'
  | 'whaleFreezeControl'
  | 'whaleTaxHidesFeeControl'
  | 'launchCapFloorControl';

const DEPLOYS: Record<Key, { contract: string; args: readonly bigint[] }> = {
  // A fixed sell cap of 3e23: over the default holder's sell, under the larger holder's eighth.
  capHidesFee: { contract: 'HbCapHidesFee', args: [SUPPLY, 3n * 10n ** 23n] },
  // Buys of more than 2e24 freeze the buyer: the larger buy does, the default one does not.
  whaleFreeze: { contract: 'HbWhaleFreeze', args: [SUPPLY, 2n * 10n ** 24n] },
  // Sells above 3e23 pay 95 %: the larger holder's do, the default holder's do not.
  whaleTaxHidesFee: { contract: 'HbWhaleTaxHidesFee', args: [SUPPLY, 3n * 10n ** 23n] },
  // Buys capped at 2e24 (0.2 % of the supply): the larger buy is refused. Sells may be capped
  // down to 4e23: over the default holder's sell, under the half of what a buy at the cap holds.
  launchCapFloor: { contract: 'HbLaunchCapFloor', args: [SUPPLY, 2n * 10n ** 24n, 4n * 10n ** 23n] },
  // Sells may be capped down to 0.4 % of the pool's tokens (2e24).
  floorUnderHalfPercent: { contract: 'HbSellFloor', args: [SUPPLY, (POOL_TOKENS * 4n) / 1000n] },
  // Sells may be capped down to 3 % of the pool's tokens: the corpus's holder sells 1.2 %.
  honestFloor: { contract: 'HbSellFloor', args: [SUPPLY, (POOL_TOKENS * 3n) / 100n] },
  // A fixed sell cap of 3e23, removable one way, and a sell fee of at most 5 %.
  honestWhaleCap: { contract: 'HbHonestWhaleCap', args: [SUPPLY, 3n * 10n ** 23n] },
  // Every buy refused (trading not open): the larger buy and the default one alike.
  closed: { contract: 'HbLaunchCapFloor', args: [SUPPLY, 0n, 4n * 10n ** 23n] },
  // Controls: the same tokens with their size rule out of reach (a threshold of the whole supply),
  // so the power itself is shown to be one a scan finds.
  capHidesFeeControl: { contract: 'HbCapHidesFee', args: [SUPPLY, SUPPLY] },
  whaleFreezeControl: { contract: 'HbWhaleFreeze', args: [SUPPLY, SUPPLY] },
  whaleTaxHidesFeeControl: { contract: 'HbWhaleTaxHidesFee', args: [SUPPLY, SUPPLY] },
  launchCapFloorControl: { contract: 'HbLaunchCapFloor', args: [SUPPLY, SUPPLY, 4n * 10n ** 23n] },
};

let devnet: ListingDevnet;
const tokens = {} as Record<Key, { address: `0x${string}`; pair: `0x${string}` }>;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  for (const [key, { contract, args }] of Object.entries(DEPLOYS) as [Key, (typeof DEPLOYS)[Key]][])
    tokens[key] = await listWithPair(devnet, contract, { args, tokens: POOL_TOKENS, eth: POOL_ETH });
}, 180_000);
afterAll(() => devnet.node.stop());

const probe = (key: Key, data: `0x${string}`, buyWei?: bigint) =>
  probeAsOwner(devnet, tokens[key], [{ label: 'the power', data }], buyWei);

/** Whether the call shows as a limit against the probe's own baseline (discovery's rule). */
function showsLimit(result: Awaited<ReturnType<typeof probe>>): boolean {
  const effect = result.effects[0];
  return effect ? classify(effect, result.baselineEffect).includes('limit') : false;
}

const scanOf = scanOnce(() => devnet);
/** Each token scanned once, however many tests read the scan. */
const scan = (key: Key) => scanOf(tokens[key].address);

async function sellsBlockable(key: Key) {
  const output = await scan(key);
  return output.checks.find((each) => each.id === 'sells_blockable')?.status;
}

const tune = (bps: bigint) => encodeFunctionData({ abi: tokenAbi, functionName: 'tune', args: [bps] });
const flagVictim = encodeFunctionData({ abi: tokenAbi, functionName: 'flag', args: [PROBE_VICTIM] });
const SCAN_TIMEOUT = 300_000;

describe('attack 1: a size rule that fails the larger holder without any call hides the power (mended)', () => {
  // vigil-risk/34 fell back to 0.01 only where the larger BUY failed. A token that lets the buy
  // through but refuses (or heavily taxes) what the larger holder then does, without any call,
  // leaves limitedAgainst nothing to compare with: a leg that failed (or lost 95 %) in the
  // baseline is never a limit. The default 0.01 holder, under the rule's size, shows the power;
  // since vigil-risk/35 discovery keeps only a size whose holder is whole with no call.
  it(
    'controls: without the size rule, a scan reads each power as a limit',
    async () => {
      for (const key of ['capHidesFeeControl', 'whaleFreezeControl', 'whaleTaxHidesFeeControl'] as const)
        expect(await sellsBlockable(key), key).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it('1a: the default holder shows a 99 % sell fee that a fixed anti-whale cap hides', async () => {
    expect(showsLimit(await probe('capHidesFee', tune(9900n)))).toBe(true);
  });

  it('1a: a larger holder cannot show it (its sell hits the cap with no call)', async () => {
    const result = await probe('capHidesFee', tune(9900n), LARGE);
    expect(showsLimit(result)).toBe(false);
  });

  it(
    '1a: a scan reads the owner fee behind a fixed anti-whale cap as a limit',
    async () => {
      expect(await sellsBlockable('capHidesFee')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it('1b: the default holder shows the owner freezing it', async () => {
    expect(showsLimit(await probe('whaleFreeze', flagVictim))).toBe(true);
  });

  it('1b: a larger holder cannot show it (its buy froze it already)', async () => {
    expect(showsLimit(await probe('whaleFreeze', flagVictim, LARGE))).toBe(false);
  });

  it(
    '1b: a scan reads the owner freeze behind an anti-sniper freeze of large buyers as a limit',
    async () => {
      expect(await sellsBlockable('whaleFreeze')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it('1c: the default holder shows a 100 % owner fee', async () => {
    expect(showsLimit(await probe('whaleTaxHidesFee', tune(10_000n)))).toBe(true);
  });

  it('1c: a larger holder cannot show it over a 95 % whale tax (a rise of 5 points)', async () => {
    expect(showsLimit(await probe('whaleTaxHidesFee', tune(10_000n), LARGE))).toBe(false);
  });

  it(
    '1c: a scan reads the owner fee behind a fixed whale tax as a limit',
    async () => {
      expect(await sellsBlockable('whaleTaxHidesFee')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('attack 2: a launch cap forces the fallback, and a floor between the sizes escapes (known limit)', () => {
  // docs/risk-model.md, Known limits: a token that refuses the larger buy is probed with 0.01 for
  // the rest of the discovery, so a cap the owner may lower to a floor between the two holders'
  // sells escapes (a holder who bought at the launch cap and sells half is capped by it).
  it('the larger buy is refused and the probe falls back to 0.01', async () => {
    const result = await probe(
      'launchCapFloor',
      encodeFunctionData({ abi: tokenAbi, functionName: 'setMaxSell', args: [4n * 10n ** 23n] }),
      LARGE,
    );
    expect(result.buyRefused).toBe(true);
    expect(result.victimBuy).toMatchObject({ ok: true });
    expect(showsLimit(result)).toBe(false);
  });

  it(
    'control: without the launch cap the larger holder shows the floor',
    async () => {
      expect(await sellsBlockable('launchCapFloorControl')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it.fails(
    'a scan reads a sell cap lowerable to 0.08 % of the pool as a limit',
    async () => {
      expect(await sellsBlockable('launchCapFloor')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );

  it(
    'the refusal costs one round trip per size tried, before discovery',
    async () => {
      const output = await scan('launchCapFloor');
      expect(output.facts.discovery).toMatchObject({
        holder_buy: { wei: null, sizes_tried: 2, refused_later: false },
        retried_round_trips: { resumed: 0 },
      });
    },
    SCAN_TIMEOUT,
  );
});

describe('attack 5: a floor between the quarter percent the holder sold and the half percent the docs said (mended)', () => {
  // vigil-risk/34's docs: "its sell is about half a percent of the pool's tokens ... more than any
  // threshold under it". The holder sends half of what it bought first and sells half of the rest:
  // with a hundredth of the pool, a quarter percent. A cap lowerable to 0.4 % of the pool is a
  // limit by the corpus's rule. vigil-risk/35's largest size is a fiftieth of the pool.
  it("the largest holder's sell is about half a percent of the pool's tokens, as the docs say", async () => {
    const [largest] = holderBuySizes(POOL_ETH);
    const result = await probe('honestFloor', tune(0n), largest?.wei);
    expect(result.buyRefused).toBe(false);
    const sold = result.baselineEffect.victimSell.amountIn;
    // "about half a percent": at least 0.45 % of what the pool held before the holder's buy.
    expect(sold * 10_000n).toBeGreaterThanOrEqual(POOL_TOKENS * 45n);
  });

  it(
    'a scan reads a sell cap lowerable to 0.4 % of the pool as a limit',
    async () => {
      expect(await sellsBlockable('floorUnderHalfPercent')).toBe(CheckStatus.fail);
    },
    SCAN_TIMEOUT,
  );
});

describe('attack 3: honest tokens stay clear with the larger holder', () => {
  it(
    'a sell cap lowerable only to 3 % of the pool and a fee of at most 5 % is no limit',
    async () => {
      expect(await sellsBlockable('honestFloor')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );

  it(
    'a fixed anti-whale cap the larger holder hits, removable one way, is no limit',
    async () => {
      expect(await sellsBlockable('honestWhaleCap')).toBe(CheckStatus.pass);
    },
    SCAN_TIMEOUT,
  );
});

describe('attack 4: sizes the pool cannot give', () => {
  it('a pool without native coin, or more than a reserve can hold, gives no size but the default', () => {
    expect(holderBuySizes(0n)).toEqual([]);
    expect(holderBuySizes(2n ** 200n)).toEqual([]);
  });

  it('a buy the router cannot quote falls back to 0.01 instead of failing the probe', async () => {
    const result = await probe('honestFloor', tune(0n), 2n ** 200n);
    expect(result.buyRefused).toBe(true);
    expect(result.victimBuy).toMatchObject({ ok: true });
    expect(result.baselineEffect.victimSell).toMatchObject({ attempted: true, ok: true });
  });

  // Not reachable from contractSafety: a Uniswap V2 pair's reserves are uint112. probePrivileges'
  // own contract was not held to that in vigil-risk/34: the actor's balance override (2 × buyWei)
  // was sent unchecked and the node refuses a value over a word, so the probe threw instead of
  // falling back. Mended: a buy of 2^112 or more is one refused.
  it('a buy whose doubled balance overflows a word falls back instead of failing the probe', async () => {
    const result = await probe('honestFloor', tune(0n), 2n ** 255n);
    expect(result.buyRefused).toBe(true);
    expect(result.victimBuy).toMatchObject({ ok: true });
  });

  it(
    'a token refusing every buy scans, pays one round trip per size tried, and says so',
    async () => {
      const output = await scan('closed');
      // No holder could buy, so no call's effect on holders was measured: since vigil-risk/56 a
      // failure of discovery's own (discovery_incomplete), not a pass of sells_blockable.
      expect(output.facts.discovery).toMatchObject({
        holder_buy: { wei: null, sizes_tried: 2, refused_later: false },
        failures: [expect.stringMatching(/^the ordinary holder could neither send nor sell/)],
        retried_round_trips: { resumed: 0 },
      });
      expect(output.checks.find((check) => check.id === 'discovery_incomplete')?.status).toBe(
        CheckStatus.fail,
      );
    },
    SCAN_TIMEOUT,
  );
});
